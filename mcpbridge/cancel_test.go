package mcpbridge

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/question"
)

// TestSDKDeadlineKeepsQuestion: the Go SDK sends notifications/cancelled
// with reason "context deadline exceeded" when the caller's own deadline
// passes. That is the client giving up waiting, not the person's or the
// agent's cancel: the question stays open (agent stopped waiting), and the
// late answer is collected by the re-asked question and by get_answer.
// TestSDKCancelWithdraws keeps the other side: a plain cancel withdraws.
func TestSDKDeadlineKeepsQuestion(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	s := e.connect(t, "hasty", nil)
	timedOut := func(args map[string]any) question.Question {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		_, err := s.CallTool(ctx, &mcp.CallToolParams{Name: ToolAskChoice, Arguments: args})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("call: %v, want the caller's deadline", err)
		}
		var q question.Question
		for _, p := range e.broker.Pending() {
			if p.Message == args["question"] {
				q = p
			}
		}
		if q.ID == "" {
			t.Fatalf("question %q is not pending after the client's deadline", args["question"])
		}
		// Give the notification time to arrive and be acted on.
		deadline := time.Now().Add(5 * time.Second)
		for e.broker.Waiters(q.ID) != 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(cancelGrace + 300*time.Millisecond)
		if _, res, err := e.broker.Get(q.ID); err != nil || res != nil {
			t.Fatalf("after the client's deadline the question ended: %+v %v", res, err)
		}
		return q
	}
	opts := []map[string]string{{"label": "eu"}, {"label": "us"}}
	reask := map[string]any{"question": "Which region?", "options": opts}
	q1 := timedOut(reask)
	if err := e.broker.Answer(q1.ID, accept(`["eu"]`)); err != nil {
		t.Fatal(err)
	}
	got, text, _ := call(t, context.Background(), s, ToolAskChoice, reask)
	if got["question_id"] != q1.ID || got["status"] != "answered" || got["selected"].([]any)[0] != "eu" {
		t.Fatalf("re-ask: %s", text)
	}

	q2 := timedOut(map[string]any{"question": "Which zone?", "options": opts})
	if err := e.broker.Answer(q2.ID, accept(`["us"]`)); err != nil {
		t.Fatal(err)
	}
	got, text, _ = call(t, context.Background(), s, ToolGetAnswer, map[string]any{"question_id": q2.ID, "wait_seconds": 0})
	if got["status"] != "answered" || got["selected"].([]any)[0] != "us" {
		t.Fatalf("get_answer: %s", text)
	}
}

func TestClientTimedOut(t *testing.T) {
	t.Parallel()
	for reason, want := range map[string]bool{
		"context deadline exceeded":                     true, // Go SDK
		"McpError: MCP error -32001: Request timed out": true, // TypeScript SDK
		"Request TIMEOUT after 60s":                     true,
		"context canceled":                              false,
		"The user pressed stop":                         false,
		"":                                              false,
	} {
		if got := clientTimedOut(reason); got != want {
			t.Errorf("clientTimedOut(%q) = %v, want %v", reason, got, want)
		}
	}
}
