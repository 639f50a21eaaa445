package question

import (
	"context"
	"testing"
	"time"
)

// TestBroker_SessionStart: a session's start is its first pending
// question's creation, kept when later questions of it come and after they
// end; another client with the same session id, and a client without one,
// are apart.
func TestBroker_SessionStart(t *testing.T) {
	now := time.Date(2026, 12, 4, 14, 2, 0, 0, time.UTC)
	b := NewBroker(Config{Now: func() time.Time { return now }})
	defer b.Close()
	cc := Client{Name: "claude-code", SessionID: "4f2a9c1e"}
	if got := b.SessionStart(cc); !got.IsZero() {
		t.Fatalf("unseen session starts %v", got)
	}
	first, err := b.Ask(context.Background(), Question{Kind: KindConfirm, Message: "Run it?", Client: cc})
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(10 * time.Minute)
	if _, err := b.Ask(context.Background(), Question{Kind: KindConfirm, Message: "And this?", Client: cc}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Ask(context.Background(), Question{Kind: KindConfirm, Message: "Run it?", Client: Client{Name: "cursor", SessionID: "4f2a9c1e"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Ask(context.Background(), Question{Kind: KindConfirm, Message: "No session?", Client: Client{Name: "codex"}}); err != nil {
		t.Fatal(err)
	}
	if err := b.Answer(first.ID, Response{Action: Decline}); err != nil {
		t.Fatal(err)
	}
	if got := b.SessionStart(cc); !got.Equal(first.Created) {
		t.Fatalf("claude-code's session starts %v, want its first question's %v", got, first.Created)
	}
	if got := b.SessionStart(Client{Name: "cursor", SessionID: "4f2a9c1e"}); !got.Equal(now) {
		t.Fatalf("cursor's session starts %v, want %v", got, now)
	}
	if got := b.SessionStart(Client{Name: "codex"}); !got.IsZero() {
		t.Fatalf("a client without a session starts %v", got)
	}
}
