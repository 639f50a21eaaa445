package question

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// eventLog records every event a Broker emits.
type eventLog struct {
	mu     sync.Mutex
	events []Event
}

func (l *eventLog) add(ev Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, ev)
}

func (l *eventLog) types(id string) []EventType {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []EventType
	for _, ev := range l.events {
		if ev.Question.ID == id {
			out = append(out, ev.Type)
		}
	}
	return out
}

// waitTypes waits until id has n events and returns their types.
func (l *eventLog) waitTypes(t *testing.T, id string, n int) []EventType {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := l.types(id)
		if len(got) >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func newGatedBroker(t *testing.T, gate func(Question) (Result, bool)) (*Broker, *memJournal, *eventLog) {
	t.Helper()
	j := newMemJournal()
	b := NewBroker(Config{Journal: j, Gate: gate, RetryDelay: 10 * time.Millisecond})
	t.Cleanup(func() { _ = b.Close() })
	l := &eventLog{}
	b.Subscribe(l.add)
	return b, j, l
}

func TestGateDecidesAtOnce(t *testing.T) {
	t.Parallel()
	var seen Question
	gate := func(q Question) (Result, bool) {
		seen = q
		return Result{Outcome: AutoApproved, DecidedBy: ByRule, Reason: ReasonRule, Via: ViaRule, RuleID: "r1"}, true
	}
	b, j, l := newGatedBroker(t, gate)
	q, err := b.Ask(t.Context(), Question{Kind: KindApproval, Message: "Deploy", Action: "Deploy", Tool: "request_approval"})
	if err != nil {
		t.Fatal(err)
	}
	if seen.ID == "" || seen.ID != q.ID || seen.Deadline.IsZero() {
		t.Fatalf("gate saw %+v; want the question with its id and deadline", seen)
	}
	if q.State != State(AutoApproved) {
		t.Fatalf("Ask returned state %q, want auto_approved", q.State)
	}
	// Wait returns at once: the context is already done, yet the result comes back.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res, err := b.Wait(ctx, q.ID)
	if err != nil || res.Outcome != AutoApproved || res.RuleID != "r1" || res.DecidedAt.IsZero() {
		t.Fatalf("Wait = %+v, %v", res, err)
	}
	j.mu.Lock()
	order := append([]string(nil), j.order...)
	j.mu.Unlock()
	if len(order) != 2 || order[0] != "begin:"+q.ID || order[1] != "end:"+q.ID {
		t.Fatalf("journal order %v, want begin then end of %s", order, q.ID)
	}
	if got, _ := j.result(q.ID); got.Outcome != AutoApproved || got.Reason != ReasonRule {
		t.Fatalf("journaled %+v", got)
	}
	if got := l.waitTypes(t, q.ID, 1); len(got) != 1 || got[0] != EventEnded {
		t.Fatalf("events %v, want only ended", got)
	}
	if len(b.Pending()) != 0 {
		t.Fatalf("a gated question is pending")
	}
	gq, gr, err := b.Get(q.ID)
	if err != nil || gr == nil || gq.State != State(AutoApproved) {
		t.Fatalf("Get = %+v, %+v, %v", gq, gr, err)
	}
}

func TestGateDeclinesToDecide(t *testing.T) {
	t.Parallel()
	results := map[string]Result{
		"false":        {},
		"human":        {Outcome: AutoApproved, DecidedBy: ByHuman},
		"no_decider":   {Outcome: AutoRejected},
		"not_auto":     {Outcome: Answered, DecidedBy: ByRule},
		"interrupted":  {Outcome: Interrupted, DecidedBy: ByApp},
		"withdrawn_by": {Outcome: Withdrawn, DecidedBy: ByAgent},
	}
	for name, r := range results {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b, _, l := newGatedBroker(t, func(Question) (Result, bool) { return r, name != "false" })
			q, err := b.Ask(t.Context(), confirmQ())
			if err != nil {
				t.Fatal(err)
			}
			if q.State != StatePending {
				t.Fatalf("state %q, want pending", q.State)
			}
			if got := l.waitTypes(t, q.ID, 1); len(got) != 1 || got[0] != EventAsked {
				t.Fatalf("events %v, want asked", got)
			}
		})
	}
}

// A gate decision the journal cannot record leaves the question to the person.
func TestGateJournalFailureFallsBackToPerson(t *testing.T) {
	t.Parallel()
	b, j, l := newGatedBroker(t, func(Question) (Result, bool) {
		return Result{Outcome: AutoRejected, DecidedBy: ByApp, Reason: ReasonAway}, true
	})
	j.failEnd.Store(true)
	q, err := b.Ask(t.Context(), confirmQ())
	if err != nil {
		t.Fatal(err)
	}
	if q.State != StatePending || len(b.Pending()) != 1 {
		t.Fatalf("state %q, pending %d; want the question pending", q.State, len(b.Pending()))
	}
	if got := l.waitTypes(t, q.ID, 1); len(got) != 1 || got[0] != EventAsked {
		t.Fatalf("events %v, want asked", got)
	}
}

func TestGateNotCalledForInvalidQuestion(t *testing.T) {
	t.Parallel()
	called := false
	b, _, _ := newGatedBroker(t, func(Question) (Result, bool) { called = true; return Result{}, false })
	if _, err := b.Ask(t.Context(), Question{Kind: KindConfirm}); err == nil {
		t.Fatal("an empty message was accepted")
	}
	if called {
		t.Fatal("gate saw a question that failed validation")
	}
}

// An answer made together with a rule ("Always allow…") is the person's,
// and names the rule.
func TestAnswerCarriesRuleID(t *testing.T) {
	t.Parallel()
	b, _ := newTestBroker(t)
	q, err := b.Ask(t.Context(), Question{Kind: KindApproval, Message: "Deploy", Action: "Deploy"})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Answer(q.ID, Response{Action: Accept, Value: []byte(`"allow"`), RuleID: strings.Repeat("r", MaxRuleID+1)}); err == nil || !strings.Contains(err.Error(), "rule_id: at most 64 characters") {
		t.Fatalf("long rule id: %v", err)
	}
	if err := b.Answer(q.ID, Response{Action: Accept, Value: []byte(`"allow"`), Via: ViaDialog, RuleID: "r7"}); err != nil {
		t.Fatal(err)
	}
	res, err := b.Wait(t.Context(), q.ID)
	if err != nil || res.Outcome != Answered || res.DecidedBy != ByHuman || res.RuleID != "r7" {
		t.Fatalf("result %+v %v", res, err)
	}
}

// decidedJournal is a memJournal that can record a decided question in one
// call, and can be made to refuse that call.
type decidedJournal struct {
	*memJournal
	fail bool
}

func (j *decidedJournal) BeginEnded(_ context.Context, q Question, r Result) error {
	if j.fail {
		return errors.New("disk full")
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.began[q.ID], j.ended[q.ID] = q, r
	j.order = append(j.order, "begin+end:"+q.ID)
	return nil
}

// TestGateDecisionIsOneCommit checks that a question a rule decides at ask
// time reaches a DecidedJournal in one call (one durable commit), and that the
// Broker falls back to Begin and End when that call fails.
func TestGateDecisionIsOneCommit(t *testing.T) {
	t.Parallel()
	gate := func(Question) (Result, bool) {
		return Result{Outcome: AutoRejected, DecidedBy: ByRule, Reason: ReasonRule, Via: ViaRule, RuleID: "r2"}, true
	}
	for _, fail := range []bool{false, true} {
		j := &decidedJournal{memJournal: newMemJournal(), fail: fail}
		b := NewBroker(Config{Journal: j, Gate: gate})
		t.Cleanup(func() { _ = b.Close() })
		q, err := b.Ask(t.Context(), Question{Kind: KindApproval, Message: "Deploy", Action: "Deploy", Tool: "request_approval"})
		if err != nil || q.State != State(AutoRejected) {
			t.Fatalf("fail=%v: Ask = %+v, %v; want auto_rejected", fail, q.State, err)
		}
		want := []string{"begin+end:" + q.ID}
		if fail {
			want = []string{"begin:" + q.ID, "end:" + q.ID}
		}
		j.mu.Lock()
		order := slices.Clone(j.order)
		j.mu.Unlock()
		if !slices.Equal(order, want) {
			t.Errorf("fail=%v: journal calls %v, want %v", fail, order, want)
		}
		if got, _ := j.result(q.ID); got.RuleID != "r2" || got.DecidedAt.IsZero() {
			t.Errorf("fail=%v: journaled %+v", fail, got)
		}
	}
}
