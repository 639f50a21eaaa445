package question

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Wait blocks until question id ends or ctx is done, and returns its result.
// Any number of goroutines may wait on one question; a waiter that gives up
// (ctx done) does not end the question. A question that already ended returns
// its result at once, from memory or from the Journal when it implements
// Lookup. An unknown id gives an error wrapping ErrNotFound; a done ctx gives
// ctx.Err().
func (b *Broker) Wait(ctx context.Context, id string) (Result, error) {
	b.mu.Lock()
	e, ok := b.pending[id]
	if !ok {
		if f, done := b.finished[id]; done {
			b.mu.Unlock()
			return f.res, nil
		}
		b.mu.Unlock()
		_, res, err := b.lookup(id)
		switch {
		case err != nil:
			return Result{}, err
		case res == nil:
			// Pending in the store but unknown here: left by another process.
			return Result{}, fmt.Errorf("question %s: %w", id, ErrNotFound)
		}
		return *res, nil
	}
	b.addWaiters(e, 1)
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		b.addWaiters(e, -1)
		b.mu.Unlock()
	}()

	select {
	case <-e.done:
		b.mu.Lock() // Annotate may change it since
		r := e.res
		b.mu.Unlock()
		return r, nil
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
}

// addWaiters changes e's waiter count and tells subscribers. The caller holds b.mu.
func (b *Broker) addWaiters(e *entry, d int) {
	e.waiters += d
	select {
	case <-e.done:
		return // ended: nobody needs to know who still waited
	default:
	}
	b.events.push(Event{Type: EventWaiters, Question: e.q, Waiters: e.waiters})
}

// Snooze hides pending question id until until, then emits EventResurfaced.
// When the question would expire while snoozed, its deadline moves to until
// plus its original timeout, so the person gets a full window after it comes
// back. until must be in the future and at most MaxTimeout away.
func (b *Broker) Snooze(id string, until time.Time) error {
	now := b.cfg.Now()
	if !until.After(now) {
		return invalid(fieldErr("until", "must be in the future"))
	}
	if until.Sub(now) > MaxTimeout {
		return invalid(fieldErr("until", "at most %s away", MaxTimeout))
	}
	b.mu.Lock()
	e, ok := b.pending[id]
	switch {
	case b.closed:
		b.mu.Unlock()
		return ErrClosed
	case !ok:
		b.mu.Unlock()
		return fmt.Errorf("question %s: %w", id, ErrNotPending)
	}
	e.q.SnoozeUntil = until
	if e.q.Deadline.Before(until) {
		e.q.Deadline = until.Add(e.q.Deadline.Sub(e.q.Created))
		b.armExpiry(e)
	}
	if e.wake != nil {
		e.wake.Stop()
	}
	e.wake = time.AfterFunc(until.Sub(now), func() { b.resurface(id, until) })
	q := e.q
	b.mu.Unlock()
	b.events.push(Event{Type: EventSnoozed, Question: q})
	return nil
}

func (b *Broker) resurface(id string, until time.Time) {
	b.mu.Lock()
	e, ok := b.pending[id]
	if !ok || b.closed || !e.q.SnoozeUntil.Equal(until) {
		b.mu.Unlock()
		return
	}
	e.q.SnoozeUntil = time.Time{}
	q := e.q
	b.mu.Unlock()
	b.events.push(Event{Type: EventResurfaced, Question: q})
}

// Pending returns copies of the pending questions, oldest first.
func (b *Broker) Pending() []Question {
	b.mu.Lock()
	out := make([]Question, 0, len(b.pending))
	for _, e := range b.pending {
		out = append(out, e.q)
	}
	b.mu.Unlock()
	slices.SortFunc(out, func(a, c Question) int {
		return cmp.Or(a.Created.Compare(c.Created), cmp.Compare(a.ID, c.ID))
	})
	return out
}

// Get returns question id and, when it ended, its result. It looks in memory
// first, then in the Journal when it implements Lookup. An unknown id gives an
// error wrapping ErrNotFound.
func (b *Broker) Get(id string) (Question, *Result, error) {
	b.mu.Lock()
	if e, ok := b.pending[id]; ok {
		q := e.q
		b.mu.Unlock()
		return q, nil, nil
	}
	if e, ok := b.finished[id]; ok {
		q, r := e.q, e.res
		b.mu.Unlock()
		return q, &r, nil
	}
	b.mu.Unlock()
	return b.lookup(id)
}

// Waiters returns how many goroutines wait on pending question id.
func (b *Broker) Waiters(id string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if e, ok := b.pending[id]; ok {
		return e.waiters
	}
	return 0
}

func (b *Broker) lookup(id string) (Question, *Result, error) {
	if l, ok := b.cfg.Journal.(Lookup); ok {
		q, r, err := l.Lookup(context.Background(), id)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return Question{}, nil, fmt.Errorf("look up question %s: %w", id, err)
		}
		if err == nil {
			return q, r, nil
		}
	}
	return Question{}, nil, fmt.Errorf("question %s: %w", id, ErrNotFound)
}

// Subscribe registers fn to be told of every event from now on, and returns
// a function that unregisters it. fn runs on the Broker's event goroutine, one
// event at a time and in order, never under the Broker's lock; it must not
// block. fn may still run once after cancel returns if an event was already
// being delivered.
func (b *Broker) Subscribe(fn func(Event)) (cancel func()) {
	b.mu.Lock()
	id := b.nextSub
	b.nextSub++
	b.subs[id] = fn
	b.mu.Unlock()
	return func() {
		b.mu.Lock()
		delete(b.subs, id)
		b.mu.Unlock()
	}
}

func (b *Broker) deliver(ev Event) {
	b.mu.Lock()
	keys := make([]int, 0, len(b.subs))
	for k := range b.subs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	fns := make([]func(Event), 0, len(keys))
	for _, k := range keys {
		fns = append(fns, b.subs[k])
	}
	b.mu.Unlock()
	for _, fn := range fns {
		fn(ev)
	}
}

// Close ends every pending question as Interrupted (decided by ByApp),
// wakes all waiters, delivers the remaining events and stops the event
// goroutine. Later calls of Ask, Answer, Withdraw, Snooze and Decide return
// ErrClosed. It blocks until done and is safe to call more than once.
func (b *Broker) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		b.events.wait()
		return nil
	}
	b.closed = true
	var open []*entry
	for _, e := range b.pending {
		if !e.deciding {
			open = append(open, e)
		}
	}
	b.mu.Unlock()

	var errs []error
	for _, e := range open {
		res := Result{Outcome: Interrupted, DecidedBy: ByApp, Reason: ReasonStopped, DecidedAt: b.cfg.Now()}
		if err := b.cfg.Journal.End(context.Background(), e.q, res); err != nil {
			errs = append(errs, fmt.Errorf("record interruption of %s: %w", e.q.ID, err))
		}
		b.mu.Lock()
		b.finish(e, res)
		q := e.q
		b.mu.Unlock()
		b.events.push(Event{Type: EventEnded, Question: q, Result: &res})
	}
	// Entries being decided by another goroutine finish on their own.
	b.events.close()
	b.events.wait()
	return errors.Join(errs...)
}

// eventQueue delivers events in order on one goroutine, with no bound, so
// that emitting never blocks the Broker.
type eventQueue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	items   []Event
	closed  bool
	stopped chan struct{}
}

func newEventQueue(deliver func(Event)) *eventQueue {
	q := &eventQueue{stopped: make(chan struct{})}
	q.cond = sync.NewCond(&q.mu)
	go q.run(deliver)
	return q
}

func (q *eventQueue) push(ev Event) {
	q.mu.Lock()
	q.items = append(q.items, ev)
	q.mu.Unlock()
	q.cond.Signal()
}

func (q *eventQueue) run(deliver func(Event)) {
	defer close(q.stopped)
	for {
		q.mu.Lock()
		for len(q.items) == 0 && !q.closed {
			q.cond.Wait()
		}
		if len(q.items) == 0 {
			q.mu.Unlock()
			return
		}
		batch := q.items
		q.items = nil
		q.mu.Unlock()
		for _, ev := range batch {
			deliver(ev)
		}
	}
}

// close lets the goroutine finish once the queue is drained.
func (q *eventQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

func (q *eventQueue) wait() { <-q.stopped }
