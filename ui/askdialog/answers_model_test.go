package askdialog

import (
	"testing"

	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/app/question/present/presenttest"
)

// TestDialog_AnswersFollowTheModel: for every kind and variant, the
// dialog's answer buttons are the model's (present.Answers), left to
// right, with its labels, its default (Enter's, drawn high), its no (Esc's),
// its dangerous yes (outlined) and its fixed answers. The page's and the
// walk's own tests check them against the same cases.
func TestDialog_AnswersFollowTheModel(t *testing.T) {
	for _, c := range presenttest.ButtonCases() {
		e := newDialogEnv(t)
		d := e.ask(c.Q)
		want := present.Answers(&d.q)
		var got []*dialogButton
		for _, b := range d.buttons {
			if b.act != nil && b.act.do == nil { // not Always…, which opens a menu
				got = append(got, b)
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d answer buttons %v, want %d", c.Name, len(got), buttonTexts(d), len(want))
			continue
		}
		for i, b := range want {
			g := got[i]
			if g.Text != b.Label || g.act.isDefault != b.Default || (d.defaultButton == g) != b.Default ||
				g.act.isNo != b.IsNo || (d.noButton == g) != b.IsNo || g.act.outlined != b.Danger {
				t.Errorf("%s: button %d %q default %v no %v outlined %v, want %+v", c.Name, i, g.Text, g.act.isDefault, g.act.isNo, g.act.outlined, b)
			}
			if b.Default != (g.Importance == widget.HighImportance) {
				t.Errorf("%s: %q importance %v, default %v", c.Name, g.Text, g.Importance, b.Default)
			}
			if b.FromInput() != (g.act.respond == nil) {
				t.Errorf("%s: %q answers from the input %v, want %v", c.Name, g.Text, g.act.respond == nil, b.FromInput())
				continue
			}
			if g.act.respond != nil {
				resp, err := g.act.respond()
				if err != nil || resp.Action != b.Action || string(resp.Value) != string(b.Value) {
					t.Errorf("%s: %q answers %+v %v, want %s %s", c.Name, g.Text, resp, err, b.Action, b.Value)
				}
			}
		}
	}
}
