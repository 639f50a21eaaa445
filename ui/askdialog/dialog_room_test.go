package askdialog

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/asktray/asktray/app/question"
)

// TestDialog_NeverTallerThanTheScreen is item 5 of issue 37: a long
// approval on a screen with room for 448 units (1280×720 at 150 %, less a
// title bar) is no taller than that; its body scrolls and its buttons stay
// wholly inside the window. With room to spare, the same approval is
// taller, up to maxDialogHeight.
func TestDialog_NeverTallerThanTheScreen(t *testing.T) {
	q := shellRequest(question.Client{Name: "claude-code"}, strings.Repeat("make -C services/payments test-integration\n", 30),
		question.RiskHigh, "runs 30 commands")
	q.AgentReason = strings.Repeat("The integration suite must pass before the release branch is cut. ", 6)

	e := newDialogEnv(t)
	e.m.room = func() float32 { return 2000 }
	free := e.ask(q)
	freeH := free.win.Canvas().Size().Height
	if freeH <= 448 || freeH > maxDialogHeight {
		t.Fatalf("with room to spare: window %v high", freeH)
	}

	e = newDialogEnv(t)
	e.m.room = func() float32 { return 448 }
	d := e.ask(q)
	size := d.win.Canvas().Size()
	if size.Height > 448 {
		t.Fatalf("window %v high on a screen with room for 448", size.Height)
	}
	if d.body.room <= 0 || d.body.scroll.Content.MinSize().Height <= d.body.scroll.Size().Height {
		t.Fatalf("the body does not scroll: held to %v, content %v in %v", d.body.room,
			d.body.scroll.Content.MinSize().Height, d.body.scroll.Size().Height)
	}
	for _, label := range []string{"Deny", "Allow once"} {
		b := findButton(t, d, label)
		pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(b)
		if pos.Y < 0 || pos.Y+b.Size().Height > size.Height || b.Size().Height <= 0 {
			t.Errorf("%s at y %v, %v high, in a window %v high", label, pos.Y, b.Size().Height, size.Height)
		}
	}
}
