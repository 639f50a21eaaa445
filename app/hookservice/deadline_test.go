package hookservice

import (
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// TestHook_DeadlineIsTheWait (finding 9 of issue 25): the question's
// deadline, which the dialog counts down, is the time the hook really waits:
// the person's deadline ("5:00 left" for 300 s, not 5:05), or the hook's
// shorter wait; and the question ends there, timed out like any question,
// with no decision for the agent.
func TestHook_DeadlineIsTheWait(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	e.set.Deadline = question.DefaultTimeout
	p := payload(t, hook.Codex, "PermissionRequest")
	for _, c := range []struct {
		wait, want time.Duration
		left       string
	}{
		{time.Hour, question.DefaultTimeout, "5:00 left"},
		{40 * time.Second, 40 * time.Second, "0:40 left"},
	} {
		got := e.call(withEvent(p, "deadline-"+c.want.String()), c.wait)
		q := e.nextAsked(t)
		// Created is when the broker took it, a moment after the hook's
		// wait began.
		if d := q.Deadline.Sub(q.Created); d > c.want || d < c.want-time.Second {
			t.Errorf("wait %v: the deadline is %v after the question, want %v", c.wait, d, c.want)
		}
		if s := present.TimeLeft(q.Deadline.Sub(q.Created)); s != c.left {
			t.Errorf("wait %v: the dialog would show %q, want %q", c.wait, s, c.left)
		}
		if err := e.b.Withdraw(q.ID); err != nil {
			t.Fatal(err)
		}
		<-e.ended
		recv(t, got)
	}

	// It ends at that deadline: timed out, the agent's own prompt next.
	e.set.Deadline = question.MinTimeout
	start := time.Now()
	got := e.call(p, time.Minute)
	q := e.nextAsked(t)
	select {
	case rep := <-got:
		if rep.Behavior != "" || rep.Message != "" {
			t.Fatalf("at the deadline: %+v", rep)
		}
	case <-time.After(question.MinTimeout + 5*time.Second):
		t.Fatal("the hook outlived its question's deadline")
	}
	if took := time.Since(start); took < question.MinTimeout-time.Second {
		t.Errorf("ended after %v, before its deadline", took)
	}
	if ev := recv(t, e.ended); ev.Question.ID != q.ID || ev.Result.Outcome != question.AutoRejected || ev.Result.DecidedBy != question.ByTimeout {
		t.Errorf("ended %+v", ev.Result)
	}
}
