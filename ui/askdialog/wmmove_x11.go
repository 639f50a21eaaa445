//go:build cgo && !wayland && (linux || freebsd || openbsd || netbsd)

package askdialog

/*
#cgo pkg-config: x11
#include <X11/Xlib.h>

// dragStart reads where the pointer and top-level window win are on the
// screen. It returns 0 when win is framed (a window manager reparented it,
// so its parent is not the root) or the display cannot be opened. It uses
// a connection of its own so that it never races GLFW's.
static int dragStart(unsigned long win, int *px, int *py, int *wx, int *wy) {
	Display *d = XOpenDisplay(NULL);
	if (!d) return 0;
	Window root, parent, child, *children = NULL;
	unsigned int n = 0, mask;
	int ok = 0, cx, cy;
	if (XQueryTree(d, (Window)win, &root, &parent, &children, &n) && parent == root &&
	    XQueryPointer(d, root, &root, &child, px, py, &cx, &cy, &mask) &&
	    XTranslateCoordinates(d, (Window)win, root, 0, 0, wx, wy, &child)) {
		ok = 1;
	}
	if (children) XFree(children);
	XCloseDisplay(d);
	return ok;
}

// dragTo moves win so that it keeps its offset (wx-px, wy-py) from the pointer.
static void dragTo(unsigned long win, int px, int py, int wx, int wy) {
	Display *d = XOpenDisplay(NULL);
	if (!d) return;
	Window root = DefaultRootWindow(d), r, child;
	int x, y, cx, cy;
	unsigned int mask;
	if (XQueryPointer(d, root, &r, &child, &x, &y, &cx, &cy, &mask)) {
		XMoveWindow(d, (Window)win, wx + x - px, wy + y - py);
		XFlush(d);
	}
	XCloseDisplay(d);
}
*/
import "C"

// x11Drag is a drag of an unframed X window: where the pointer and the
// window were on the screen when it began.
type x11Drag struct {
	window         uintptr
	px, py, wx, wy C.int
}

// beginX11Drag starts dragging window, the pointer having moved (dx, dy)
// pixels since its button went down; false when a window manager frames it
// or the X server cannot be reached.
func beginX11Drag(window uintptr, dx, dy float32) (x11Drag, bool) {
	d := x11Drag{window: window}
	ok := C.dragStart(C.ulong(window), &d.px, &d.py, &d.wx, &d.wy) != 0
	d.px -= C.int(dx + 0.5*sign(dx))
	d.py -= C.int(dy + 0.5*sign(dy))
	return d, ok
}

// sign is -1, 0 or 1.
func sign(v float32) float32 {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}

// follow moves the window after the pointer.
func (d *x11Drag) follow() { C.dragTo(C.ulong(d.window), d.px, d.py, d.wx, d.wy) }
