package askdialog

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
	"github.com/asktray/asktray/ui/internal/uitheme"
)

// fakeDialogClock is a clock the test goroutine drives: time moves only on
// advance, timers fire during advance, and "soon" work waits for flush.
type fakeDialogClock struct {
	now    time.Time
	timers []*fakeDialogTimer
	queue  []func()
	tick   func() // the running "every" callback, if any
}

type fakeDialogTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

func newFakeDialogClock() *fakeDialogClock {
	return &fakeDialogClock{now: time.Now()} // near the broker's real clock, so snoozes lie ahead
}

func (c *fakeDialogClock) clock() clock {
	return clock{
		now: func() time.Time { return c.now },
		after: func(d time.Duration, f func()) func() {
			t := &fakeDialogTimer{at: c.now.Add(d), f: f}
			c.timers = append(c.timers, t)
			return func() { t.stopped = true }
		},
		every: func(_ time.Duration, f func()) func() {
			c.tick = f
			return func() { c.tick = nil }
		},
		soon: func(f func()) { c.queue = append(c.queue, f) },
	}
}

// advance moves time on by d, firing due timers in order.
func (c *fakeDialogClock) advance(d time.Duration) {
	c.now = c.now.Add(d)
	for {
		i := slices.IndexFunc(c.timers, func(t *fakeDialogTimer) bool { return !t.stopped && !t.at.After(c.now) })
		if i < 0 {
			return
		}
		t := c.timers[i]
		c.timers = slices.Delete(c.timers, i, i+1)
		t.f()
	}
}

// flush runs the work queued with soon.
func (c *fakeDialogClock) flush() {
	for len(c.queue) > 0 {
		f := c.queue[0]
		c.queue = c.queue[1:]
		f()
	}
}

// dialogEnv is a test app, a real broker and a dialog manager on a fake clock.
// Broker events are collected from the broker's goroutine and applied on
// the test goroutine by pump, as fyne.Do would on the Fyne goroutine.
type dialogEnv struct {
	t      *testing.T
	app    fyne.App
	broker *question.Broker
	clock  *fakeDialogClock
	m      *Manager
	logs   *testkit.SyncBuffer
	events chan question.Event
}

func newDialogEnv(t *testing.T) *dialogEnv {
	return newDialogEnvWith(t, question.Config{})
}

func newDialogEnvWith(t *testing.T, cfg question.Config) *dialogEnv {
	t.Helper()
	e := &dialogEnv{t: t, app: test.NewTempApp(t), broker: question.NewBroker(cfg), clock: newFakeDialogClock(),
		logs: &testkit.SyncBuffer{}, events: make(chan question.Event, 256)}
	e.app.Settings().SetTheme(uitheme.New()) // the app's theme, as ui.Run sets it
	t.Cleanup(func() { _ = e.broker.Close() })
	stop := e.broker.Subscribe(func(ev question.Event) { e.events <- ev })
	t.Cleanup(stop)
	e.m = newDialogs(e.app, e.broker, slog.New(slog.NewTextHandler(e.logs, nil)), question.DefaultArmDelay)
	e.m.clock = e.clock.clock()
	return e
}

// pump applies broker events until one of type typ for question id has been applied.
func (e *dialogEnv) pump(typ question.EventType, id string) question.Event {
	e.t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case ev := <-e.events:
			e.m.Handle(ev)
			if ev.Type == typ && ev.Question.ID == id {
				return ev
			}
		case <-deadline:
			e.t.Fatalf("no %s event for %s", typ, id)
		}
	}
}

// ask asks q and returns its dialog, open: opened by the manager, or, when
// another dialog is open (it queues) or q is a notice (it opens none by
// itself), opened as the person would from the tray menu.
func (e *dialogEnv) ask(q question.Question) *questionDialog {
	e.t.Helper()
	id := e.askQueued(q)
	if e.m.byID[id] == nil {
		e.m.Open(id)
	}
	d := e.m.byID[id]
	if d == nil || e.m.current != d {
		e.t.Fatalf("no open dialog for %s", id)
	}
	return d
}

// askQueued asks q and applies its events; it returns q's id, whatever the
// manager did with it.
func (e *dialogEnv) askQueued(q question.Question) string {
	e.t.Helper()
	if q.Client.Name == "" {
		q.Client = question.Client{Name: "claude-code", Version: "2.1.3", SessionID: "4f2a9c1e-77b0-4d55-9a1c-0c5e7d2f1b3a"}
	}
	stored, err := e.broker.Ask(context.Background(), q)
	if err != nil {
		e.t.Fatal(err)
	}
	e.pump(question.EventAsked, stored.ID)
	return stored.ID
}

// result waits for question id's result.
func (e *dialogEnv) result(id string) question.Result {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := e.broker.Wait(ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return res
}

// pending fails unless question id is still pending.
func (e *dialogEnv) pending(id string) {
	e.t.Helper()
	q, res, err := e.broker.Get(id)
	if err != nil || res != nil || q.State != question.StatePending {
		e.t.Fatalf("question is no longer pending: %v %+v", err, res)
	}
}

// windowOpen reports whether w is still one of the app's windows.
func (e *dialogEnv) windowOpen(w fyne.Window) bool {
	return slices.Contains(e.app.Driver().AllWindows(), w)
}

// focused returns what has keyboard focus in d's window, after pending focus work.
func (e *dialogEnv) focused(d *questionDialog) fyne.Focusable {
	e.t.Helper()
	e.clock.flush()
	f := d.win.Canvas().Focused()
	if f == nil {
		e.t.Fatal("nothing has focus")
	}
	return f
}

// keyDown, typeKey and keyUp send what the GLFW driver sends for a key to the focused widget.
func (e *dialogEnv) keyDown(d *questionDialog, k fyne.KeyName) {
	e.focused(d).(desktop.Keyable).KeyDown(&fyne.KeyEvent{Name: k})
}

func (e *dialogEnv) typeKey(d *questionDialog, k fyne.KeyName) {
	e.focused(d).TypedKey(&fyne.KeyEvent{Name: k})
}

func (e *dialogEnv) keyUp(d *questionDialog, k fyne.KeyName) {
	e.focused(d).(desktop.Keyable).KeyUp(&fyne.KeyEvent{Name: k})
}

// press is one full key press: down, typed, up.
func (e *dialogEnv) press(d *questionDialog, k fyne.KeyName) {
	w := d.win
	e.keyDown(d, k)
	e.typeKey(d, k)
	if d.win != nil && d.win == w {
		e.keyUp(d, k)
	}
}

// focusWindow and blurWindow do what the GLFW driver does when the window
// gains or loses keyboard focus: tell the focused widget.
func (e *dialogEnv) focusWindow(d *questionDialog) { e.focused(d).FocusGained() }

func (e *dialogEnv) blurWindow(d *questionDialog) {
	e.focused(d).FocusLost()
	e.clock.flush()
}

// findButton returns d's answer button labelled label.
func findButton(t *testing.T, d *questionDialog, label string) *dialogButton {
	t.Helper()
	for _, b := range d.buttons {
		if b.Text == label {
			return b
		}
	}
	t.Fatalf("no button %q", label)
	return nil
}

// desktopCtrlEnter is what the GLFW driver sends a focused entry for Ctrl+Enter.
var desktopCtrlEnter = desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierControl}
