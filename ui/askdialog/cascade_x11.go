//go:build cgo && !wayland && (linux || freebsd || openbsd || netbsd)

package askdialog

/*
#cgo pkg-config: x11
#include <X11/Xlib.h>

// moveBy moves the top-level window win by (dx, dy) from its place on the
// screen, on a connection of its own so that it never races GLFW's.
static int moveBy(unsigned long win, int dx, int dy) {
	Display *d = XOpenDisplay(NULL);
	if (!d) return 0;
	Window root, child;
	int x, y, rx, ry;
	unsigned int w, h, bw, depth;
	if (!XGetGeometry(d, (Window)win, &root, &x, &y, &w, &h, &bw, &depth) ||
	    !XTranslateCoordinates(d, (Window)win, root, 0, 0, &rx, &ry, &child)) {
		XCloseDisplay(d);
		return 0;
	}
	XMoveWindow(d, (Window)win, rx + dx, ry + dy);
	XFlush(d);
	XCloseDisplay(d);
	return 1;
}
*/
import "C"

// moveX11Window moves the X11 window handle by (dx, dy).
func moveX11Window(handle uintptr, dx, dy int) {
	C.moveBy(C.ulong(handle), C.int(dx), C.int(dy))
}
