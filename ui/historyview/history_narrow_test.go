package historyview

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/ui/internal/uitheme"
)

// laidOut returns the window's split and its detail's Copy answer and
// Delete buttons, laid out at the window's size.
func laidOut(t *testing.T, o fyne.CanvasObject) (split *container.Split, buttons map[string]*widget.Button) {
	t.Helper()
	buttons = map[string]*widget.Button{}
	for _, c := range test.LaidOutObjects(o) {
		switch c := c.(type) {
		case *container.Split:
			split = c
		case *widget.Button:
			buttons[c.Text] = c
		}
	}
	if split == nil || buttons["Copy answer"] == nil || buttons["Delete"] == nil {
		t.Fatalf("no split, Copy answer or Delete in the window: %v", buttons)
	}
	return split, buttons
}

// TestHistory_At640 renders the window 640 px wide, what a tiling window
// manager gives it on half of a 1280 px screen (issue 37 item 3): side by
// side, the detail's text was cut and its buttons drawn over each other;
// now the detail goes under the list, every part of the window fits its
// width, and wide again the two are side by side.
func TestHistory_At640(t *testing.T) {
	s := historytest.New(t)
	seedHistory(t, s, histSeed)
	x := newHistHarness(t, s)
	x.h.app.Settings().SetTheme(fixedVariantTheme{uitheme.New(), theme.VariantDark})
	x.show()
	h := x.h
	h.OnOpenDialog = func(string) {}
	h.list.Select(1)
	h.win.Resize(fyne.NewSize(640, 640))
	if m := h.win.Content().MinSize(); m.Width > 640 {
		t.Fatalf("the window needs %v wide", m.Width)
	}
	split, b := laidOut(t, h.win.Content())
	if split.Horizontal {
		t.Fatal("at 640 px the detail is still beside the list")
	}
	copyBtn, del := b["Copy answer"], b["Delete"]
	if copyBtn.Position().X+copyBtn.Size().Width > del.Position().X || fyne.CurrentApp().Driver().AbsolutePositionForObject(del).X+del.Size().Width > 640 {
		t.Fatalf("Copy answer at %v %v and Delete at %v %v overlap or leave the window", copyBtn.Position(), copyBtn.Size(), del.Position(), del.Size())
	}
	saveHistoryShot(t, h.win.Canvas().Capture(), "history-640.png")

	h.win.Resize(fyne.NewSize(1000, 640))
	if split, _ := laidOut(t, h.win.Content()); !split.Horizontal {
		t.Fatal("at 1000 px the detail is not beside the list")
	}
}
