package askdialog

import (
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/asktray/asktray/app/question"
)

// clock is where dialogs get time and deferred work from; tests swap in a
// fake so they need no sleeps. Every callback it runs, runs on the Fyne goroutine.
type clock struct {
	now   func() time.Time
	after func(d time.Duration, f func()) (stop func()) // f once, after d
	every func(d time.Duration, f func()) (stop func()) // f every d until stopped
	soon  func(f func())                                // f after the current event has been handled
}

// realClock returns the production clock: wall time, timers whose callbacks
// hop to the Fyne goroutine with fyne.Do, and fyne.Do as "soon" (called on
// the Fyne goroutine while the app runs, fyne.Do queues f for the next tick).
func realClock() clock {
	return clock{
		now: time.Now,
		after: func(d time.Duration, f func()) func() {
			t := time.AfterFunc(d, func() { fyne.Do(f) })
			return func() { t.Stop() }
		},
		every: func(d time.Duration, f func()) func() {
			t := time.NewTicker(d)
			done := make(chan struct{})
			go func() {
				for {
					select {
					case <-t.C:
						fyne.Do(f)
					case <-done:
						return
					}
				}
			}()
			var once sync.Once
			return func() { once.Do(func() { t.Stop(); close(done) }) }
		},
		soon: fyne.Do,
	}
}

// guard decides when a dialog's answer controls may act, after Firefox's
// PromptUtils (which disables the buttons on blur and applies the delay again
// when focus returns) and Chromium's InputEventActivationProtector (which drops
// key-repeat and input that comes too soon after a prompt appears):
//
//   - it arms only after the window has held keyboard focus for delay with
//     no key pressed: a key pressed before then starts the delay again, so
//     a person typing elsewhere when the window pops up and takes focus
//     never confirms it with the Enter that ends their line, however long
//     they type (docs/arming.md);
//   - it disarms when the window loses focus and starts the delay again when
//     focus returns;
//   - a key acts only if its key-down arrived while armed and it was not
//     already held, and only once per press, so key-repeat and keys held
//     down from before arming never answer.
//
// Fyne 2.7.1 has no window-focus API: the GLFW driver tells only the
// canvas's focused widget (FocusGained/FocusLost, see processFocused in
// internal/driver/glfw/window.go), so every focusable widget in a dialog is
// one of ours and reports to the guard, and the dialog root keeps focus
// when nothing else holds it. (Lifecycle's EnteredForeground/
// ExitedForeground fire for the app as a whole, not per window, and
// driver.NativeWindow exposes only a native handle.) While a pop-up is
// open, Fyne routes focus events to the pop-up's own focus manager, so a
// blur then goes unseen; see showSnoozeMenu. Its methods run on the Fyne goroutine.
type guard struct {
	clock    clock
	delay    time.Duration
	canvas   func() fyne.Canvas // the dialog window's canvas
	root     fyne.Focusable     // takes focus back when the canvas drops it
	onChange func()             // armed or active changed

	active     bool // the window has keyboard focus, as far as Fyne tells us
	activeAt   time.Time
	armed      bool
	armedAt    time.Time
	gen        int    // bumped on each (de)activation, so stale timers do nothing
	stopTimer  func() // the pending arming timer
	rejected   int    // inputs ignored while unarmed, for the log
	dropped    int    // edits (typed text, Space on an option) dropped while unarmed, for the log
	restarts   int    // key presses that started the delay again, for the log
	typing     bool   // the delay was started again by a key press
	quiet      bool   // a focus change of our own is in progress
	ended      bool   // the dialog closed: its root is no longer any window's content
	owner      fyne.Focusable
	ownerFocus bool

	held  map[fyne.KeyName]bool // keys down now, as far as we saw
	fresh map[fyne.KeyName]bool // keys whose key-down came while armed and has not acted yet
}

func newGuard(c clock, delay time.Duration, canvas func() fyne.Canvas, root fyne.Focusable, onChange func()) *guard {
	return &guard{
		clock: c, delay: question.ClampArmDelay(delay), canvas: canvas, root: root, onChange: onChange,
		held: map[fyne.KeyName]bool{}, fresh: map[fyne.KeyName]bool{},
	}
}

// focusGained records that widget w was told it has focus: either the window
// got keyboard focus or focus moved inside it. Runs on the Fyne goroutine.
func (g *guard) focusGained(w fyne.Focusable) {
	g.owner, g.ownerFocus = w, true
	if g.quiet || g.active {
		return
	}
	g.activate()
}

// focusLost records that widget w was told it lost focus. Fyne calls this
// both when the window loses focus and just before focus moves to another
// widget, so the guard looks again once the event is handled: if w is still
// the canvas's focused widget and nobody regained focus, the window lost it.
// Runs on the Fyne goroutine.
func (g *guard) focusLost(w fyne.Focusable) {
	if w != g.owner {
		return
	}
	g.ownerFocus = false
	g.clock.soon(g.settle)
}

func (g *guard) settle() {
	if g.ownerFocus || g.ended {
		return // focus moved to another of our widgets
	}
	c := g.canvas()
	if c == nil {
		return
	}
	switch f := c.Focused(); f {
	case nil: // a tap on a non-focusable spot unfocused the canvas: keep the keys coming to us
		g.focusQuietly(g.root)
	case g.owner:
		g.deactivate()
	}
}

// focusQuietly focuses f without counting it as the window gaining focus.
// Runs on the Fyne goroutine.
func (g *guard) focusQuietly(f fyne.Focusable) {
	c := g.canvas()
	if c == nil || f == nil || g.ended {
		return
	}
	g.quiet = true
	c.Focus(f)
	g.quiet = false
}

// end disarms the guard for good: its dialog closed, and a focus event still
// on its way (the canvas's Unfocus as the window is emptied or destroyed)
// must not focus the root again, which Fyne's driver refuses with "Failed
// to focus object which is not part of the canvas' content". Runs on the
// Fyne goroutine.
func (g *guard) end() {
	g.ended = true
	g.deactivate()
}

// activate starts the arming delay.
func (g *guard) activate() {
	g.active = true
	g.activeAt = g.clock.now()
	g.gen++
	g.schedule(g.delay)
	g.onChange()
}

func (g *guard) schedule(d time.Duration) {
	if g.stopTimer != nil {
		g.stopTimer()
	}
	gen := g.gen
	g.stopTimer = g.clock.after(d, func() {
		if gen == g.gen {
			g.check()
		}
	})
}

// check arms the guard once the window has been active for the delay. Runs on the Fyne goroutine.
func (g *guard) check() {
	if !g.active || g.armed {
		return
	}
	if left := g.delay - g.clock.now().Sub(g.activeAt); left > 0 {
		g.schedule(left)
		return
	}
	g.armed, g.armedAt, g.typing = true, g.clock.now(), false
	g.onChange()
}

// deactivate disarms: the window lost focus or was hidden. Runs on the Fyne goroutine.
func (g *guard) deactivate() {
	wasActive, wasArmed := g.active, g.armed
	g.active, g.armed, g.typing = false, false, false
	g.gen++
	if g.stopTimer != nil {
		g.stopTimer()
		g.stopTimer = nil
	}
	// GLFW releases every key when a window loses focus; forget them too.
	clear(g.held)
	clear(g.fresh)
	if wasActive || wasArmed {
		g.onChange()
	}
}

// arm makes the window active and armed at once. Tests use it in place of
// focusing a real window and waiting the delay. Runs on the Fyne goroutine.
func (g *guard) arm() {
	g.active, g.activeAt = true, g.clock.now()
	g.gen++
	g.armed, g.armedAt, g.typing = true, g.clock.now(), false
	g.onChange()
}

// keyDown records a key press. While the window is focused but not yet
// armed, every press (a repeat too) starts the arming delay again. A key
// already held (a repeat, on platforms that report repeats as presses)
// stays stale. Runs on the Fyne goroutine.
func (g *guard) keyDown(k fyne.KeyName) {
	if g.active && !g.armed {
		g.activeAt = g.clock.now() // check sees the time left and waits again
		g.restarts++
		if !g.typing {
			g.typing = true
			g.onChange()
		}
	}
	if g.held[k] {
		return
	}
	g.held[k] = true
	if g.armed {
		g.fresh[k] = true
	}
}

// keyUp records a key release. Runs on the Fyne goroutine.
func (g *guard) keyUp(k fyne.KeyName) {
	delete(g.held, k)
	delete(g.fresh, k)
}

// take reports whether typed key k may act now, and uses up its press.
// The GLFW driver sends key-repeats to TypedKey without a key-down
// (processKeyPressed), so they find the press already used. Runs on the Fyne goroutine.
func (g *guard) take(k fyne.KeyName) bool {
	ok := g.armed && g.fresh[k]
	delete(g.fresh, k)
	if !ok {
		g.rejected++
	}
	return ok
}

// mayEdit reports whether a key may change the answer being made now:
// text typed into a field, an editing key, Space on an option or a check
// box. It holds edits to the same rule as the answer keys: only while
// armed (the window has had focus for the delay with no key pressed) and
// with no key still held from before arming, whose repeats would type on.
// So the rest of a line typed for another window when the dialog took
// focus never becomes part of an answer. An edit refused is counted.
// Runs on the Fyne goroutine.
func (g *guard) mayEdit() bool {
	ok := g.armed
	for k := range g.held {
		if !g.fresh[k] && !modifierKey(k) {
			ok = false
		}
	}
	if !ok {
		g.dropped++
	}
	return ok
}

// modifierKey reports whether k is Shift, Control, Alt or Super, which may
// be held across arming without typing anything themselves.
func modifierKey(k fyne.KeyName) bool {
	switch k {
	case desktop.KeyShiftLeft, desktop.KeyShiftRight, desktop.KeyControlLeft, desktop.KeyControlRight,
		desktop.KeyAltLeft, desktop.KeyAltRight, desktop.KeySuperLeft, desktop.KeySuperRight:
		return true
	}
	return false
}

// mayTap reports whether a pointer tap may act now. Runs on the Fyne goroutine.
func (g *guard) mayTap() bool {
	if !g.armed {
		g.rejected++
	}
	return g.armed
}
