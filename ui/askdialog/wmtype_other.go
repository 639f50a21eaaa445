//go:build !cgo || wayland || !(linux || freebsd || openbsd || netbsd)

package askdialog

import "fyne.io/fyne/v2"

// setX11DialogType does nothing where there is no X11 (or no cgo).
func setX11DialogType(uintptr) {}

// setResizable does nothing where there is no GLFW window on X11.
func setResizable(fyne.Window) {}
