package askdialog

import "fyne.io/fyne/v2"

// Tiling window managers (sway, i3) tile a normal window, taking half the
// screen and reflowing the person's layout; they float a window whose type
// is dialog, or whose size hints fix its size, when they map it. GLFW
// makes every window _NET_WM_WINDOW_TYPE_NORMAL and maps it inside Fyne's
// Show, with no hook in between, so a dialog window's first map is pinned
// (fixed size hints, which GLFW sets before mapping) and its type is set
// to dialog right after; once the window has keyboard focus the window
// manager has managed it and the pin is released (the person may resize
// it). A reused window keeps its type, so its next maps float at once.
//
// Fyne's SetFixedSize(false) on a window that exists only changes its
// size limits: GLFW keeps the window non-resizable (its size hints fixed)
// until its Resizable attribute is set, which Fyne 2.7.1 never does after
// creating the window; setResizable does (wmtype_x11.go).

// pinFirstMap fixes a new window's size for its first map. Runs on the
// Fyne goroutine, before the window's first Show.
func (d *questionDialog) pinFirstMap() {
	if d.reused || d.typed {
		return
	}
	d.pinned = true
	d.win.SetFixedSize(true)
}

// markShown types the window as a dialog once it exists (after its first
// Show). Runs on the Fyne goroutine.
func (d *questionDialog) markShown() {
	if d.typed {
		return
	}
	d.typed = true
	if !d.reused {
		markDialogWindow(d.win)
	}
}

// unpin lets the person resize the window again, once the window manager
// gave it focus. Runs on the Fyne goroutine.
func (d *questionDialog) unpin() {
	if d.pinned && d.guard.active {
		d.pinned = false
		d.win.SetFixedSize(false)
		setResizable(d.win)
	}
}

// markDialogWindow sets w's _NET_WM_WINDOW_TYPE to dialog on X11; it does
// nothing elsewhere and on Fyne's test driver. Runs on the Fyne goroutine,
// once w has been shown.
func markDialogWindow(w fyne.Window) {
	if h := x11Handle(w); h != 0 {
		setX11DialogType(h)
	}
}
