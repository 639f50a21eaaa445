//go:build cgo && !wayland && (linux || freebsd || openbsd || netbsd)

package askdialog

/*
#cgo pkg-config: x11
#include <X11/Xlib.h>
#include <X11/Xatom.h>

// setDialogType sets _NET_WM_WINDOW_TYPE of win to dialog (normal as the
// fallback EWMH allows), on a connection of its own so that it never races
// GLFW's.
static void setDialogType(unsigned long win) {
	Display *d = XOpenDisplay(NULL);
	if (!d) return;
	Atom types[2];
	types[0] = XInternAtom(d, "_NET_WM_WINDOW_TYPE_DIALOG", False);
	types[1] = XInternAtom(d, "_NET_WM_WINDOW_TYPE_NORMAL", False);
	XChangeProperty(d, (Window)win, XInternAtom(d, "_NET_WM_WINDOW_TYPE", False), XA_ATOM, 32,
		PropModeReplace, (unsigned char *)types, 2);
	XSync(d, False);
	XCloseDisplay(d);
}
*/
import "C"

import (
	"reflect"

	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// setX11DialogType types X11 window handle as a dialog.
func setX11DialogType(handle uintptr) { C.setDialogType(C.ulong(handle)) }

// setResizable makes w's GLFW window resizable again (see wmtype.go). Fyne
// keeps the GLFW window in an unexported field, viewport, of its window
// type, read here through reflect; if Fyne's type ever differs (another
// version, the test driver) it does nothing and the window stays as it
// is. Runs on the Fyne goroutine, which is GLFW's main thread.
func setResizable(w fyne.Window) {
	v := reflect.ValueOf(w)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return
	}
	f := v.Elem().FieldByName("viewport")
	if !f.IsValid() || f.Type() != reflect.TypeFor[*glfw.Window]() || f.IsNil() {
		return
	}
	view := (*glfw.Window)(f.UnsafePointer())
	view.SetAttrib(glfw.Resizable, glfw.True)
}
