package policy

import (
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
