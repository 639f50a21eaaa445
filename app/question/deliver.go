package question

import "fmt"

// SetDeliverTo changes where pending question id is being asked (see
// Question.DeliverTo; "" means the desktop, the page and the CLI). When the
// question is not snoozed, subscribers get EventResurfaced with the changed
// question, so a UI that held it back shows it now. It does not block on
// the Journal; any goroutine may call it. A question that ended, or is being
// decided, gives an error wrapping ErrNotPending.
func (b *Broker) SetDeliverTo(id, to string) error {
	b.mu.Lock()
	e, ok := b.pending[id]
	switch {
	case b.closed:
		b.mu.Unlock()
		return ErrClosed
	case !ok || e.deciding:
		b.mu.Unlock()
		return fmt.Errorf("question %s: %w", id, ErrNotPending)
	case e.q.DeliverTo == to:
		b.mu.Unlock()
		return nil
	}
	e.q.DeliverTo = to
	q := e.q
	snoozed := q.SnoozeUntil.After(b.cfg.Now())
	b.mu.Unlock()
	if !snoozed {
		b.events.push(Event{Type: EventResurfaced, Question: q})
	}
	return nil
}
