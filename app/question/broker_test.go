package question

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// memJournal records what the Broker tells it, and can be made to fail.
type memJournal struct {
	mu      sync.Mutex
	began   map[string]Question
	ended   map[string]Result
	order   []string // "begin:<id>" and "end:<id>" in call order
	failEnd atomic.Bool
}

func newMemJournal() *memJournal {
	return &memJournal{began: map[string]Question{}, ended: map[string]Result{}}
}

func (j *memJournal) Begin(_ context.Context, q Question) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.began[q.ID] = q
	j.order = append(j.order, "begin:"+q.ID)
	return nil
}

func (j *memJournal) End(_ context.Context, q Question, r Result) error {
	if j.failEnd.Load() {
		return errors.New("disk full")
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, ok := j.ended[q.ID]; ok {
		return fmt.Errorf("ended twice: %s", q.ID)
	}
	j.ended[q.ID] = r
	j.order = append(j.order, "end:"+q.ID)
	return nil
}

func (j *memJournal) Lookup(_ context.Context, id string) (Question, *Result, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	q, ok := j.began[id]
	if !ok {
		return Question{}, nil, ErrNotFound
	}
	if r, ok := j.ended[id]; ok {
		return q, &r, nil
	}
	return q, nil, nil
}

func (j *memJournal) result(id string) (Result, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	r, ok := j.ended[id]
	return r, ok
}

func newTestBroker(t *testing.T) (*Broker, *memJournal) {
	t.Helper()
	j := newMemJournal()
	b := NewBroker(Config{Journal: j, RetryDelay: 10 * time.Millisecond})
	t.Cleanup(func() { _ = b.Close() })
	return b, j
}

func confirmQ() Question {
	return Question{Kind: KindConfirm, Client: Client{Name: "claude-code", Version: "2.1"}, Message: "Delete build/?"}
}

func ask(t *testing.T, b *Broker, q Question) Question {
	t.Helper()
	got, err := b.Ask(context.Background(), q)
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	return got
}

func waitResult(t *testing.T, b *Broker, id string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := b.Wait(ctx, id)
	if err != nil {
		t.Fatalf("Wait: %v", err)
	}
	return r
}

func TestBroker_EveryOutcome(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		act     func(b *Broker, id string) error
		outcome Outcome
		by      Decider
		reason  Reason
		value   string
	}{
		{"answered", func(b *Broker, id string) error {
			return b.Answer(id, Response{Action: Accept, Value: json.RawMessage(`true`), Via: ViaCLI})
		}, Answered, ByHuman, "", `"yes"`},
		{"declined", func(b *Broker, id string) error { return b.Answer(id, Response{Action: Decline, Note: "not now"}) }, Declined, ByHuman, "", ""},
		{"cancelled", func(b *Broker, id string) error { return b.Answer(id, Response{Action: Cancel}) }, Cancelled, ByHuman, "", ""},
		{"withdrawn", func(b *Broker, id string) error { return b.Withdraw(id) }, Withdrawn, ByAgent, "", ""},
		{"auto_rejected_rule", func(b *Broker, id string) error {
			return b.Decide(id, Result{Outcome: AutoRejected, DecidedBy: ByRule, Reason: ReasonRule, RuleID: "r1", Via: ViaRule})
		}, AutoRejected, ByRule, ReasonRule, ""},
		{"auto_approved_rule", func(b *Broker, id string) error {
			return b.Decide(id, Result{Outcome: AutoApproved, DecidedBy: ByRule, Reason: ReasonRule, RuleID: "r1", Via: ViaRule})
		}, AutoApproved, ByRule, ReasonRule, ""},
		{"auto_rejected_away", func(b *Broker, id string) error {
			return b.Decide(id, Result{Outcome: AutoRejected, DecidedBy: ByApp, Reason: ReasonAway})
		}, AutoRejected, ByApp, ReasonAway, ""},
		{"interrupted", func(b *Broker, _ string) error { return b.Close() }, Interrupted, ByApp, ReasonStopped, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, j := newTestBroker(t)
			q := ask(t, b, confirmQ())
			got := make(chan Result, 1)
			go func() { r, _ := b.Wait(context.Background(), q.ID); got <- r }()
			if err := tt.act(b, q.ID); err != nil {
				t.Fatalf("act: %v", err)
			}
			r := <-got
			if r.Outcome != tt.outcome || r.DecidedBy != tt.by || r.Reason != tt.reason || string(r.Value) != tt.value {
				t.Fatalf("result = %+v, want outcome %s by %s reason %q value %s", r, tt.outcome, tt.by, tt.reason, tt.value)
			}
			if jr, ok := j.result(q.ID); !ok || jr.Outcome != tt.outcome {
				t.Fatalf("journal has %+v (%v), want %s", jr, ok, tt.outcome)
			}
			if r.DecidedAt.IsZero() {
				t.Fatal("DecidedAt not set")
			}
		})
	}
}

func TestBroker_ExpiresAtDeadlineAsTimeout(t *testing.T) {
	t.Parallel()
	now := time.Now()
	var offset atomic.Int64
	j := newMemJournal()
	b := NewBroker(Config{Journal: j, Now: func() time.Time { return now.Add(time.Duration(offset.Load())) }})
	defer b.Close()
	q := confirmQ()
	q.Deadline = now.Add(MinTimeout)
	q = ask(t, b, q)
	if got := q.Deadline.Sub(q.Created); got != MinTimeout {
		t.Fatalf("deadline %v after creation, want %v", got, MinTimeout)
	}
	// Move the clock to the deadline and fire the timer early by re-arming.
	offset.Store(int64(MinTimeout))
	b.mu.Lock()
	b.armExpiry(b.pending[q.ID])
	b.mu.Unlock()
	r := waitResult(t, b, q.ID)
	if r.Outcome != AutoRejected || r.Reason != ReasonTimeout || r.DecidedBy != ByTimeout {
		t.Fatalf("got %+v, want auto_rejected by timeout", r)
	}
}

func TestBroker_DeadlineIsClamped(t *testing.T) {
	t.Parallel()
	b, _ := newTestBroker(t)
	for _, tc := range []struct {
		in, want time.Duration
	}{{0, DefaultTimeout}, {time.Second, MinTimeout}, {48 * time.Hour, MaxTimeout}, {time.Minute, time.Minute}} {
		q := confirmQ()
		if tc.in != 0 {
			q.Deadline = time.Now().Add(tc.in)
		}
		q = ask(t, b, q)
		got := q.Deadline.Sub(q.Created)
		if d := got - tc.want; d < -time.Second || d > time.Second {
			t.Errorf("timeout %v: deadline %v after creation, want %v", tc.in, got, tc.want)
		}
	}
}

func TestBroker_AnswerExactlyOnce(t *testing.T) {
	t.Parallel()
	b, _ := newTestBroker(t)
	q := ask(t, b, confirmQ())
	if err := b.Answer(q.ID, Response{Action: Accept, Value: json.RawMessage(`"no"`)}); err != nil {
		t.Fatal(err)
	}
	err := b.Answer(q.ID, Response{Action: Accept, Value: json.RawMessage(`"yes"`)})
	if !errors.Is(err, ErrNotPending) {
		t.Fatalf("second answer: %v, want ErrNotPending", err)
	}
	if err := b.Withdraw(q.ID); !errors.Is(err, ErrNotPending) {
		t.Fatalf("withdraw after answer: %v, want ErrNotPending", err)
	}
	if r := waitResult(t, b, q.ID); string(r.Value) != `"no"` {
		t.Fatalf("value %s, want the first answer", r.Value)
	}
	if err := b.Answer("nope", Response{Action: Cancel}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown id: %v, want ErrNotFound", err)
	}
}

func TestBroker_BadAnswerKeepsQuestionPending(t *testing.T) {
	t.Parallel()
	b, _ := newTestBroker(t)
	q := ask(t, b, confirmQ())
	err := b.Answer(q.ID, Response{Action: Accept, Value: json.RawMessage(`"maybe"`)})
	var fe *FieldError
	if !errors.Is(err, ErrInvalid) || !errors.As(err, &fe) || fe.Field != "value" {
		t.Fatalf("got %v, want an invalid value error", err)
	}
	if len(b.Pending()) != 1 {
		t.Fatal("question no longer pending after a refused answer")
	}
}

func TestBroker_JournalFailureKeepsQuestionPending(t *testing.T) {
	t.Parallel()
	b, j := newTestBroker(t)
	q := ask(t, b, confirmQ())
	j.failEnd.Store(true)
	if err := b.Answer(q.ID, Response{Action: Cancel}); err == nil {
		t.Fatal("answer succeeded although the journal failed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := b.Wait(ctx, q.ID); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiter learned an outcome that was not recorded: %v", err)
	}
	j.failEnd.Store(false)
	if err := b.Answer(q.ID, Response{Action: Cancel}); err != nil {
		t.Fatalf("answer after recovery: %v", err)
	}
}

func TestBroker_OutcomeCommittedBeforeWaiterWakes(t *testing.T) {
	t.Parallel()
	b, j := newTestBroker(t)
	q := ask(t, b, confirmQ())
	j.mu.Lock()
	if len(j.order) != 1 || j.order[0] != "begin:"+q.ID {
		t.Fatalf("journal order %v: pending row must be committed by Ask", j.order)
	}
	j.mu.Unlock()
	done := make(chan bool)
	go func() {
		waitResult(t, b, q.ID)
		_, ok := j.result(q.ID)
		done <- ok
	}()
	if err := b.Answer(q.ID, Response{Action: Decline}); err != nil {
		t.Fatal(err)
	}
	if !<-done {
		t.Fatal("waiter woke before the outcome was in the journal")
	}
}

func TestBroker_WaiterLeavingDoesNotEndQuestion(t *testing.T) {
	t.Parallel()
	b, _ := newTestBroker(t)
	q := ask(t, b, confirmQ())
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error)
	go func() { _, err := b.Wait(ctx, q.ID); errc <- err }()
	for b.Waiters(q.ID) != 1 {
		runtime.Gosched()
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait: %v, want context.Canceled", err)
	}
	if len(b.Pending()) != 1 || b.Waiters(q.ID) != 0 {
		t.Fatalf("pending %d waiters %d, want 1 and 0", len(b.Pending()), b.Waiters(q.ID))
	}
	// The answer given after the waiter left is kept and returned later.
	if err := b.Answer(q.ID, Response{Action: Accept, Value: json.RawMessage(`"yes"`)}); err != nil {
		t.Fatal(err)
	}
	if r := waitResult(t, b, q.ID); r.Outcome != Answered || string(r.Value) != `"yes"` {
		t.Fatalf("late answer %+v", r)
	}
}

func TestBroker_FinishedOutcomeFromJournal(t *testing.T) {
	t.Parallel()
	j := newMemJournal()
	b := NewBroker(Config{Journal: j, KeepFinished: 1})
	defer b.Close()
	first := ask(t, b, confirmQ())
	second := ask(t, b, confirmQ())
	for _, id := range []string{first.ID, second.ID} {
		if err := b.Answer(id, Response{Action: Decline}); err != nil {
			t.Fatal(err)
		}
	}
	// first fell out of memory; it must come from the journal.
	q, r, err := b.Get(first.ID)
	if err != nil || r == nil || r.Outcome != Declined || q.ID != first.ID {
		t.Fatalf("Get = %v %+v %v", q.ID, r, err)
	}
	if r := waitResult(t, b, first.ID); r.Outcome != Declined {
		t.Fatalf("Wait = %+v", r)
	}
	if err := b.Answer(first.ID, Response{Action: Cancel}); !errors.Is(err, ErrNotPending) {
		t.Fatalf("answer to old question: %v, want ErrNotPending", err)
	}
	if _, _, err := b.Get("missing"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get missing: %v", err)
	}
}

func TestBroker_SnoozeAndResurface(t *testing.T) {
	t.Parallel()
	b, _ := newTestBroker(t)
	events := make(chan Event, 16)
	defer b.Subscribe(func(e Event) { events <- e })()
	q := confirmQ()
	q.Deadline = time.Now().Add(MinTimeout)
	q = ask(t, b, q)
	until := time.Now().Add(50 * time.Millisecond)
	if err := b.Snooze(q.ID, until); err != nil {
		t.Fatal(err)
	}
	var seen []EventType
	for len(seen) < 3 {
		select {
		case e := <-events:
			seen = append(seen, e.Type)
			if e.Type == EventSnoozed && !e.Question.SnoozeUntil.Equal(until) {
				t.Fatalf("snoozed event has SnoozeUntil %v", e.Question.SnoozeUntil)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("events %v, want asked, snoozed, resurfaced", seen)
		}
	}
	if seen[0] != EventAsked || seen[1] != EventSnoozed || seen[2] != EventResurfaced {
		t.Fatalf("events %v", seen)
	}
	if got := b.Pending(); len(got) != 1 || !got[0].SnoozeUntil.IsZero() {
		t.Fatalf("after resurfacing: %+v", got)
	}
	if err := b.Snooze(q.ID, time.Now().Add(-time.Second)); !errors.Is(err, ErrInvalid) {
		t.Fatalf("snooze into the past: %v", err)
	}
}

func TestBroker_SnoozePastDeadlineMovesDeadline(t *testing.T) {
	t.Parallel()
	b, _ := newTestBroker(t)
	q := confirmQ()
	q.Deadline = time.Now().Add(time.Minute)
	q = ask(t, b, q)
	until := time.Now().Add(time.Hour)
	if err := b.Snooze(q.ID, until); err != nil {
		t.Fatal(err)
	}
	got := b.Pending()[0]
	if want := until.Add(q.Deadline.Sub(q.Created)); !got.Deadline.Equal(want) {
		t.Fatalf("deadline %v, want %v", got.Deadline, want)
	}
}

func TestBroker_ConcurrentAskAnswerWithdrawExpire(t *testing.T) {
	t.Parallel()
	b, j := newTestBroker(t)
	const n = 200
	var wg sync.WaitGroup
	results := make([]Result, n)
	ids := make([]string, n)
	for i := range n {
		wg.Go(func() {
			q := confirmQ()
			q.Message = fmt.Sprintf("question %d", i)
			q, err := b.Ask(context.Background(), q)
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = q.ID
			// Several deciders race for each question; exactly one wins.
			var dwg sync.WaitGroup
			var wins atomic.Int32
			for k := range 4 {
				dwg.Go(func() {
					var err error
					switch k {
					case 0:
						err = b.Answer(q.ID, Response{Action: Accept, Value: json.RawMessage(`"yes"`)})
					case 1:
						err = b.Withdraw(q.ID)
					case 2:
						err = b.Answer(q.ID, Response{Action: Decline})
					case 3:
						err = b.Decide(q.ID, Result{Outcome: AutoRejected, DecidedBy: ByTimeout, Reason: ReasonTimeout})
					}
					if err == nil {
						wins.Add(1)
					} else if !errors.Is(err, ErrNotPending) {
						t.Error(err)
					}
				})
			}
			r, err := b.Wait(context.Background(), q.ID)
			dwg.Wait()
			if err != nil {
				t.Error(err)
			}
			if wins.Load() != 1 {
				t.Errorf("question %d: %d winners", i, wins.Load())
			}
			results[i] = r
		})
	}
	wg.Wait()
	for i, id := range ids {
		jr, ok := j.result(id)
		if !ok || jr.Outcome != results[i].Outcome {
			t.Fatalf("question %d: journal %+v, waiter %+v", i, jr, results[i])
		}
	}
	if len(b.Pending()) != 0 {
		t.Fatalf("%d still pending", len(b.Pending()))
	}
}

func TestBroker_SubscribersNotCalledUnderLock(t *testing.T) {
	t.Parallel()
	b, _ := newTestBroker(t)
	got := make(chan int, 8)
	defer b.Subscribe(func(e Event) {
		// Calling back into the Broker would deadlock if we held its lock.
		got <- len(b.Pending())
	})()
	q := ask(t, b, confirmQ())
	if n := <-got; n != 1 {
		t.Fatalf("pending during asked event = %d", n)
	}
	_ = b.Withdraw(q.ID)
	if n := <-got; n != 0 {
		t.Fatalf("pending during ended event = %d", n)
	}
}

func TestBroker_CloseInterruptsAndRefuses(t *testing.T) {
	t.Parallel()
	j := newMemJournal()
	b := NewBroker(Config{Journal: j})
	q := ask(t, b, confirmQ())
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if r, _ := j.result(q.ID); r.Outcome != Interrupted || r.DecidedBy != ByApp {
		t.Fatalf("after Close: %+v", r)
	}
	if _, err := b.Ask(context.Background(), confirmQ()); !errors.Is(err, ErrClosed) {
		t.Fatalf("Ask after Close: %v", err)
	}
	if err := b.Answer(q.ID, Response{Action: Cancel}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Answer after Close: %v", err)
	}
}

func TestBroker_NoGoroutineLeakAfterClose(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 20 {
		b := NewBroker(Config{})
		q, _ := b.Ask(context.Background(), confirmQ())
		ctx, cancel := context.WithCancel(context.Background())
		go func() { _, _ = b.Wait(ctx, q.ID) }()
		_ = b.Close()
		cancel()
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Fatalf("goroutines: %d before, %d after", before, after)
	}
}

func TestBroker_AskRejectsInvalid(t *testing.T) {
	t.Parallel()
	b, j := newTestBroker(t)
	_, err := b.Ask(context.Background(), Question{Kind: KindConfirm})
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("got %v", err)
	}
	if len(j.began) != 0 || len(b.Pending()) != 0 {
		t.Fatal("an invalid question was recorded")
	}
}

func TestNewIDNeverLooksLikeAFlag(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 20000 {
		id := NewID()
		if len(id) != 22 || id[0] == '-' || id[0] == '_' || seen[id] {
			t.Fatalf("bad id %q", id)
		}
		seen[id] = true
	}
}
