package askdialog

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// inputSink is where a dialog's widgets send focus changes and keys, so the
// dialog's guard sees every one of them. Its methods run on the Fyne goroutine.
type inputSink interface {
	focusGained(w fyne.Focusable)
	focusLost(w fyne.Focusable)
	keyDown(ev *fyne.KeyEvent)
	keyUp(ev *fyne.KeyEvent)
	// typedKey handles a dialog-wide key (Escape, Enter, 1..9) typed while
	// from has focus; it reports whether the key was the dialog's.
	typedKey(ev *fyne.KeyEvent, from fyne.Focusable) bool
	// mayEdit reports whether a key may change the answer now (text into
	// a field, Space on a check box): only once the dialog is armed.
	mayEdit() bool
	// press runs button b's action if the guard allows it: key is the key
	// that pressed it (Space), or "" for a pointer tap.
	press(b *dialogButton, key fyne.KeyName)
	// shortcut handles a dialog-wide shortcut (Alt and an answer button's
	// letter) typed while from has focus; it reports whether it was one.
	shortcut(s fyne.Shortcut, from fyne.Focusable) bool
}

// dialogRoot wraps a dialog's whole content in a focusable widget. It holds
// keyboard focus whenever no control does, so Escape, Enter and the digit
// keys always reach the dialog, and so the guard hears about window focus
// (Fyne tells only the focused widget, see guard). Because it is focusable
// and lies under every point, the GLFW driver never drops focus on a click
// into empty space. Its methods run on the Fyne goroutine.
type dialogRoot struct {
	widget.BaseWidget
	content fyne.CanvasObject
	sink    inputSink
}

func newDialogRoot(content fyne.CanvasObject, sink inputSink) *dialogRoot {
	r := &dialogRoot{content: content, sink: sink}
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer returns the renderer of the wrapped content.
func (r *dialogRoot) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(r.content) }

// FocusGained tells the dialog.
func (r *dialogRoot) FocusGained() { r.sink.focusGained(r) }

// FocusLost tells the dialog.
func (r *dialogRoot) FocusLost() { r.sink.focusLost(r) }

// TypedRune ignores text: digits act through TypedKey.
func (r *dialogRoot) TypedRune(rune) {}

// TypedKey passes keys to the dialog.
func (r *dialogRoot) TypedKey(ev *fyne.KeyEvent) { r.sink.typedKey(ev, r) }

// TypedShortcut passes shortcuts (Alt+A: Allow once) to the dialog.
func (r *dialogRoot) TypedShortcut(s fyne.Shortcut) { r.sink.shortcut(s, r) }

// KeyDown tells the dialog's guard.
func (r *dialogRoot) KeyDown(ev *fyne.KeyEvent) { r.sink.keyDown(ev) }

// KeyUp tells the dialog's guard.
func (r *dialogRoot) KeyUp(ev *fyne.KeyEvent) { r.sink.keyUp(ev) }

// sinkLink ties a dialog's control to the dialog's inputSink, written once
// for every kind of control: it reports the control's focus changes and
// every key press and release (so the guard sees window focus and fresh
// key presses whichever control has focus), and hands the dialog-wide keys
// on. A control embeds it; its methods run on the Fyne goroutine.
type sinkLink struct {
	sink inputSink
	self fyne.Focusable // the control that embeds the link
}

// KeyDown tells the dialog's guard.
func (l sinkLink) KeyDown(ev *fyne.KeyEvent) { l.sink.keyDown(ev) }

// KeyUp tells the dialog's guard.
func (l sinkLink) KeyUp(ev *fyne.KeyEvent) { l.sink.keyUp(ev) }

// gained tells the dialog that the control has focus.
func (l sinkLink) gained() { l.sink.focusGained(l.self) }

// lost tells the dialog that the control lost focus.
func (l sinkLink) lost() { l.sink.focusLost(l.self) }

// dialogKey gives Escape, and with enter also Return and Enter, to the
// dialog, and reports whether it did; the control handles any other key.
func (l sinkLink) dialogKey(ev *fyne.KeyEvent, enter bool) bool {
	switch ev.Name {
	case fyne.KeyEscape:
	case fyne.KeyReturn, fyne.KeyEnter:
		if !enter {
			return false
		}
	default:
		return false
	}
	l.sink.typedKey(ev, l.self)
	return true
}

// keyEntry is a widget.Entry that reports focus and keys to its dialog.
// A focused Entry swallows keys, so it overrides TypedKey: Escape cancels
// the dialog, Enter in a single-line entry and Ctrl+Enter in a multi-line
// one press the default button. Its methods run on the Fyne goroutine.
type keyEntry struct {
	widget.Entry
	sinkLink
	ring
	onBlur func() // optional: called when the entry loses focus
}

func newKeyEntry(sink inputSink, multiLine bool) *keyEntry {
	e := &keyEntry{}
	e.sinkLink = sinkLink{sink: sink, self: e}
	e.MultiLine = multiLine
	if multiLine {
		e.Wrapping = fyne.TextWrapWord
	}
	e.ExtendBaseWidget(e)
	return e
}

// FocusGained tells the entry and the dialog.
func (e *keyEntry) FocusGained() {
	e.Entry.FocusGained()
	e.showRing(true)
	e.gained()
}

// FocusLost tells the entry and the dialog.
func (e *keyEntry) FocusLost() {
	e.Entry.FocusLost()
	e.showRing(false)
	e.lost()
	if e.onBlur != nil {
		e.onBlur()
	}
}

// CreateRenderer draws the entry with its focus ring.
func (e *keyEntry) CreateRenderer() fyne.WidgetRenderer { return e.wrap(e.Entry.CreateRenderer()) }

// KeyDown tells the dialog's guard, then the entry.
func (e *keyEntry) KeyDown(ev *fyne.KeyEvent) {
	e.sinkLink.KeyDown(ev)
	e.Entry.KeyDown(ev)
}

// KeyUp tells the dialog's guard, then the entry.
func (e *keyEntry) KeyUp(ev *fyne.KeyEvent) {
	e.sinkLink.KeyUp(ev)
	e.Entry.KeyUp(ev)
}

// TypedRune types r only once the dialog is armed: text that arrives
// before then was meant for another window (see guard.mayEdit).
func (e *keyEntry) TypedRune(r rune) {
	if e.sink.mayEdit() {
		e.Entry.TypedRune(r)
	}
}

// TypedKey gives Escape, and Enter in a single-line entry, to the dialog;
// other keys edit the entry only once the dialog is armed.
func (e *keyEntry) TypedKey(ev *fyne.KeyEvent) {
	if !e.dialogKey(ev, !e.MultiLine) && e.sink.mayEdit() {
		e.Entry.TypedKey(ev)
	}
}

// TypedShortcut gives Ctrl+Enter and the answer buttons' Alt letters to
// the dialog; other shortcuts (paste, cut, undo) act only once the dialog
// is armed.
func (e *keyEntry) TypedShortcut(s fyne.Shortcut) {
	if e.sink.shortcut(s, e) {
		return
	}
	if cs, ok := s.(*desktop.CustomShortcut); ok && (cs.KeyName == fyne.KeyReturn || cs.KeyName == fyne.KeyEnter) &&
		cs.Modifier&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0 {
		e.sink.typedKey(&fyne.KeyEvent{Name: cs.KeyName}, e)
		return
	}
	if e.sink.mayEdit() {
		e.Entry.TypedShortcut(s)
	}
}

// dialogButton is a widget.Button of a question dialog. An answer button
// (act set) acts only through the dialog's guard: a tap while unarmed does
// nothing, and Space acts only on a fresh press. Other buttons (Snooze) run
// onTap directly. Its methods run on the Fyne goroutine.
type dialogButton struct {
	widget.Button
	sinkLink
	ring
	act   *action
	onTap func()
}

func newDialogButton(sink inputSink, label string, act *action, onTap func()) *dialogButton {
	b := &dialogButton{act: act, onTap: onTap}
	b.sinkLink = sinkLink{sink: sink, self: b}
	b.Text = label
	b.ExtendBaseWidget(b)
	return b
}

// Tapped presses the button. An answer button tells the dialog even while
// disabled, so the dialog can count taps it ignored.
func (b *dialogButton) Tapped(*fyne.PointEvent) {
	if b.act != nil {
		b.sink.press(b, "")
	} else if !b.Disabled() {
		b.onTap()
	}
}

// TypedKey presses the button on Space and passes dialog keys on.
func (b *dialogButton) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name != fyne.KeySpace {
		b.sink.typedKey(ev, b)
		return
	}
	if b.act == nil {
		b.onTap()
		return
	}
	b.sink.press(b, fyne.KeySpace)
}

// TypedShortcut passes shortcuts (Alt+A: Allow once) to the dialog.
func (b *dialogButton) TypedShortcut(s fyne.Shortcut) { b.sink.shortcut(s, b) }

// FocusGained tells the button and the dialog.
func (b *dialogButton) FocusGained() {
	b.Button.FocusGained()
	b.showRing(true)
	b.gained()
}

// FocusLost tells the button and the dialog.
func (b *dialogButton) FocusLost() {
	b.Button.FocusLost()
	b.showRing(false)
	b.lost()
}

// CreateRenderer draws the button with its focus ring.
func (b *dialogButton) CreateRenderer() fyne.WidgetRenderer { return b.wrap(b.Button.CreateRenderer()) }

// keySelect is a widget.Select that reports focus and dialog keys. Its methods run on the Fyne goroutine.
type keySelect struct {
	widget.Select
	sinkLink
	ring
}

func newKeySelect(sink inputSink, options []string, changed func(string)) *keySelect {
	s := &keySelect{}
	s.sinkLink = sinkLink{sink: sink, self: s}
	s.Options = options
	s.OnChanged = changed
	s.PlaceHolder = "Choose…"
	s.ExtendBaseWidget(s)
	return s
}

// FocusGained tells the select and the dialog.
func (s *keySelect) FocusGained() {
	s.Select.FocusGained()
	s.showRing(true)
	s.gained()
}

// FocusLost tells the select and the dialog.
func (s *keySelect) FocusLost() {
	s.Select.FocusLost()
	s.showRing(false)
	s.lost()
}

// CreateRenderer draws the select with its focus ring.
func (s *keySelect) CreateRenderer() fyne.WidgetRenderer { return s.wrap(s.Select.CreateRenderer()) }

// TypedKey gives Escape and Enter to the dialog and, once the dialog is
// armed, the rest to the select.
func (s *keySelect) TypedKey(ev *fyne.KeyEvent) {
	if !s.dialogKey(ev, true) && s.sink.mayEdit() {
		s.Select.TypedKey(ev)
	}
}

// keyCheck is a widget.Check that reports focus and dialog keys to its
// dialog, so the guard sees window focus while it has focus. Its methods
// run on the Fyne goroutine.
type keyCheck struct {
	widget.Check
	sinkLink
	ring
}

func newKeyCheck(sink inputSink, label string) *keyCheck {
	c := &keyCheck{}
	c.sinkLink = sinkLink{sink: sink, self: c}
	c.Text = label
	c.ExtendBaseWidget(c)
	return c
}

// FocusGained tells the check and the dialog.
func (c *keyCheck) FocusGained() {
	c.Check.FocusGained()
	c.showRing(true)
	c.gained()
}

// FocusLost tells the check and the dialog.
func (c *keyCheck) FocusLost() {
	c.Check.FocusLost()
	c.showRing(false)
	c.lost()
}

// CreateRenderer draws the check with its focus ring.
func (c *keyCheck) CreateRenderer() fyne.WidgetRenderer { return c.wrap(c.Check.CreateRenderer()) }

// TypedRune toggles the check on Space once the dialog is armed.
func (c *keyCheck) TypedRune(r rune) {
	if c.sink.mayEdit() {
		c.Check.TypedRune(r)
	}
}

// TypedKey gives Escape and Enter to the dialog and the rest to the check.
func (c *keyCheck) TypedKey(ev *fyne.KeyEvent) {
	if !c.dialogKey(ev, true) {
		c.Check.TypedKey(ev)
	}
}

// outlinedButton draws b, a dangerous yes, as a secondary button: no fill
// (low importance), its label and icon in the danger colour, inside a
// danger-coloured outline, so that the filled default (the safe no) is
// what the eye and Enter find first. Runs on the Fyne goroutine.
func outlinedButton(b *dialogButton) fyne.CanvasObject {
	b.Importance = widget.LowImportance
	border := canvas.NewRectangle(color.Transparent)
	border.StrokeColor = theme.Color(theme.ColorNameError)
	border.StrokeWidth = 1.5
	border.CornerRadius = theme.InputRadiusSize()
	return container.NewStack(border, container.NewThemeOverride(b, dangerText{fyne.CurrentApp().Settings().Theme()}))
}

// dangerText is a theme that letters text and icons in the danger colour.
type dangerText struct{ fyne.Theme }

// Color gives the foreground the error colour.
func (t dangerText) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if n == theme.ColorNameForeground {
		n = theme.ColorNameError
	}
	return t.Theme.Color(n, v)
}
