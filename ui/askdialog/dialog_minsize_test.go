package askdialog

import (
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/asktray/asktray/app/question"
)

// TestDialog_MinimumSizeReadable: for every kind, the window's content
// (which the desktop driver makes the window's minimum size, plus the
// canvas padding) is at least minDialogWidth wide and fits maxDialogHeight;
// laid out at that minimum, the headline keeps most of the width and every
// button lies inside the window.
func TestDialog_MinimumSizeReadable(t *testing.T) {
	long := "kubectl --context prod-eu-west-1 -n payments rollout restart deployment/payments-api && " + strings.Repeat("kubectl get pods -w ", 20)
	cases := map[string]question.Question{
		"confirm":  {Kind: question.KindConfirm, Message: "Delete 3 branches?", Destructive: true},
		"text":     {Kind: question.KindText, Message: "Name the branch", FreeText: true},
		"choice":   {Kind: question.KindChoice, Message: "How should I roll out v1.5?", Options: eightDeploys},
		"form":     {Kind: question.KindForm, Message: "Who is the new maintainer?", Schema: json.RawMessage(personSchema)},
		"approval": {Kind: question.KindApproval, Tool: "request_approval", Origin: question.OriginApproval, Risk: question.RiskHigh, Action: "Restart the payments API", Message: "Restart the payments API", Details: "```\n" + long + "\n```"},
	}
	for name, q := range cases {
		t.Run(name, func(t *testing.T) {
			e := newDialogEnv(t)
			d := e.ask(q)
			content := d.win.Content()
			min := content.MinSize()
			if w := min.Width + 2*theme.Padding(); w < minDialogWidth {
				t.Errorf("minimum window width %.0f < %d", w, minDialogWidth)
			}
			if h := min.Height + 2*theme.Padding(); h > maxDialogHeight {
				t.Errorf("minimum window height %.0f > %d: it cannot fit a small screen", h, maxDialogHeight)
			}
			d.win.Resize(fyne.NewSize(min.Width+2*theme.Padding(), min.Height+2*theme.Padding()))
			if w := d.headline.Size().Width; w < min.Width*3/4 {
				t.Errorf("at the minimum size the headline is %.0f of %.0f wide", w, min.Width)
			}
			for _, b := range d.buttons {
				if !b.Visible() {
					continue
				}
				pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(b)
				if pos.X < 0 || pos.X+b.Size().Width > d.win.Canvas().Size().Width+0.5 || b.Size().Width < minButtonWidth/2 {
					t.Errorf("button %q at x %.0f, %.0f wide, in a %.0f wide window", b.Text, pos.X, b.Size().Width, d.win.Canvas().Size().Width)
				}
			}
		})
	}
}
