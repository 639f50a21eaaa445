//go:build !cgo || wayland || !(linux || freebsd || openbsd || netbsd)

package askdialog

// moveX11Window does nothing where there is no X11 (or no cgo).
func moveX11Window(uintptr, int, int) {}
