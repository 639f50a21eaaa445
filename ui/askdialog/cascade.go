package askdialog

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
)

// cascadeStep is how far each further open dialog is moved down and right
// from the centred position, so that stacked dialogs stay visible.
const cascadeStep = 32

// cascade moves w n steps down and right of where it is. Fyne 2.7.1 has no
// API to place a window (only CenterOnScreen), so on X11 this goes to the
// native window; elsewhere, and on Fyne's test driver, it does nothing and
// the window manager places the window. Runs on the Fyne goroutine, after w
// was shown.
func cascade(w fyne.Window, n int) {
	nw, ok := w.(driver.NativeWindow)
	if !ok || n <= 0 {
		return
	}
	nw.RunNative(func(ctx any) {
		if x, ok := ctx.(driver.X11WindowContext); ok && x.WindowHandle != 0 {
			moveX11Window(x.WindowHandle, n*cascadeStep, n*cascadeStep)
		}
	})
}
