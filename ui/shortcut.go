package ui

import (
	"fmt"
	"os"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/settings"
	"github.com/asktray/asktray/ui/internal/globalkey"
)

// grabKey holds a global key chord and calls fn on a goroutine of its own
// at each press, until the returned release; tests replace it.
var grabKey = func(c globalkey.Chord, fn func()) (release func(), err error) {
	g, err := globalkey.Grab(os.Getenv("DISPLAY"), c, fn)
	if err != nil {
		return nil, err
	}
	return g.Close, nil
}

// setShortcut holds chord (global_shortcut; "" for none) as the key that
// brings the pending question to the front, releasing the one held
// before: on X11 by a grab, which blocks for a round trip to the X server;
// in a Wayland session through the desktop portal, in the background
// (bindOnWayland). Runs on the Fyne goroutine.
func (t *tray) setShortcut(chord string) error {
	if chord == t.shortcut {
		return nil
	}
	t.shortcutGen++
	if t.releaseKey != nil {
		t.releaseKey()
	}
	t.releaseKey, t.shortcut = nil, ""
	if chord == "" {
		return nil
	}
	sc, err := settings.ParseShortcut(chord)
	if err != nil {
		return fmt.Errorf("global_shortcut: %w", err)
	}
	c := globalkey.Chord{Ctrl: sc.Ctrl, Alt: sc.Alt, Shift: sc.Shift, Super: sc.Super, Key: sc.Key}
	t.shortcut = chord
	if waylandSession() {
		t.bindOnWayland(c, chord)
		return nil
	}
	release, err := grabKey(c, func() { t.gate.do(t.front) })
	if err != nil {
		t.shortcut = ""
		return err
	}
	t.releaseKey = release
	t.logInfo("global shortcut held", "chord", sc.String(), "portal", false)
	return nil
}

// front brings the pending question to the front, as the global shortcut
// does: the open dialog, or else the oldest pending question the person
// can see; with none (or all held while away) the status window, which
// lists them. Runs on the Fyne goroutine.
func (t *tray) front() {
	if t.dialogs != nil {
		if id := t.dialogs.Current(); id != "" {
			t.dialogs.Open(id)
			return
		}
	}
	for _, q := range t.env.Broker.Pending() {
		if q.Kind != question.KindNotice && q.SnoozeUntil.IsZero() && q.DeliverTo != question.DeliverClient && t.visible(q) && t.open != nil {
			t.open(q.ID)
			return
		}
	}
	t.showStatus()
}
