package question

import (
	"context"
	"fmt"
)

// Annotate records what was learnt of the ended question id afterwards:
// its result's Afterwards becomes after (e.g. ReasonAgentProceeded), in the
// Journal when it is an Annotator and in the result Wait and Get return,
// and subscribers get EventAnnotated. The outcome itself stays. It fails,
// wrapping ErrStillPending, while id is pending, and wrapping ErrNotFound
// for an unknown id. It blocks until the change is durable; any goroutine
// may call it.
func (b *Broker) Annotate(id string, after Reason) error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return ErrClosed
	}
	if _, ok := b.pending[id]; ok {
		b.mu.Unlock()
		return fmt.Errorf("annotate question %s: %w", id, ErrStillPending)
	}
	e, held := b.finished[id]
	var q Question
	var res Result
	if held {
		q, res = e.q, e.res
	}
	b.mu.Unlock()
	if !held {
		lq, lr, err := b.lookup(id)
		if err != nil {
			return fmt.Errorf("annotate: %w", err)
		}
		if lr == nil {
			return fmt.Errorf("annotate question %s: %w", id, ErrStillPending)
		}
		q, res = lq, *lr
	}
	if a, ok := b.cfg.Journal.(Annotator); ok {
		if err := a.Annotate(context.Background(), id, after); err != nil {
			return fmt.Errorf("record what was learnt of %s: %w", id, err)
		}
	}
	res.Afterwards = after
	if held {
		b.mu.Lock()
		if e, ok := b.finished[id]; ok {
			e.res.Afterwards = after
		}
		b.mu.Unlock()
	}
	b.events.push(Event{Type: EventAnnotated, Question: q, Result: &res})
	return nil
}
