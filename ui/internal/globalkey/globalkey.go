// Package globalkey grabs one key chord on the X server's root window, so
// that its presses reach the app whichever window has the focus: the
// global shortcut that brings the pending question to the front
// (settings.GlobalShortcut). On Linux and the BSDs (built with cgo, without the wayland tag) it calls XGrabKey through
// libX11, which Fyne's GLFW already links; elsewhere Grab returns
// ErrUnsupported. Under Wayland the app is an XWayland client, and an X
// grab there sees only the keys pressed while an XWayland window has the
// focus (docs/desktop.md).
//
// It imports only the standard library and golang.org/x/sys
// (boundary_test.go).
package globalkey

import (
	"errors"
	"strings"
)

// Chord is the key chord to grab.
type Chord struct {
	Ctrl, Alt, Shift, Super bool
	Key                     string // an X11 keysym name: "a", "F9", "space", "Prior"
}

// String is the chord as a person writes it: "Ctrl+Alt+a".
func (c Chord) String() string {
	var parts []string
	for _, m := range []struct {
		on   bool
		name string
	}{{c.Ctrl, "Ctrl"}, {c.Alt, "Alt"}, {c.Shift, "Shift"}, {c.Super, "Super"}} {
		if m.on {
			parts = append(parts, m.name)
		}
	}
	return strings.Join(append(parts, c.Key), "+")
}

// ErrUnsupported says this build has no way to grab a key.
var ErrUnsupported = errors.New("a global shortcut needs X11 (Linux or a BSD, built with cgo)")

// ErrTaken says another program holds the chord already.
var ErrTaken = errors.New("another program holds this key chord already; pick another")
