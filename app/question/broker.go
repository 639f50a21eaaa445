package question

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// EventType says what happened to a question.
type EventType int

// The events a Broker emits.
const (
	EventAsked      EventType = iota + 1 // a new question is pending
	EventSnoozed                         // the person put it off until Question.SnoozeUntil
	EventResurfaced                      // its snooze ran out; it wants attention again
	EventWaiters                         // the number of agents waiting on it changed
	EventEnded                           // it ended; Result says how
	EventAnnotated                       // it had ended; Result.Afterwards now says what was learnt since
)

func (t EventType) String() string {
	switch t {
	case EventAsked:
		return "asked"
	case EventSnoozed:
		return "snoozed"
	case EventResurfaced:
		return "resurfaced"
	case EventWaiters:
		return "waiters"
	case EventEnded:
		return "ended"
	case EventAnnotated:
		return "annotated"
	}
	return fmt.Sprintf("EventType(%d)", int(t))
}

// Event tells subscribers about a change. Question is a copy taken when the
// event happened; Result is set for EventEnded and EventAnnotated; Waiters for EventWaiters.
type Event struct {
	Type     EventType
	Question Question
	Result   *Result
	Waiters  int
}

// DefaultKeepFinished is how many ended questions a Broker keeps in
// memory for Wait and Get when Config.KeepFinished is 0.
const DefaultKeepFinished = 4096

// Config configures a Broker. The zero value is usable: no journal, real time.
type Config struct {
	Journal      Journal          // where questions and outcomes are made durable; nil keeps nothing
	Now          func() time.Time // the clock; nil means time.Now
	KeepFinished int              // how many ended questions to keep in memory for Wait and Get; 0 means DefaultKeepFinished
	RetryDelay   time.Duration    // how long to wait before retrying a failed automatic outcome; 0 means 1 s

	// Gate, if set, may decide a question before anyone is told of it: Ask
	// calls it after validation and id assignment, on Ask's goroutine and
	// never under the Broker's lock. When it returns true the question ends
	// at once with its Result, which must be AutoApproved or AutoRejected and
	// not decided by ByHuman (any other result is ignored and the question
	// goes to the person). A rule engine (app/policy) sets it.
	Gate func(q Question) (Result, bool)
}

// Broker owns the pending questions. It is safe for concurrent use by any
// goroutine. Methods never call the Journal or subscribers while holding the
// Broker's lock.
type Broker struct {
	cfg Config

	mu       sync.Mutex
	closed   bool
	pending  map[string]*entry
	finished map[string]*entry
	order    []string // ids of finished entries, oldest first
	subs     map[int]func(Event)
	nextSub  int
	sessions map[string]time.Time // sessionKey: when first seen asking (session.go)

	events *eventQueue
}

type entry struct {
	q        Question
	res      Result
	done     chan struct{}
	deciding bool
	waiters  int
	expire   *time.Timer
	wake     *time.Timer
}

// NewBroker returns a running Broker. Call Close to stop it.
func NewBroker(cfg Config) *Broker {
	if cfg.Journal == nil {
		cfg.Journal = nopJournal{}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.KeepFinished <= 0 {
		cfg.KeepFinished = DefaultKeepFinished
	}
	if cfg.RetryDelay <= 0 {
		cfg.RetryDelay = time.Second
	}
	b := &Broker{
		cfg:      cfg,
		pending:  make(map[string]*entry),
		finished: make(map[string]*entry),
		subs:     make(map[int]func(Event)),
	}
	b.events = newEventQueue(b.deliver)
	return b
}

// Ask validates q, gives it a fresh id, its created time and a deadline (q.Deadline
// if set, else now plus DefaultTimeout, held within MinTimeout..MaxTimeout of
// now), records it in the Journal and makes it pending. It returns the stored
// question at once, without waiting for an answer; use Wait for that. When
// Config.Gate decides the question, it is recorded as ended at once, no
// EventAsked is emitted, and the returned question's State is the outcome.
// It blocks until the Journal has made the record durable. Errors from
// validation wrap ErrInvalid.
func (b *Broker) Ask(ctx context.Context, q Question) (Question, error) {
	return b.ask(ctx, q, b.cfg.Gate)
}

// AskGated is Ask with the gate's decision about q already made, res and
// decided as Config.Gate would return them, by a caller that needed it
// first (an agent hook reads away mode's hold from the same match of the
// rules); Config.Gate is not called. It blocks as Ask does.
func (b *Broker) AskGated(ctx context.Context, q Question, res Result, decided bool) (Question, error) {
	return b.ask(ctx, q, func(Question) (Result, bool) { return res, decided })
}

// ask is Ask with gate in place of Config.Gate (nil for none).
func (b *Broker) ask(ctx context.Context, q Question, gate func(Question) (Result, bool)) (Question, error) {
	if err := q.Validate(); err != nil {
		return Question{}, err
	}
	now := b.cfg.Now()
	q.ID = NewID()
	q.Created = now
	timeout := DefaultTimeout
	if !q.Deadline.IsZero() {
		timeout = q.Deadline.Sub(now)
		if timeout <= 0 {
			timeout = MinTimeout
		}
	}
	q.Deadline = now.Add(ClampTimeout(timeout))
	q.SnoozeUntil = time.Time{}
	q.State = StatePending
	q.Options = slices.Clone(q.Options)

	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return Question{}, ErrClosed
	}
	res, gated := gateOf(gate, q)
	if gated {
		if ended, ok := b.recordDecided(ctx, q, res); ok {
			return ended, nil
		}
	}
	if err := b.cfg.Journal.Begin(ctx, q); err != nil {
		return Question{}, fmt.Errorf("record question: %w", err)
	}
	if gated {
		if ended, ok := b.endGated(q, res); ok {
			return ended, nil
		}
	}

	e := &entry{q: q, done: make(chan struct{})}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		res := Result{Outcome: Interrupted, DecidedBy: ByApp, Reason: ReasonStopped, DecidedAt: b.cfg.Now()}
		_ = b.cfg.Journal.End(context.Background(), q, res) // best effort: the store marks leftovers interrupted on the next start anyway
		return Question{}, ErrClosed
	}
	b.pending[q.ID] = e
	b.noteSession(q)
	b.armExpiry(e)
	b.mu.Unlock()
	b.events.push(Event{Type: EventAsked, Question: q})
	return q, nil
}

// gateOf asks gate about q and reports whether it decided q with an
// automatic result.
func gateOf(gate func(Question) (Result, bool), q Question) (Result, bool) {
	if gate == nil {
		return Result{}, false
	}
	res, ok := gate(q)
	if !ok || (res.Outcome != AutoApproved && res.Outcome != AutoRejected) || res.DecidedBy == ByHuman || res.DecidedBy == "" {
		return Result{}, false
	}
	return res, true
}

// recordDecided records q together with its gate result res in one commit
// when the Journal is a DecidedJournal, then finishes it as endGated does. It
// reports false, changing nothing, when the Journal cannot do that or fails;
// Ask then falls back to Begin and End.
func (b *Broker) recordDecided(ctx context.Context, q Question, res Result) (Question, bool) {
	dj, ok := b.cfg.Journal.(DecidedJournal)
	if !ok {
		return q, false
	}
	res.DecidedAt = b.cfg.Now()
	if err := dj.BeginEnded(ctx, q, res); err != nil {
		return q, false
	}
	return b.finishGated(q, res), true
}

// endGated records q's gate result res and finishes it: End, then EventEnded
// and no EventAsked, so nobody is ever shown q. Wait and Get find it among the
// finished questions. It reports false, changing nothing, when the Journal
// fails; the question then goes to the person as usual.
func (b *Broker) endGated(q Question, res Result) (Question, bool) {
	res.DecidedAt = b.cfg.Now()
	if err := b.cfg.Journal.End(context.Background(), q, res); err != nil {
		return q, false
	}
	return b.finishGated(q, res), true
}

// finishGated moves the recorded, gate-decided q to the finished questions
// and emits EventEnded (and no EventAsked).
func (b *Broker) finishGated(q Question, res Result) Question {
	e := &entry{q: q, done: make(chan struct{})}
	b.mu.Lock()
	b.finish(e, res)
	q = e.q
	b.mu.Unlock()
	b.events.push(Event{Type: EventEnded, Question: q, Result: &res})
	return q
}

// armExpiry starts the deadline timer of e. The caller holds b.mu.
func (b *Broker) armExpiry(e *entry) {
	if e.expire != nil {
		e.expire.Stop()
	}
	id := e.q.ID
	d := e.q.Deadline.Sub(b.cfg.Now())
	e.expire = time.AfterFunc(max(d, 0), func() { b.expire(id) })
}

func (b *Broker) expire(id string) {
	b.mu.Lock()
	e, ok := b.pending[id]
	if !ok || b.closed {
		b.mu.Unlock()
		return
	}
	if now := b.cfg.Now(); now.Before(e.q.Deadline) { // moved by a snooze meanwhile
		b.armExpiry(e)
		b.mu.Unlock()
		return
	}
	b.mu.Unlock()
	res := Result{Outcome: AutoRejected, DecidedBy: ByTimeout, Reason: ReasonTimeout}
	if err := b.decide(id, func(*Question) (Result, error) { return res, nil }); err != nil && !isNotPending(err) {
		// The journal failed; try again shortly rather than leave it pending forever.
		b.mu.Lock()
		if e, ok := b.pending[id]; ok && !b.closed {
			e.expire = time.AfterFunc(b.cfg.RetryDelay, func() { b.expire(id) })
		}
		b.mu.Unlock()
	}
}

// Answer records the person's response r to the pending question id and wakes
// every waiter. Accept becomes Answered, Decline Declined and Cancel
// Cancelled, all decided by ByHuman; r.RuleID and r.RuleScope (a rule made
// with the answer) are kept in the result. A response that does not fit the
// question is refused with an error wrapping ErrInvalid and the question stays
// pending; a question that already ended gives an error wrapping ErrNotPending.
// It blocks until the outcome is durable.
func (b *Broker) Answer(id string, r Response) error {
	return b.decide(id, func(q *Question) (Result, error) {
		r, err := q.CheckResponse(r)
		if err != nil {
			return Result{}, err
		}
		out := map[Action]Outcome{Accept: Answered, Decline: Declined, Cancel: Cancelled}[r.Action]
		return Result{Outcome: out, DecidedBy: ByHuman, Via: r.Via, Value: r.Value, Note: r.Note, RuleID: r.RuleID, RuleScope: r.RuleScope}, nil
	})
}

// Withdraw ends the pending question id as Withdrawn, decided by ByAgent: the
// agent that asked no longer wants an answer. It blocks until the outcome is durable.
func (b *Broker) Withdraw(id string) error {
	return b.WithdrawBecause(id, "")
}

// WithdrawBecause is Withdraw with a reason in the result, e.g.
// ReasonAnsweredInAgent or ReasonTimeout (the asker stopped waiting). It
// blocks until the outcome is durable.
func (b *Broker) WithdrawBecause(id string, why Reason) error {
	return b.decide(id, func(*Question) (Result, error) {
		return Result{Outcome: Withdrawn, DecidedBy: ByAgent, Reason: why}, nil
	})
}

// Decide ends the pending question id with an automatic result r (a rule's or
// the app's). r.Outcome must be AutoApproved, AutoRejected or Interrupted, and
// r.DecidedBy must not be ByHuman. It blocks until the outcome is durable.
func (b *Broker) Decide(id string, r Result) error {
	switch {
	case r.Outcome != AutoApproved && r.Outcome != AutoRejected && r.Outcome != Interrupted:
		return invalid(fieldErr("outcome", "%q is not an automatic outcome", r.Outcome))
	case r.DecidedBy == ByHuman || r.DecidedBy == "":
		return invalid(fieldErr("decided_by", "%q cannot make an automatic decision", r.DecidedBy))
	}
	return b.decide(id, func(*Question) (Result, error) { return r, nil })
}

// decide ends pending question id with the result that mk returns.
func (b *Broker) decide(id string, mk func(*Question) (Result, error)) error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return ErrClosed
	}
	e, ok := b.pending[id]
	if !ok {
		_, done := b.finished[id]
		b.mu.Unlock()
		if done {
			return fmt.Errorf("question %s: %w", id, ErrNotPending)
		}
		if _, res, err := b.lookup(id); err == nil && res != nil {
			return fmt.Errorf("question %s: %w", id, ErrNotPending)
		}
		return fmt.Errorf("question %s: %w", id, ErrNotFound)
	}
	if e.deciding {
		b.mu.Unlock()
		return fmt.Errorf("question %s is being decided: %w", id, ErrNotPending)
	}
	q := e.q
	res, err := mk(&q)
	if err != nil {
		b.mu.Unlock()
		return err
	}
	res.DecidedAt = b.cfg.Now()
	e.deciding = true
	b.mu.Unlock()

	if err := b.cfg.Journal.End(context.Background(), q, res); err != nil {
		b.mu.Lock()
		e.deciding = false
		b.mu.Unlock()
		return fmt.Errorf("record outcome of %s: %w", id, err)
	}

	b.mu.Lock()
	b.finish(e, res)
	q = e.q
	b.mu.Unlock()
	b.events.push(Event{Type: EventEnded, Question: q, Result: &res})
	return nil
}

// finish moves e from pending to finished. The caller holds b.mu.
func (b *Broker) finish(e *entry, res Result) {
	for _, t := range []*time.Timer{e.expire, e.wake} {
		if t != nil {
			t.Stop()
		}
	}
	e.res = res
	e.q.State = State(res.Outcome)
	e.q.SnoozeUntil = time.Time{}
	delete(b.pending, e.q.ID)
	b.finished[e.q.ID] = e
	b.order = append(b.order, e.q.ID)
	for len(b.order) > b.cfg.KeepFinished {
		delete(b.finished, b.order[0])
		b.order = b.order[1:]
	}
	close(e.done)
}

func isNotPending(err error) bool {
	return err != nil && (errors.Is(err, ErrNotPending) || errors.Is(err, ErrNotFound) || errors.Is(err, ErrClosed))
}
