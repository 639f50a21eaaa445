package question

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// annotatingJournal is a memJournal that keeps annotations, or fails them.
type annotatingJournal struct {
	*memJournal
	mu   sync.Mutex
	got  map[string]Reason
	fail bool
}

func (j *annotatingJournal) Annotate(_ context.Context, id string, after Reason) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.fail {
		return errors.New("disk full")
	}
	j.got[id] = after
	return nil
}

func TestBroker_AnnotateAnEndedQuestion(t *testing.T) {
	t.Parallel()
	j := &annotatingJournal{memJournal: newMemJournal(), got: map[string]Reason{}}
	b := NewBroker(Config{Journal: j, KeepFinished: 1})
	t.Cleanup(func() { _ = b.Close() })
	events := make(chan Event, 16)
	b.Subscribe(func(ev Event) {
		if ev.Type == EventAnnotated {
			events <- ev
		}
	})
	q := ask(t, b, confirmQ())
	// A pending question has no afterwards yet.
	if err := b.Annotate(q.ID, ReasonAgentProceeded); !errors.Is(err, ErrStillPending) {
		t.Fatalf("pending: %v", err)
	}
	if err := b.Answer(q.ID, Response{Action: Decline, Note: "not now", Via: ViaCLI}); err != nil {
		t.Fatal(err)
	}
	if err := b.Annotate(q.ID, ReasonAgentProceeded); err != nil {
		t.Fatal(err)
	}
	// The outcome stays; the afterwards is in memory, in the journal and
	// in the event.
	r := waitResult(t, b, q.ID)
	if r.Outcome != Declined || r.Note != "not now" || r.Via != ViaCLI || r.Afterwards != ReasonAgentProceeded {
		t.Fatalf("result %+v", r)
	}
	if _, gr, _ := b.Get(q.ID); gr == nil || gr.Afterwards != ReasonAgentProceeded {
		t.Fatalf("get %+v", gr)
	}
	if j.got[q.ID] != ReasonAgentProceeded {
		t.Fatalf("journal %v", j.got)
	}
	select {
	case ev := <-events:
		if ev.Question.ID != q.ID || ev.Result == nil || ev.Result.Afterwards != ReasonAgentProceeded || ev.Result.Outcome != Declined {
			t.Fatalf("event %+v", ev)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no EventAnnotated")
	}
	// Out of memory (KeepFinished 1), it is found through the journal.
	other := ask(t, b, confirmQ())
	_ = b.Withdraw(other.ID)
	if err := b.Annotate(q.ID, ReasonAgentProceeded); err != nil {
		t.Fatalf("from the journal: %v", err)
	}
	if err := b.Annotate("nope", ReasonAgentProceeded); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown: %v", err)
	}
	// A journal that fails changes nothing.
	j.mu.Lock()
	j.fail = true
	j.mu.Unlock()
	if err := b.Annotate(other.ID, ReasonAgentProceeded); err == nil {
		t.Fatal("a failed journal annotated")
	}
	if _, gr, _ := b.Get(other.ID); gr == nil || gr.Afterwards != "" {
		t.Fatalf("after a failure %+v", gr)
	}
}
