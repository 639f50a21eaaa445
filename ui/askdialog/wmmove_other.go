//go:build !cgo || wayland || !(linux || freebsd || openbsd || netbsd)

package askdialog

// x11Drag is empty where there is no X11 (or no cgo).
type x11Drag struct{ window uintptr }

// beginX11Drag never starts a drag there: a window manager always frames windows.
func beginX11Drag(uintptr, float32, float32) (x11Drag, bool) { return x11Drag{}, false }

// follow does nothing.
func (*x11Drag) follow() {}
