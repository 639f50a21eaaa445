package mcpbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

// One client session has at most max_pending_per_session questions
// pending (20 by default); the next ask is an isError naming the limit and
// the number pending, other sessions are not affected, notices have their
// own count, and concurrent asks cannot slip past the limit.
func TestPendingLimitPerSession(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newEnv(t, Config{}).at(rev)
		s := e.connect(t, "flooder", nil)
		ctx := context.Background()
		for i := range question.DefaultMaxPending {
			if _, text, isErr := call(t, ctx, s, ToolAskText, map[string]any{"question": fmt.Sprintf("Q%d?", i), "wait": false}); isErr {
				t.Fatalf("ask %d refused: %s", i, text)
			}
		}
		_, text, isErr := call(t, ctx, s, ToolAskText, map[string]any{"question": "One more?", "wait": false})
		if !isErr || !strings.Contains(text, "this session has 20 pending, the limit (max_pending_per_session) is 20") {
			t.Fatalf("ask 21: isError %v, %s", isErr, text)
		}
		if n := len(e.broker.Pending()); n != question.DefaultMaxPending {
			t.Fatalf("%d pending, want %d", n, question.DefaultMaxPending)
		}
		// The same question again still re-attaches: it adds nothing.
		if got, text, isErr := call(t, ctx, s, ToolAskText, map[string]any{"question": "Q0?", "wait": false}); isErr || got["status"] != "pending" {
			t.Fatalf("re-ask at the limit: %s", text)
		}
		if _, text, isErr := call(t, ctx, s, ToolNotify, map[string]any{"message": "Build done"}); isErr {
			t.Fatalf("a notice counted against the questions: %s", text)
		}
		// Without a session, every caller of a client name shares its limit.
		otherName := map[string]string{legacy: "flooder", modern: "another-agent"}[rev]
		other := e.connect(t, otherName, nil)
		if _, text, isErr := call(t, ctx, other, ToolAskText, map[string]any{"question": "Other session?", "wait": false}); isErr {
			t.Fatalf("another session was limited: %s", text)
		}
		// Answering one makes room for one.
		if err := e.broker.Answer(e.waitPendingOf(t, s).ID, accept(`"x"`)); err != nil {
			t.Fatal(err)
		}
		if _, text, isErr := call(t, ctx, s, ToolAskText, map[string]any{"question": "One more now?", "wait": false}); isErr {
			t.Fatalf("after an answer: %s", text)
		}

		// Concurrent asks from a fresh session with a small limit.
		e2 := newEnv(t, Config{MaxPending: 5}).at(rev)
		s2 := e2.connect(t, "racer", nil)
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok := 0
		for i := range 30 {
			wg.Go(func() {
				if _, _, isErr := call(t, ctx, s2, ToolAskText, map[string]any{"question": fmt.Sprintf("R%d?", i), "wait": false}); !isErr {
					mu.Lock()
					ok++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if ok != 5 || len(e2.broker.Pending()) != 5 {
			t.Fatalf("%d asks accepted, %d pending; want 5", ok, len(e2.broker.Pending()))
		}
	})
}

// waitPendingOf returns one pending question of s's session.
func (e *env) waitPendingOf(t *testing.T, s interface{ ID() string }) question.Question {
	t.Helper()
	for _, q := range e.broker.Pending() {
		if q.Client.SessionID == s.ID() && q.Kind != question.KindNotice {
			return q
		}
	}
	t.Fatal("no pending question of the session")
	return question.Question{}
}

// A re-ask collects an earlier outcome only within the same session:
// another session of the same client asking the same thing gets its own
// question, not the first one's answer.
func TestReattachBoundToSession(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newEnv(t, Config{Windows: []WindowRule{{Match: "twin", Window: 200 * time.Millisecond}}}).at(rev)
		a, b := e.connect(t, "twin", nil), e.connect(t, "twin", nil)
		ctx := context.Background()
		args := map[string]any{"action": "Drop the staging database", "risk": "medium"}
		got, text, _ := call(t, ctx, a, ToolApproval, args)
		if got["status"] != "pending" {
			t.Fatalf("first ask: %s", text)
		}
		first := got["question_id"].(string)
		if err := e.broker.Answer(idOf(first), accept(`"allow"`)); err != nil {
			t.Fatal(err)
		}
		got, text, _ = call(t, ctx, b, ToolApproval, args)
		if got["question_id"] == first || got["decision"] == "allow" {
			t.Fatalf("another session collected the first session's allow: %s", text)
		}
		got, text, _ = call(t, ctx, a, ToolApproval, args)
		if got["question_id"] != first || got["decision"] != "allow" {
			t.Fatalf("the same session's re-ask: %s", text)
		}
	})
}

// Without a session the asker is the client's name and working directory.
func TestOwnerWithoutSession(t *testing.T) {
	t.Parallel()
	mk := func(session, name, cwd string) caller {
		return caller{client: question.Client{SessionID: session, Name: name}, cwd: cwd}
	}
	if mk("s1", "x", "/a").owner() == mk("s2", "x", "/a").owner() {
		t.Error("two sessions share an owner")
	}
	if mk("s1", "x", "/a").owner() != mk("s1", "y", "/b").owner() {
		t.Error("one session has two owners")
	}
	if mk("", "x", "/a").owner() == mk("", "x", "/b").owner() {
		t.Error("two working directories share an owner")
	}
	if mk("", "x", "/a").owner() == mk("", "y", "/a").owner() {
		t.Error("two client names share an owner")
	}
	if one, again := mk("", "x", "/a"), mk("", "x", "/a"); one.owner() != again.owner() {
		t.Error("the same sessionless client has two owners")
	}
}

// The person's allow reaches the agent once: collecting it again by
// get_answer is an isError, not a second allow.
func TestAllowOnceDeliveredOnce(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newEnv(t, Config{}).at(rev)
		s := e.connect(t, "replayer", nil)
		ctx := context.Background()
		got, _, _ := call(t, ctx, s, ToolApproval, map[string]any{"action": "Deploy shop to production", "wait": false})
		id := got["question_id"].(string)
		if err := e.broker.Answer(idOf(id), accept(`"allow"`)); err != nil {
			t.Fatal(err)
		}
		got, text, _ := call(t, ctx, s, ToolGetAnswer, map[string]any{"question_id": id})
		if got["decision"] != "allow" || got["scope"] != "once" {
			t.Fatalf("first get_answer: %s", text)
		}
		for _, tool := range []string{ToolGetAnswer, ToolCancelQuestion} {
			_, text, isErr := call(t, ctx, s, tool, map[string]any{"question_id": id})
			if !isErr || !strings.Contains(text, "already delivered") {
				t.Fatalf("%s after delivery: isError %v, %s", tool, isErr, text)
			}
		}
		// A no is not a grant: it may be read again.
		got, _, _ = call(t, ctx, s, ToolAskConfirm, map[string]any{"question": "Tag the release?", "wait": false})
		cid := got["question_id"].(string)
		if err := e.broker.Answer(idOf(cid), accept(`"no"`)); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if got, text, isErr := call(t, ctx, s, ToolGetAnswer, map[string]any{"question_id": cid}); isErr || got["answer"] != "no" {
				t.Fatalf("get_answer of a no: %s", text)
			}
		}
	})
}

// An allow that also picks one of the agent's own rules (a Claude Code
// permission suggestion) approves like a plain allow, so it too is
// delivered once. The bridge once judged this with its own predicate, which
// took only the literal "allow" and would have delivered it again.
func TestAgentRuleAllowDeliveredOnce(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newEnv(t, Config{}).at(rev)
		q := question.Question{ID: "q-agent-rule", Kind: question.KindApproval, Action: "Bash", Message: "Bash",
			AgentRules: []question.Option{{Label: "Bash(npm test:*)"}}, Created: time.Now()}
		r := &question.Result{Outcome: question.Answered, DecidedBy: question.ByHuman, Via: question.ViaDialog,
			Value: json.RawMessage(`{"agent_rule":"Bash(npm test:*)"}`), DecidedAt: time.Now()}
		out, err := e.bridge.finished(caller{}, q, r)
		if err != nil || out.Decision != "allow" {
			t.Fatalf("first delivery: %+v, %v", out, err)
		}
		if _, err := e.bridge.finished(caller{}, q, r); err == nil || !strings.Contains(err.Error(), "already delivered") {
			t.Fatalf("second delivery of the agent-rule allow: %v, want already delivered", err)
		}
	})
}
