package question

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestSetDeliverTo: a question asked for the client's form keeps that
// through Ask, and handing it back to the desktop tells subscribers with the
// changed question; an ended question refuses.
func TestSetDeliverTo(t *testing.T) {
	b := NewBroker(Config{Journal: newMemJournal()})
	defer b.Close()
	events := make(chan Event, 8)
	defer b.Subscribe(func(e Event) { events <- e })()

	q, err := b.Ask(context.Background(), Question{Kind: KindConfirm, Message: "Ship?", DeliverTo: DeliverClient})
	if err != nil {
		t.Fatal(err)
	}
	if q.DeliverTo != DeliverClient {
		t.Fatalf("asked question delivers to %q", q.DeliverTo)
	}
	if e := next(t, events); e.Type != EventAsked || e.Question.DeliverTo != DeliverClient {
		t.Fatalf("first event %v %q", e.Type, e.Question.DeliverTo)
	}
	if err := b.SetDeliverTo(q.ID, ""); err != nil {
		t.Fatal(err)
	}
	if e := next(t, events); e.Type != EventResurfaced || e.Question.DeliverTo != "" || e.Question.ID != q.ID {
		t.Fatalf("after SetDeliverTo: %v %q", e.Type, e.Question.DeliverTo)
	}
	if p := b.Pending(); len(p) != 1 || p[0].DeliverTo != "" {
		t.Fatalf("pending %+v", p)
	}
	// No change, no event.
	if err := b.SetDeliverTo(q.ID, ""); err != nil {
		t.Fatal(err)
	}
	if err := b.Answer(q.ID, Response{Action: Accept, Value: []byte(`"yes"`)}); err != nil {
		t.Fatal(err)
	}
	if e := next(t, events); e.Type != EventEnded {
		t.Fatalf("an unchanged SetDeliverTo sent %v", e.Type)
	}
	if err := b.SetDeliverTo(q.ID, DeliverClient); !errors.Is(err, ErrNotPending) {
		t.Fatalf("ended question: %v", err)
	}
}

func next(t *testing.T, ch <-chan Event) Event {
	t.Helper()
	select {
	case e := <-ch:
		return e
	case <-time.After(5 * time.Second):
		t.Fatal("no event")
		return Event{}
	}
}
