package askdialog

import (
	"context"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
)

func TestDialogs_WithdrawClosesWindow(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(confirmQ())
	w := d.win
	if !e.windowOpen(w) || e.clock.tick == nil {
		t.Fatal("window not open or ticker not running")
	}
	if err := e.broker.Withdraw(d.q.ID); err != nil {
		t.Fatal(err)
	}
	e.pump(question.EventEnded, d.q.ID)
	if e.windowOpen(w) {
		t.Fatal("window still open after withdrawal")
	}
	if _, ok := e.m.byID[d.q.ID]; ok {
		t.Error("manager still holds the dialog")
	}
	if e.clock.tick != nil {
		t.Error("ticker still running with no dialog")
	}
}

func TestDialogs_StoppedWaitingLine(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindText, Message: "Name?", FreeText: true,
		Client: question.Client{Name: "codex"}})
	if d.stopped.Visible() {
		t.Fatal("line shown before anyone stopped waiting")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _, _ = e.broker.Wait(ctx, d.q.ID) }()
	ev := e.pump(question.EventWaiters, d.q.ID)
	if ev.Waiters != 1 || d.stopped.Visible() {
		t.Fatalf("waiters %d, line %v", ev.Waiters, d.stopped.Visible())
	}
	cancel()
	<-done
	ev = e.pump(question.EventWaiters, d.q.ID)
	if ev.Waiters != 0 || !d.stopped.Visible() {
		t.Fatalf("waiters %d, line %v", ev.Waiters, d.stopped.Visible())
	}
	want := "codex stopped waiting; your answer will still reach it."
	if !hasLabelText(d.stopped, want) {
		t.Errorf("line does not say %q", want)
	}
}

func TestDialogs_SnoozeHidesAndResurfaceShows(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(confirmQ())
	d.guard.arm()
	items := d.snoozeItems()
	if len(items) != 3 || items[0].Label != "For 5 minutes" || items[1].Label != "For 1 hour" {
		t.Fatalf("snooze items %v", items)
	}
	// The menu's first item, on a real clock a few milliseconds long.
	d.snooze(time.Now().Add(50 * time.Millisecond))
	if d.visible || d.guard.armed || e.clock.tick != nil {
		t.Fatalf("after snooze: visible %v armed %v ticker %v", d.visible, d.guard.armed, e.clock.tick != nil)
	}
	q, _, _ := e.broker.Get(d.q.ID)
	if q.SnoozeUntil.IsZero() {
		t.Fatal("broker did not snooze")
	}
	e.pump(question.EventSnoozed, d.q.ID)
	e.pump(question.EventResurfaced, d.q.ID)
	if !d.visible || !e.windowOpen(d.win) || e.m.byID[d.q.ID] != d {
		t.Fatal("dialog did not come back")
	}
	if d.guard.armed {
		t.Fatal("resurfaced dialog is armed before focus and delay")
	}
}

func TestDialogs_SnoozeMenuItem(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(confirmQ())
	d.snoozeItems()[1].Action() // for 1 hour: needs no arming
	if d.visible {
		t.Fatal("still visible")
	}
	q, _, _ := e.broker.Get(d.q.ID)
	if want := e.clock.now.Add(time.Hour); !q.SnoozeUntil.Equal(want) {
		t.Fatalf("snoozed until %v, want %v", q.SnoozeUntil, want)
	}
	e.m.Open(d.q.ID) // the tray's item for it
	if !d.visible {
		t.Fatal("open did not show the snoozed dialog")
	}
}

func TestDialogs_StartOpensPending(t *testing.T) {
	e := newDialogEnv(t)
	var ids []string
	for range 2 {
		q, err := e.broker.Ask(context.Background(), confirmQ())
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, q.ID)
	}
	// A manager that starts after the questions were asked.
	m := newDialogs(e.app, e.broker, nil, 0)
	m.clock = e.clock.clock()
	m.Start()
	m.Start() // twice is harmless
	// One dialog open, the other waiting behind it.
	if len(m.byID) != 1 || m.visible() != 1 || m.current == nil || m.current.q.ID != ids[0] || !m.Queued(ids[1]) {
		t.Fatalf("%d dialogs, %d visible, queued %v", len(m.byID), m.visible(), m.waiting)
	}
	m.Open(ids[1]) // the tray's item for the waiting one
	if len(e.app.Driver().AllWindows()) != 3 || m.visible() != 1 || m.current.q.ID != ids[1] || !m.Queued(ids[0]) {
		t.Fatalf("%d windows, %d visible", len(e.app.Driver().AllWindows()), m.visible())
	}
	m.closeAll()
	if len(m.byID) != 0 {
		t.Fatal("closeAll left dialogs")
	}
	e.pending(ids[0])
}

func TestDialogs_UnknownKindIsLoggedNotShown(t *testing.T) {
	e := newDialogEnv(t)
	e.m.Handle(question.Event{Type: question.EventAsked, Question: question.Question{ID: "x", Kind: "weird"}})
	if len(e.m.byID) != 0 {
		t.Fatal("dialog for an unknown kind")
	}
}

// hasLabelText reports whether a label under o reads text.
func hasLabelText(o fyne.CanvasObject, text string) bool {
	for _, c := range test.LaidOutObjects(o) {
		if l, ok := c.(*widget.Label); ok && l.Text == text {
			return true
		}
	}
	return false
}

func TestDialogs_ClosingSnoozeMenuRestartsArmDelay(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(confirmQ())
	d.guard.arm()
	test.Tap(d.snoozeButton)
	if d.snoozePopup == nil || d.win.Canvas().Overlays().Top() == nil {
		t.Fatal("no snooze menu")
	}
	d.snoozePopup.Dismiss()
	if d.guard.armed || !d.guard.active {
		t.Fatalf("after the menu: armed %v active %v", d.guard.armed, d.guard.active)
	}
	e.clock.advance(question.DefaultArmDelay)
	if !d.guard.armed {
		t.Fatal("not armed again after the delay")
	}
}
