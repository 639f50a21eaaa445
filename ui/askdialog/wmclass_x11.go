//go:build cgo && !wayland && (linux || freebsd || openbsd || netbsd)

package askdialog

/*
#cgo pkg-config: x11
#include <stdlib.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

// setClass sets WM_CLASS of the top-level window win to (name, name), as
// GLFW does from a new window's title, on a connection of its own so that
// it never races GLFW's.
static int setClass(unsigned long win, const char *name) {
	Display *d = XOpenDisplay(NULL);
	if (!d) return 0;
	XClassHint *hint = XAllocClassHint();
	if (!hint) {
		XCloseDisplay(d);
		return 0;
	}
	hint->res_name = (char *)name;
	hint->res_class = (char *)name;
	XSetClassHint(d, (Window)win, hint);
	XFree(hint);
	XFlush(d);
	XCloseDisplay(d);
	return 1;
}
*/
import "C"

import "unsafe"

// setX11Class sets the WM_CLASS of X11 window handle to name.
func setX11Class(handle uintptr, name string) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	C.setClass(C.ulong(handle), cs)
}
