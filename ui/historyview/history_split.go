package historyview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// The list's share of the split side by side and stacked.
const (
	sideOffset    = 0.6
	stackedOffset = 0.4
)

// adaptiveSplit lays out the list and the detail side by side when the
// window is wide enough for both, and the detail under the list when it
// is not: a tiling window manager gives the window half a 1280 px screen,
// 640 px, where side by side cut the detail's text and buttons. Its
// MinSize is the stacked one, so the window may be that narrow. Its
// methods run on the Fyne goroutine.
type adaptiveSplit struct {
	split *container.Split
}

// newAdaptiveSplit returns a container holding split, which it turns
// between horizontal and vertical as its width allows.
func newAdaptiveSplit(split *container.Split) *fyne.Container {
	return container.New(&adaptiveSplit{split: split}, split)
}

// sideBySide is the least width for the two panes side by side.
func (a *adaptiveSplit) sideBySide() float32 {
	return a.split.Leading.MinSize().Width + a.split.Trailing.MinSize().Width + theme.Padding()
}

// Layout makes the split horizontal when size is wide enough for both
// panes, vertical otherwise, and gives it all of size.
func (a *adaptiveSplit) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	wide := size.Width >= a.sideBySide()
	if a.split.Horizontal != wide {
		// Stacked, the detail gets the larger part: the list still shows
		// a few rows, and the detail's text and buttons need the room.
		a.split.Horizontal = wide
		a.split.Offset = stackedOffset
		if wide {
			a.split.Offset = sideOffset
		}
		a.split.Refresh()
	}
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// MinSize is what the panes need stacked.
func (a *adaptiveSplit) MinSize([]fyne.CanvasObject) fyne.Size {
	l, t := a.split.Leading.MinSize(), a.split.Trailing.MinSize()
	return fyne.NewSize(max(l.Width, t.Width), l.Height+t.Height+theme.Padding())
}
