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
	nw, ok := w.(driver.NativeWindow)
	if !ok {
		return
	}
	nw.RunNative(func(ctx any) {
		if x, ok := ctx.(driver.X11WindowContext); ok && x.WindowHandle != 0 {
			setX11Class(x.WindowHandle, title)
		}
	})
}
