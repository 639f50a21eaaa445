package askdialog

import (
	"errors"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// errEnterLocked is what the keys report when Enter came while the answer
// buttons were still locked (the arming delay): nothing was sent, which the
// unlock hint says (questionDialog.refuse).
var errEnterLocked = errors.New("enter sent nothing: the answer buttons are locked")

// keyRouter is a dialog's key and focus routing: it implements inputSink
// for the dialog's widgets, so the guard hears every focus change and every
// key press and release, and the dialog-wide keys (Escape, Enter, 1..9)
// act only on a fresh press while armed. The dialog embeds it; its methods
// run on the Fyne goroutine.
type keyRouter struct {
	guard         *guard
	defaultButton *dialogButton // what Enter presses, or nil
	noButton      *dialogButton // what Esc presses (No, Deny), or nil: Esc cancels
	// mnemonics are the answer buttons Alt and a letter press (Alt+A:
	// Allow once), assigned by assignMnemonics.
	mnemonics map[fyne.KeyName]*dialogButton
	keys      keyTarget // what the keys act on: the dialog
}

// keyTarget is what a keyRouter's keys act on. Its methods run on the Fyne goroutine.
type keyTarget interface {
	// panelKey hands a dialog key to an open modal panel (Always…): open
	// reports whether one is open, took whether it was the panel's key.
	panelKey(ev *fyne.KeyEvent, from fyne.Focusable) (took, open bool)
	// ended reports whether the question is answered or closing.
	ended() bool
	// cancel cancels the question; input names the key.
	cancel(input string)
	// run runs button b's action; input names the key or "pointer".
	run(b *dialogButton, input string)
	// pick picks or toggles option n (1..9).
	pick(n int)
	// enterRefusal says why Enter must not send the answer as it stands
	// (an empty text answer), or nil.
	enterRefusal() error
	// refuse shows err in the dialog.
	refuse(err error)
}

// focusGained implements inputSink.
func (k *keyRouter) focusGained(w fyne.Focusable) { k.guard.focusGained(w) }

// focusLost implements inputSink.
func (k *keyRouter) focusLost(w fyne.Focusable) { k.guard.focusLost(w) }

// keyDown implements inputSink.
func (k *keyRouter) keyDown(ev *fyne.KeyEvent) { k.guard.keyDown(ev.Name) }

// keyUp implements inputSink.
func (k *keyRouter) keyUp(ev *fyne.KeyEvent) { k.guard.keyUp(ev.Name) }

// typedKey implements inputSink: Escape presses the no button (or cancels
// when the kind has none), Enter presses the default
// button, 1..9 pick an option (not while typing in an entry). Each acts
// only on a fresh key press while armed. An open Always… panel takes them all.
func (k *keyRouter) typedKey(ev *fyne.KeyEvent, from fyne.Focusable) bool {
	if took, open := k.keys.panelKey(ev, from); open {
		return took
	}
	switch ev.Name {
	case fyne.KeyEscape:
		switch {
		case !k.guard.take(ev.Name) || k.keys.ended():
		case k.noButton != nil:
			k.keys.run(k.noButton, "key:Escape")
		default:
			k.keys.cancel("key:Escape")
		}
		return true
	case fyne.KeyReturn, fyne.KeyEnter:
		k.enter(ev.Name)
		return true
	}
	n := digitKey(ev.Name)
	if n == 0 {
		return false
	}
	if _, typing := from.(*keyEntry); typing {
		return false
	}
	if k.guard.take(ev.Name) && !k.keys.ended() {
		k.keys.pick(n)
	}
	return true
}

// mayEdit implements inputSink: see guard.mayEdit.
func (k *keyRouter) mayEdit() bool { return k.guard.mayEdit() }

// enter presses the default button for Enter (or Return) on a fresh press
// while armed. Enter before the buttons unlock says so rather than doing
// nothing silently, and Enter on an empty text answer says how to send one
// (click OK) instead of sending "".
func (k *keyRouter) enter(key fyne.KeyName) {
	armed := k.guard.armed
	switch {
	case !k.guard.take(key):
		if !armed && !k.keys.ended() && k.defaultButton != nil {
			k.keys.refuse(errEnterLocked)
		}
	case k.defaultButton == nil || k.defaultButton.Disabled():
	default:
		if err := k.keys.enterRefusal(); err != nil {
			k.keys.refuse(err)
			return
		}
		k.keys.run(k.defaultButton, "key:"+string(key))
	}
}

// shortcut implements inputSink: Alt and an answer button's letter
// (mnemonics) presses that button on a fresh press while armed, as Space on
// it would; it reports whether the shortcut was one. An open menu or
// Always… panel leaves them alone.
func (k *keyRouter) shortcut(s fyne.Shortcut, from fyne.Focusable) bool {
	cs, ok := s.(*desktop.CustomShortcut)
	if !ok || cs.Modifier != fyne.KeyModifierAlt || k.mnemonics[cs.KeyName] == nil {
		return false
	}
	if _, open := k.keys.panelKey(&fyne.KeyEvent{}, from); open {
		return true
	}
	b := k.mnemonics[cs.KeyName]
	if k.guard.take(cs.KeyName) && !b.Disabled() && !k.keys.ended() {
		k.keys.run(b, "key:Alt+"+string(cs.KeyName))
	}
	return true
}

// press implements inputSink for the answer buttons.
func (k *keyRouter) press(b *dialogButton, key fyne.KeyName) {
	if key == "" {
		if k.guard.mayTap() && !b.Disabled() {
			k.keys.run(b, "pointer")
		}
		return
	}
	if k.guard.take(key) && !b.Disabled() {
		k.keys.run(b, "key:"+string(key))
	}
}

// digitKey returns 1..9 for the keys 1..9, else 0.
func digitKey(k fyne.KeyName) int {
	if len(k) == 1 && k[0] >= '1' && k[0] <= '9' {
		return int(k[0] - '0')
	}
	return 0
}
