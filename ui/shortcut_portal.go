package ui

import (
	"os"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/asktray/asktray/ui/internal/globalkey"
	"github.com/asktray/asktray/ui/internal/portalkey"
)

// portalWait bounds one portal request: the desktop may show the person a
// dialog to confirm the shortcut first.
const portalWait = 2 * time.Minute

// bindPortal asks the desktop portal's GlobalShortcuts for c and calls fn
// on a goroutine of its own at each activation, until release; trigger is
// the key the desktop says it bound. It blocks until the portal answers, at
// most portalWait a request. Tests replace it.
var bindPortal = func(c globalkey.Chord, fn func()) (release func(), trigger string, err error) {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return nil, "", err
	}
	b, err := portalkey.Bind(conn, "bring-question-forward", "Bring the waiting Asktray question to the front", portalTrigger(c), fn, portalWait)
	if err != nil {
		conn.Close()
		return nil, "", err
	}
	return func() { b.Close(); conn.Close() }, b.Trigger, nil
}

// portalTrigger is c as the XDG shortcuts spelling writes it:
// "CTRL+ALT+q", "LOGO+SHIFT+F9".
func portalTrigger(c globalkey.Chord) string {
	var parts []string
	for _, m := range []struct {
		on   bool
		name string
	}{{c.Ctrl, "CTRL"}, {c.Alt, "ALT"}, {c.Shift, "SHIFT"}, {c.Super, "LOGO"}} {
		if m.on {
			parts = append(parts, m.name)
		}
	}
	return strings.Join(append(parts, c.Key), "+")
}

// waylandSession reports whether the desktop is a Wayland session, where
// the app is an XWayland client.
func waylandSession() bool { return os.Getenv("WAYLAND_DISPLAY") != "" }

// bindOnWayland binds chord c through the portal on a goroutine of its own
// and, where the portal has no GlobalShortcuts or refuses, grabs it on X11
// instead, which XWayland passes only the keys pressed in its own windows.
// A newer setShortcut meanwhile wins: this binding is let go. Runs on the
// Fyne goroutine and returns at once.
func (t *tray) bindOnWayland(c globalkey.Chord, chord string) {
	gen := t.shortcutGen
	press := func() { t.gate.do(t.front) }
	go func() {
		release, trigger, err := bindPortal(c, press)
		t.gate.do(func() {
			if t.portalDone != nil {
				defer t.portalDone()
			}
			if gen != t.shortcutGen {
				if release != nil {
					release()
				}
				return
			}
			if err == nil {
				t.releaseKey = release
				t.logInfo("global shortcut held", "chord", chord, "portal", true, "trigger", trigger)
				return
			}
			t.logInfo("global shortcut: no portal binding, so an X11 grab, which sees only keys pressed in X11 windows", "err", err)
			if release, err = grabKey(c, press); err != nil {
				t.logInfo("global shortcut", "err", err)
				return
			}
			t.releaseKey = release
			t.logInfo("global shortcut held", "chord", chord, "portal", false)
		})
	}()
}

// logInfo logs at info level when the app has a log (tests may have none).
func (t *tray) logInfo(msg string, args ...any) {
	if t.env.Log != nil {
		t.env.Log.Info(msg, args...)
	}
}
