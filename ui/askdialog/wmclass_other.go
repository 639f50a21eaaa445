//go:build !cgo || wayland || !(linux || freebsd || openbsd || netbsd)

package askdialog

// setX11Class does nothing where there is no X11 (or no cgo).
func setX11Class(uintptr, string) {}
