package askdialog

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// moveHandle makes its content (the dialog's headline and session line) a
// place to drag the window by when no window manager frames it: on a bare
// X server (a kiosk, a remote display, Xvfb) a window has no title bar and
// nothing else can move it. Under a window manager that frames windows,
// and off X11, dragging it does nothing: the title bar is there (one that
// does not frame them still decides: it receives the move as a request).
// It is used on the Fyne goroutine only.
type moveHandle struct {
	widget.BaseWidget
	content fyne.CanvasObject
	win     func() fyne.Window
	drag    *x11Drag // the drag under way; nil between drags
}

var _ fyne.Draggable = (*moveHandle)(nil)

func newMoveHandle(content fyne.CanvasObject, win func() fyne.Window) *moveHandle {
	h := &moveHandle{content: content, win: win}
	h.ExtendBaseWidget(h)
	return h
}

// CreateRenderer draws the content as it is.
func (h *moveHandle) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(h.content)
}

// Dragged moves the window with the pointer: the pointer's place on the
// screen is read from the X server at each event and the window keeps the
// offset it had when the drag began, so no event's rounding adds up.
func (h *moveHandle) Dragged(ev *fyne.DragEvent) {
	w := h.win()
	if w == nil {
		return
	}
	handle := x11Handle(w)
	if handle == 0 {
		return
	}
	if h.drag == nil {
		// The first event comes once the pointer has moved past the
		// driver's drag threshold: begin where the button went down.
		scale := w.Canvas().Scale()
		d, ok := beginX11Drag(handle, ev.Dragged.DX*scale, ev.Dragged.DY*scale)
		if !ok {
			h.drag = &x11Drag{} // framed: leave it to the window manager
			return
		}
		h.drag = &d
	}
	if h.drag.window != 0 {
		h.drag.follow()
	}
}

// DragEnd ends the drag.
func (h *moveHandle) DragEnd() { h.drag = nil }
