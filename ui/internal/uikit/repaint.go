package uikit

import "fyne.io/fyne/v2"

// RepaintOnResize returns content in a container that, each time the
// window gives it a new size (its first configure included: a tiling
// window manager sets a window's size after it is mapped), refreshes all
// of content on the next turn of Fyne's loop, so the window is drawn again
// at its new size. Under sway a window shown before its first configure
// could stay a grey rectangle until its layout changed. Call it, and use
// the result, on the Fyne goroutine.
func RepaintOnResize(content fyne.CanvasObject) fyne.CanvasObject {
	return &fyne.Container{Layout: &repaintLayout{content: content}, Objects: []fyne.CanvasObject{content}}
}

// repaintLayout gives its one object all of its size and schedules a
// refresh of it when that size changes.
type repaintLayout struct {
	content fyne.CanvasObject
	last    fyne.Size
	pending bool // a refresh is scheduled
}

func (l *repaintLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	if size == l.last || l.pending {
		return
	}
	l.last, l.pending = size, true
	// Not now: the layout pass that called Layout is still going, and the
	// window's new size reaches its GL surface only after it.
	fyne.Do(func() {
		l.pending = false
		l.content.Refresh()
	})
}

func (l *repaintLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range objs {
		m = m.Max(o.MinSize())
	}
	return m
}
