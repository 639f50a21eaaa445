//go:build cgo && !wayland && (linux || freebsd || openbsd || netbsd)

package screen

/*
#cgo pkg-config: x11
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/extensions/Xrandr.h>

typedef struct {
	unsigned char *xsettings; unsigned long xsettingsLen;
	char *resources;
	int widthPx, heightPx, widthMM, workHeightPx, monitorHeightPx;
	int ok;
} screenInfo;

// smallestMonitor returns the height of the shortest of the screen's
// monitors (RandR 1.5 GetMonitors: one per output, in the screen's
// pixels), or 0. libXrandr is opened at run time, as GLFW opens it, so the
// binary does not depend on it; it stays loaded (once used on a display it
// has hooks that XCloseDisplay calls).
static int smallestMonitor(Display *d, Window root) {
	static void *lib;
	if (!lib) lib = dlopen("libXrandr.so.2", RTLD_LAZY | RTLD_LOCAL);
	if (!lib) return 0;
	XRRMonitorInfo *(*get)(Display *, Window, Bool, int *) = (XRRMonitorInfo *(*)(Display *, Window, Bool, int *))dlsym(lib, "XRRGetMonitors");
	void (*freeMonitors)(XRRMonitorInfo *) = (void (*)(XRRMonitorInfo *))dlsym(lib, "XRRFreeMonitors");
	int h = 0, n = 0, major = 0, minor = 0;
	Bool (*version)(Display *, int *, int *) = (Bool (*)(Display *, int *, int *))dlsym(lib, "XRRQueryVersion");
	if (get && freeMonitors && version && version(d, &major, &minor) && (major > 1 || (major == 1 && minor >= 5))) {
		XRRMonitorInfo *m = get(d, root, True, &n);
		for (int i = 0; m && i < n; i++) {
			if (m[i].height > 0 && (h == 0 || m[i].height < h)) h = m[i].height;
		}
		if (m) freeMonitors(m);
	}
	return h;
}

// readProperty returns win's property prop of any type, or NULL.
static unsigned char *readProperty(Display *d, Window win, Atom prop, unsigned long *n, int *format) {
	Atom type; unsigned long after; unsigned char *data = NULL;
	if (XGetWindowProperty(d, win, prop, 0, 1 << 20, False, AnyPropertyType, &type, format, n, &after, &data) != Success || type == None) {
		if (data) XFree(data);
		return NULL;
	}
	return data;
}

// readScreen reads screen 0's XSETTINGS, the root's resources, its size,
// its work area and its smallest monitor, on a connection of its own.
static screenInfo readScreen(void) {
	screenInfo in; memset(&in, 0, sizeof in);
	Display *d = XOpenDisplay(NULL);
	if (!d) return in;
	in.ok = 1;
	int s = DefaultScreen(d);
	Window root = RootWindow(d, s);
	in.widthPx = DisplayWidth(d, s); in.heightPx = DisplayHeight(d, s); in.widthMM = DisplayWidthMM(d, s);
	char sel[32]; snprintf(sel, sizeof sel, "_XSETTINGS_S%d", s);
	Window owner = XGetSelectionOwner(d, XInternAtom(d, sel, False));
	unsigned long n; int format;
	if (owner != None) {
		unsigned char *p = readProperty(d, owner, XInternAtom(d, "_XSETTINGS_SETTINGS", False), &n, &format);
		if (p && format == 8) { in.xsettings = malloc(n); memcpy(in.xsettings, p, n); in.xsettingsLen = n; }
		if (p) XFree(p);
	}
	char *rm = XResourceManagerString(d);
	if (rm) in.resources = strdup(rm);
	unsigned char *wa = readProperty(d, root, XInternAtom(d, "_NET_WORKAREA", False), &n, &format);
	if (wa && format == 32 && n >= 4) {
		unsigned long desk = 0, m; int f;
		unsigned char *cur = readProperty(d, root, XInternAtom(d, "_NET_CURRENT_DESKTOP", False), &m, &f);
		if (cur && f == 32 && m >= 1) desk = ((unsigned long *)cur)[0];
		if (cur) XFree(cur);
		if (desk*4+3 >= n) desk = 0;
		in.workHeightPx = (int)((unsigned long *)wa)[desk*4+3];
	}
	if (wa) XFree(wa);
	in.monitorHeightPx = smallestMonitor(d, root);
	XCloseDisplay(d);
	return in;
}
*/
import "C"

import "unsafe"

// Read asks the X server (DISPLAY) for the screen's settings; the zero
// Info when there is none. It blocks for one connection's round trips and
// may be called from any goroutine.
func Read() Info {
	in := C.readScreen()
	if in.ok == 0 {
		return Info{}
	}
	out := Info{WidthPx: int(in.widthPx), HeightPx: int(in.heightPx), WidthMM: int(in.widthMM), WorkHeightPx: int(in.workHeightPx),
		MonitorHeightPx: int(in.monitorHeightPx)}
	if in.xsettings != nil {
		out.XSettings = C.GoBytes(unsafe.Pointer(in.xsettings), C.int(in.xsettingsLen))
		C.free(unsafe.Pointer(in.xsettings))
	}
	if in.resources != nil {
		out.Resources = C.GoString(in.resources)
		C.free(unsafe.Pointer(in.resources))
	}
	return out
}
