package ui

import (
	"fmt"
	"strings"
	"sync"

	"github.com/godbus/dbus/v5"
)

// snWatcher is the bus name of the StatusNotifierWatcher, the service a
// tray host (a panel's tray, GNOME's AppIndicator extension, swaybar's or
// waybar's tray) runs and fyne.io/systray registers the tray icon with.
// Without it the icon is nowhere on screen.
const snWatcher = "org.kde.StatusNotifierWatcher"

// trayHostWatch follows whether a StatusNotifierWatcher owns its name on
// the session bus: at start and whenever it goes away or comes back
// (NameOwnerChanged). Its methods are safe for concurrent use.
type trayHostWatch struct {
	conn    *dbus.Conn
	signals chan *dbus.Signal
	done    chan struct{}
	ended   chan struct{}
	once    sync.Once
}

// ownerChanged matches the bus's NameOwnerChanged signals for snWatcher.
var ownerChanged = []dbus.MatchOption{
	dbus.WithMatchObjectPath("/org/freedesktop/DBus"),
	dbus.WithMatchInterface("org.freedesktop.DBus"),
	dbus.WithMatchSender("org.freedesktop.DBus"),
	dbus.WithMatchMember("NameOwnerChanged"),
	dbus.WithMatchArg(0, snWatcher),
}

// watchTrayHost subscribes conn, which it then owns (Close closes it), to
// changes of snWatcher's owner, and calls onChange on a goroutine of its
// own: once with whether a watcher is there now, then with each change.
// It blocks for two bus round trips.
func watchTrayHost(conn *dbus.Conn, onChange func(present bool)) (*trayHostWatch, error) {
	w := &trayHostWatch{conn: conn, signals: make(chan *dbus.Signal, 8), done: make(chan struct{}), ended: make(chan struct{})}
	// Subscribe before asking, so that no change falls between the two.
	if err := conn.AddMatchSignal(ownerChanged...); err != nil {
		return nil, fmt.Errorf("follow the tray host: %w", err)
	}
	conn.Signal(w.signals)
	var present bool
	if err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, snWatcher).Store(&present); err != nil {
		conn.RemoveSignal(w.signals)
		return nil, fmt.Errorf("ask the bus for a tray host: %w", err)
	}
	go w.loop(present, onChange)
	return w, nil
}

func (w *trayHostWatch) loop(present bool, onChange func(bool)) {
	defer close(w.ended)
	onChange(present)
	for {
		select {
		case s := <-w.signals:
			if s == nil {
				return // the connection closed
			}
			if s.Name != "org.freedesktop.DBus.NameOwnerChanged" || len(s.Body) < 3 {
				continue
			}
			if name, _ := s.Body[0].(string); name != snWatcher {
				continue
			}
			owner, _ := s.Body[2].(string)
			onChange(owner != "")
		case <-w.done:
			return
		}
	}
}

// Close stops the watch, waits for its goroutine and closes the
// connection. It may be called more than once.
func (w *trayHostWatch) Close() {
	w.once.Do(func() {
		w.conn.RemoveSignal(w.signals)
		close(w.done)
		<-w.ended
		_ = w.conn.Close()
	})
}

// noTrayHint says how to reach Asktray on a desktop with no tray host.
// desktop is $XDG_CURRENT_DESKTOP (a colon-separated list, such as
// "ubuntu:GNOME"). It only computes.
func noTrayHint(desktop string) string {
	lead := "This desktop shows no tray icons, so Asktray has none. Its window is here instead: " +
		"start Asktray again (from the menu or 'asktray') to bring it back."
	for d := range strings.SplitSeq(strings.ToLower(desktop), ":") {
		switch d {
		case "gnome", "gnome-classic", "gnome-flashback", "unity", "pop", "ubuntu":
			return lead + " For a tray icon, install and turn on the GNOME Shell extension " +
				"\"AppIndicator and KStatusNotifierItem Support\" (Extensions app, or the package " +
				"gnome-shell-extension-appindicator)."
		case "sway", "hyprland", "river", "wlroots":
			return lead + " For a tray icon, run a bar with a tray: swaybar's tray (its 'tray_output' " +
				"must not be 'none'), or waybar with its \"tray\" module."
		}
	}
	return lead + " For a tray icon, run a panel or bar with a StatusNotifierItem tray " +
		"(on GNOME the \"AppIndicator and KStatusNotifierItem Support\" extension; on sway, swaybar's tray or waybar)."
}
