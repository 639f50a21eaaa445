//go:build cgo && !wayland && (linux || freebsd || openbsd || netbsd)

package globalkey

/*
#cgo pkg-config: x11
#include <stdlib.h>
#include <X11/Xlib.h>
#include <X11/keysym.h>

static int grabError;

static int recordError(Display *d, XErrorEvent *e) {
	grabError = e->error_code;
	return 0;
}

// grabKey grabs (or, ungrab, releases) keycode with mods on the root
// window, also with Caps Lock and Num Lock on, which X counts as
// modifiers; it returns the X error the server sent, 0 for none.
static int grabKey(Display *d, int keycode, unsigned int mods, int ungrab) {
	Window root = DefaultRootWindow(d);
	unsigned int locks[] = {0, LockMask, Mod2Mask, LockMask | Mod2Mask};
	XSync(d, False);
	grabError = 0;
	XErrorHandler old = XSetErrorHandler(recordError);
	for (int i = 0; i < 4; i++) {
		if (ungrab) {
			XUngrabKey(d, keycode, mods | locks[i], root);
		} else {
			XGrabKey(d, keycode, mods | locks[i], root, True, GrabModeAsync, GrabModeAsync);
		}
	}
	XSync(d, False);
	XSetErrorHandler(old);
	return grabError;
}

// nextKeyPress reads the queued events and returns the keycode of the
// last key press among them, 0 for none.
static unsigned int nextKeyPress(Display *d) {
	unsigned int code = 0;
	while (XPending(d) > 0) {
		XEvent ev;
		XNextEvent(d, &ev);
		if (ev.type == KeyPress) {
			code = ev.xkey.keycode;
		}
	}
	return code;
}
*/
import "C"

import (
	"fmt"
	"os"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Grabber holds a grab until Close.
type Grabber struct {
	stop *os.File      // closing it ends the loop
	done chan struct{} // closed when the loop has released the grab
}

// Grab opens its own connection to the X server of display ("" for
// $DISPLAY), grabs c on the root window and calls fn on a goroutine of its
// own at each press, until Close. It blocks until the grab is made or
// refused (ErrTaken when another program holds the chord); any goroutine
// may call it.
func Grab(display string, c Chord, fn func()) (*Grabber, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("global shortcut: %w", err)
	}
	g := &Grabber{stop: w, done: make(chan struct{})}
	ready := make(chan error, 1)
	go g.loop(display, c, fn, r, ready)
	if err := <-ready; err != nil {
		w.Close()
		<-g.done
		return nil, err
	}
	return g, nil
}

// Close releases the grab and closes the connection; it blocks until they
// are. Any goroutine may call it, once.
func (g *Grabber) Close() {
	g.stop.Close()
	<-g.done
}

// loop makes the grab, says how it went on ready, then waits for presses
// on the X connection and for stop. Xlib is called from this one thread.
func (g *Grabber) loop(display string, c Chord, fn func(), stop *os.File, ready chan<- error) {
	defer close(g.done)
	defer stop.Close()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var name *C.char
	if display != "" {
		name = C.CString(display)
		defer C.free(unsafe.Pointer(name))
	}
	d := C.XOpenDisplay(name)
	if d == nil {
		ready <- fmt.Errorf("global shortcut: cannot open the X display %q", display)
		return
	}
	defer C.XCloseDisplay(d)
	sym := C.CString(c.Key)
	ks := C.XStringToKeysym(sym)
	C.free(unsafe.Pointer(sym))
	var code C.KeyCode
	if ks != C.NoSymbol {
		code = C.XKeysymToKeycode(d, ks)
	}
	if code == 0 {
		ready <- fmt.Errorf("global shortcut: this keyboard has no key %q", c.Key)
		return
	}
	mods := modMask(c)
	switch e := C.grabKey(d, C.int(code), mods, 0); {
	case e == C.BadAccess:
		ready <- fmt.Errorf("global shortcut %s: %w", c, ErrTaken)
		return
	case e != 0:
		C.grabKey(d, C.int(code), mods, 1)
		ready <- fmt.Errorf("global shortcut %s: the X server refused the grab (X error %d)", c, int(e))
		return
	}
	defer C.grabKey(d, C.int(code), mods, 1)
	ready <- nil
	fds := []unix.PollFd{{Fd: int32(C.XConnectionNumber(d)), Events: unix.POLLIN}, {Fd: int32(stop.Fd()), Events: unix.POLLIN}}
	for {
		if C.nextKeyPress(d) == C.uint(code) {
			fn()
		}
		if _, err := unix.Poll(fds, -1); err != nil && err != unix.EINTR {
			return
		}
		if fds[1].Revents != 0 || fds[0].Revents&(unix.POLLHUP|unix.POLLERR) != 0 {
			return
		}
	}
}

// modMask is c's modifiers as X's mask: Super is Mod4, as on every
// common keyboard map.
func modMask(c Chord) C.uint {
	var m C.uint
	for _, b := range []struct {
		on   bool
		mask C.uint
	}{{c.Ctrl, C.ControlMask}, {c.Alt, C.Mod1Mask}, {c.Shift, C.ShiftMask}, {c.Super, C.Mod4Mask}} {
		if b.on {
			m |= b.mask
		}
	}
	return m
}
