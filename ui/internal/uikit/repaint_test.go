package uikit

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// countingLabel counts its refreshes.
type countingLabel struct {
	widget.Label
	refreshes int
}

func (c *countingLabel) Refresh() {
	c.refreshes++
	c.Label.Refresh()
}

// TestRepaintOnResize: the window's first size and every later new size
// refresh the content (issue 37 item 4: a status window shown before sway
// configured it stayed grey); a layout pass at the same size does not.
func TestRepaintOnResize(t *testing.T) {
	test.NewTempApp(t)
	l := &countingLabel{}
	l.ExtendBaseWidget(l)
	l.SetText("Asktray is running")
	l.refreshes = 0
	w := test.NewTempWindow(t, RepaintOnResize(l))
	w.Resize(fyne.NewSize(300, 200))
	first := l.refreshes
	if first == 0 {
		t.Fatal("the first size did not refresh the content")
	}
	w.Content().(*fyne.Container).Layout.Layout(w.Content().(*fyne.Container).Objects, w.Content().Size())
	if l.refreshes != first {
		t.Fatalf("a layout pass at the same size refreshed the content (%d, was %d)", l.refreshes, first)
	}
	w.Resize(fyne.NewSize(640, 480))
	if l.refreshes == first {
		t.Fatal("a new size did not refresh the content")
	}
}
