package question

import (
	"context"
	"errors"
	"fmt"
)

// Record keeps q, which ended with res before anyone was asked (an agent's
// own check blocked what q describes), in the Journal: it is validated,
// given an id and its created time, recorded as ended at once, and
// subscribers get EventEnded and no EventAsked, as for a question the Gate
// decided. res must be an automatic outcome (AutoApproved or AutoRejected)
// not decided by the person. It returns the stored question. It blocks
// until the Journal has made the record durable; any goroutine may call it.
func (b *Broker) Record(ctx context.Context, q Question, res Result) (Question, error) {
	if res.DecidedBy == ByHuman || (res.Outcome != AutoApproved && res.Outcome != AutoRejected) {
		return Question{}, fmt.Errorf("record question: outcome %q decided by %q: %w", res.Outcome, res.DecidedBy, ErrInvalid)
	}
	if err := q.Validate(); err != nil {
		return Question{}, err
	}
	now := b.cfg.Now()
	q.ID, q.Created, q.Deadline, q.State = NewID(), now, now.Add(MinTimeout), StatePending
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return Question{}, ErrClosed
	}
	if ended, ok := b.recordDecided(ctx, q, res); ok {
		return ended, nil
	}
	if err := b.cfg.Journal.Begin(ctx, q); err != nil {
		return Question{}, fmt.Errorf("record question: %w", err)
	}
	if ended, ok := b.endGated(q, res); ok {
		return ended, nil
	}
	return Question{}, errors.New("record question: the journal could not record its end")
}
