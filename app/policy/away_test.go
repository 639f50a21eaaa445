package policy

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

// TestJudge: what away does with a new question, and that the Gate does
// exactly that: it ends a question when and only when Judge says Ended,
// with the same result; a rule's decision is the Gate's too.
func TestJudge(t *testing.T) {
	t.Parallel()
	allowBash := rule("a", "claude-code", "permission_prompt:Bash", Allow)
	bash := approval("claude-code", "s", "permission_prompt", "Bash", "")
	write := approval("claude-code", "s", "permission_prompt", "Write", "")
	text := question.Question{Kind: question.KindText, Message: "Name?", FreeText: true}
	notice := question.Question{Kind: question.KindNotice, Message: "done"}
	cases := []struct {
		name string
		away bool
		mode AwayMode
		q    question.Question
		want Hold
	}{
		{"not away", false, AwayReject, write, NotHeld},
		{"hold: approval", true, AwayHold, write, Held},
		{"hold: text", true, AwayHold, text, Held},
		{"a rule decides, away or not", true, AwayHold, bash, NotHeld},
		{"reject: approval", true, AwayReject, write, Ended},
		{"reject: text", true, AwayReject, text, Ended},
		{"reject: a notice is held", true, AwayReject, notice, Held},
		{"handback: text goes back", true, AwayHandback, text, Ended},
		{"handback: an approval is held", true, AwayHandback, write, Held},
		{"handback: a destructive confirm is held", true, AwayHandback, confirm("cursor", true), Held},
		{"handback: a plain confirm goes back", true, AwayHandback, confirm("cursor", false), Ended},
		{"handback: a notice is held", true, AwayHandback, notice, Held},
	}
	for _, tc := range cases {
		p := &Policy{rules: []Rule{allowBash}, away: tc.away, mode: tc.mode, now: func() time.Time { return t0 }}
		r := p.Judge(tc.q)
		got, res := r.Hold, r.Result
		if got != tc.want || r.Decided != (got == Ended || tc.q.Action == "Bash") {
			t.Errorf("%s: Judge %+v, want hold %v", tc.name, r, tc.want)
		}
		gated, decided := p.Gate(tc.q)
		if byAway := decided && gated.DecidedBy == question.ByApp; byAway != (got == Ended) || (byAway && (gated.Outcome != res.Outcome || gated.Reason != res.Reason)) {
			t.Errorf("%s: the Gate decided %+v (%v), Judge %+v", tc.name, gated, decided, r)
		}
		if decided != r.Decided || gated.RuleID != res.RuleID || gated.Outcome != res.Outcome {
			t.Errorf("%s: the Gate decided %+v (%v), Judge %+v", tc.name, gated, decided, r)
		}
	}
	var none *Policy
	if r := none.Judge(write); r.Hold != NotHeld || r.Decided {
		t.Errorf("a nil policy judges %+v", r)
	}
}

// TestVisible: a pending question is before the person unless away holds it
// (in every mode: it passed the Gate already), it is snoozed, or it is in
// the agent's own form.
func TestVisible(t *testing.T) {
	t.Parallel()
	pending := approval("claude-code", "s", "permission_prompt", "Write", "")
	pending.State = question.StatePending
	snoozed := pending
	snoozed.SnoozeUntil = t0.Add(time.Minute)
	inForm := pending
	inForm.DeliverTo = question.DeliverClient
	cases := []struct {
		name string
		away bool
		mode AwayMode
		q    question.Question
		want bool
	}{
		{"shown", false, AwayHold, pending, true},
		{"held while away", true, AwayHold, pending, false},
		{"held while away, mode reject", true, AwayReject, pending, false},
		{"held while away, mode handback", true, AwayHandback, pending, false},
		{"snoozed", false, AwayHold, snoozed, false},
		{"snooze over", false, AwayHold, func() question.Question { q := snoozed; q.SnoozeUntil = t0; return q }(), true},
		{"in the agent's form", false, AwayHold, inForm, false},
	}
	for _, tc := range cases {
		p := &Policy{away: tc.away, mode: tc.mode, now: func() time.Time { return t0 }}
		if got := p.Visible(tc.q, t0); got != tc.want {
			t.Errorf("%s: Visible %v, want %v", tc.name, got, tc.want)
		}
	}
	var none *Policy
	if !none.Visible(pending, t0) || none.Visible(snoozed, t0) {
		t.Error("a nil policy: Visible must follow snooze alone")
	}
}

// TestAwayUntil: away until a time holds questions until then and ends by
// itself, across a restart; switching away on or off forgets the end; a
// time already past is refused, naming it (issue 38 item 8).
func TestAwayUntil(t *testing.T) {
	path := filepath.Join(t.TempDir(), File)
	p, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	p.now = func() time.Time { return now }
	if err := p.SetAwayUntil(now.Add(-time.Minute)); err == nil || !strings.Contains(err.Error(), "away until") {
		t.Fatalf("a past end: %v", err)
	}
	end := now.Add(2 * time.Hour)
	if err := p.SetAwayUntil(end); err != nil {
		t.Fatal(err)
	}
	q := question.Question{Kind: question.KindConfirm, Message: "Go on?"}
	if !p.Away() || !p.AwayUntil().Equal(end) || p.Judge(q).Hold != Held {
		t.Fatalf("away %v until %v, hold %v", p.Away(), p.AwayUntil(), p.Judge(q).Hold)
	}
	again, err := Open(path) // a restart keeps the end
	if err != nil {
		t.Fatal(err)
	}
	again.now = p.now
	if !again.Away() || !again.AwayUntil().Equal(end) {
		t.Fatalf("after a restart: away %v until %v", again.Away(), again.AwayUntil())
	}
	now = end
	if p.Away() || !p.AwayUntil().IsZero() || p.Judge(q).Hold != NotHeld || again.Away() {
		t.Fatalf("at the end: away %v until %v, hold %v", p.Away(), p.AwayUntil(), p.Judge(q).Hold)
	}
	if err := p.SetAwayUntil(now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := p.SetAway(true); err != nil {
		t.Fatal(err)
	}
	now = now.Add(3 * time.Hour)
	if !p.Away() || !p.AwayUntil().IsZero() {
		t.Fatalf("away switched on lasts until switched off: away %v until %v", p.Away(), p.AwayUntil())
	}
}
