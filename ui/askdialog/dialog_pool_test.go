package askdialog

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"github.com/asktray/asktray/app/question"
)

// newPooledEnv is a dialog env whose manager keeps up to size windows.
func newPooledEnv(t *testing.T, size int) *dialogEnv {
	e := newDialogEnv(t)
	e.m.windows = newWindowPool(size)
	return e
}

func TestWindowPool_ClosedWindowServesTheNextQuestion(t *testing.T) {
	e := newPooledEnv(t, 1)
	d1 := e.ask(confirmQ())
	w := d1.win
	d1.guard.arm()
	e.press(d1, fyne.KeyEscape) // a confirm's one no
	if res := e.result(d1.q.ID); res.Outcome != question.Answered || string(res.Value) != `"no"` {
		t.Fatalf("first result %+v", res)
	}
	if !e.windowOpen(w) || e.m.windows.len() != 1 || d1.win != nil {
		t.Fatalf("window kept %v, pool %d, dialog still holds it %v", e.windowOpen(w), e.m.windows.len(), d1.win != nil)
	}
	if _, ok := e.m.byID[d1.q.ID]; ok {
		t.Fatal("manager still holds the answered dialog")
	}

	d2 := e.ask(question.Question{Kind: question.KindText, Message: "Name?", FreeText: true, Client: question.Client{Name: "codex"}})
	if d2.win != w || !d2.reused || e.m.windows.len() != 0 {
		t.Fatalf("second dialog got a new window (reused %v, pool %d)", d2.reused, e.m.windows.len())
	}
	if d2.win.Title() != "codex asks" || d2.win.Content() != d2.root {
		t.Fatalf("title %q, content is the new dialog's: %v", d2.win.Title(), d2.win.Content() == d2.root)
	}
	if d1.guard.armed || d2.guard.armed {
		t.Fatal("a guard is armed on a window just shown again")
	}
	// Keys and the close button now reach the second question only.
	d2.guard.arm()
	if f := e.focused(d2); f != d2.r.Focus() {
		t.Fatalf("focus on %T, not the new dialog's entry", f)
	}
	e.press(d2, fyne.KeyEscape)
	if res := e.result(d2.q.ID); res.Outcome != question.Cancelled {
		t.Fatalf("second result %+v", res)
	}
}

func TestWindowPool_CloseButtonAfterReuseCancelsTheNewQuestion(t *testing.T) {
	e := newPooledEnv(t, 1)
	d1 := e.ask(confirmQ())
	w := d1.win
	d1.closeRequested()
	e.result(d1.q.ID)
	d2 := e.ask(confirmQ())
	if d2.win != w {
		t.Fatal("window not reused")
	}
	d2.closeRequested()
	if res := e.result(d2.q.ID); res.Outcome != question.Cancelled {
		t.Fatalf("result %+v", res)
	}
	if e.m.windows.len() != 1 || len(e.m.byID) != 0 {
		t.Fatalf("pool %d, dialogs %d", e.m.windows.len(), len(e.m.byID))
	}
}

func TestWindowPool_FullPoolDestroysTheRest(t *testing.T) {
	e := newPooledEnv(t, 1)
	d1, d2 := e.ask(confirmQ()), e.ask(confirmQ())
	w1, w2 := d1.win, d2.win
	if w1 == w2 {
		t.Fatal("two open dialogs share a window")
	}
	d1.closeRequested()
	d2.closeRequested()
	if !e.windowOpen(w1) || e.windowOpen(w2) || e.m.windows.len() != 1 {
		t.Fatalf("first kept %v, second destroyed %v, pool %d", e.windowOpen(w1), !e.windowOpen(w2), e.m.windows.len())
	}
}

func TestWindowPool_OffDestroysEveryWindow(t *testing.T) {
	e := newPooledEnv(t, 0)
	d := e.ask(confirmQ())
	w := d.win
	d.closeRequested()
	if e.windowOpen(w) || e.m.windows.len() != 0 {
		t.Fatal("window kept with the pool off")
	}
	if d2 := e.ask(confirmQ()); d2.win == w || d2.reused {
		t.Fatal("window reused with the pool off")
	}
}

func TestWindowPool_OpenMenuIsGoneOnReuse(t *testing.T) {
	e := newPooledEnv(t, 1)
	d1 := e.ask(confirmQ())
	d1.showSnoozeMenu()
	if d1.win.Canvas().Overlays().Top() == nil {
		t.Fatal("snooze menu not shown")
	}
	if err := e.broker.Withdraw(d1.q.ID); err != nil {
		t.Fatal(err)
	}
	e.pump(question.EventEnded, d1.q.ID)
	d2 := e.ask(confirmQ())
	if d2.win.Canvas().Overlays().Top() != nil {
		t.Fatal("the last question's menu is still over the reused window")
	}
}

func TestWindowPoolSize(t *testing.T) {
	for _, c := range []struct {
		env  string
		want int
	}{
		{"", defaultWindowPool}, {"0", 0}, {"1", 1}, {"8", 8}, {"9", defaultWindowPool},
		{"-1", defaultWindowPool}, {"two", defaultWindowPool},
	} {
		t.Setenv(windowPoolEnv, c.env)
		if got := windowPoolSize(); got != c.want {
			t.Errorf("%s=%q: %d, want %d", windowPoolEnv, c.env, got, c.want)
		}
	}
}

func TestDialogs_ReleaseMemoryAfterTheLastDialogCloses(t *testing.T) {
	released := make(chan struct{}, 4)
	old := releaseMemory
	releaseMemory = func() { released <- struct{}{} }
	t.Cleanup(func() { releaseMemory = old })
	e := newDialogEnv(t)

	d1 := e.ask(confirmQ())
	d2 := e.ask(confirmQ())
	d1.closeRequested()
	e.clock.advance(time.Minute)
	expectReleases(t, released, 0) // one dialog is still open
	d2.closeRequested()
	e.clock.advance(releaseAfter / 2)
	d3 := e.ask(confirmQ()) // a new question before the delay ran out
	e.clock.advance(time.Minute)
	expectReleases(t, released, 0)
	d3.closeRequested()
	e.clock.advance(releaseAfter)
	expectReleases(t, released, 1)
	e.clock.advance(time.Minute)
	expectReleases(t, released, 0)
}

// expectReleases fails unless releaseMemory ran n times (it runs on a goroutine of its own).
func expectReleases(t *testing.T, released chan struct{}, n int) {
	t.Helper()
	for range n {
		select {
		case <-released:
		case <-time.After(5 * time.Second):
			t.Fatal("memory not released")
		}
	}
	select {
	case <-released:
		t.Fatal("memory released too often or too early")
	case <-time.After(50 * time.Millisecond):
	}
}
