package askdialog

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
)

// setWindowClass gives reused window w the window class of its new
// question: GLFW sets WM_CLASS from the title once, when it creates the X
// window (Fyne 2.7.1 has no API for it), so a window shown again for
// another client would keep the first client's class and group with its
// windows in a taskbar. On X11 this sets it on the native window, as GLFW
// would have for title; elsewhere, and on Fyne's test driver, it does
// nothing. Runs on the Fyne goroutine, while w is hidden.
func setWindowClass(w fyne.Window, title string) {
	if h := x11Handle(w); h != 0 {
		setX11Class(h, title)
	}
}

// x11Handle returns w's X window, or 0 off X11 and on Fyne's test driver.
// Runs on the Fyne goroutine.
func x11Handle(w fyne.Window) uintptr {
	var handle uintptr
	if nw, ok := w.(driver.NativeWindow); ok {
		nw.RunNative(func(ctx any) {
			if x, ok := ctx.(driver.X11WindowContext); ok {
				handle = x.WindowHandle
			}
		})
	}
	return handle
}
