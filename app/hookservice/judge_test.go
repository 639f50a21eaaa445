package hookservice

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// TestHook_RulesMatchedOncePerRequest: a permission request's rules and
// away mode are judged once (policy.Judge) and that judgement decides it in
// the broker (AskGated): the broker's own gate is never called for it,
// whether a rule allows, away rejects or away holds.
func TestHook_RulesMatchedOncePerRequest(t *testing.T) {
	t.Parallel()
	pol, err := policy.Open(filepath.Join(t.TempDir(), policy.File))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pol.Add(policy.Rule{Client: "claude-code", Action: hook.Tool + ":Read", Decision: policy.Allow, Scope: policy.ScopeAlways}); err != nil {
		t.Fatal(err)
	}
	var gated atomic.Int32
	var asked atomic.Int32
	b := question.NewBroker(question.Config{Gate: func(q question.Question) (question.Result, bool) {
		gated.Add(1)
		return pol.Gate(q)
	}})
	defer b.Close()
	b.Subscribe(func(ev question.Event) {
		if ev.Type == question.EventAsked {
			asked.Add(1)
		}
	})
	h := &Service{Broker: b, Policy: pol, Settings: func() Settings { return Settings{Deadline: time.Minute} }}
	req := func(tool, input string) hook.Request {
		return hook.Request{WaitMS: 60000, Payload: hook.Payload{Agent: hook.ClaudeCode, Event: hook.PermissionRequest, SessionID: "s1",
			ToolName: tool, ToolInput: json.RawMessage(input)}}
	}
	ctx := context.Background()
	if rep := h.Handle(ctx, req("Read", `{"file_path":"/tmp/notes.txt"}`), func() {}); rep.Behavior != hook.Allow {
		t.Fatalf("allowed by rule: %+v", rep)
	}
	pol.SetAwayMode(policy.AwayReject)
	if err := pol.SetAway(true); err != nil {
		t.Fatal(err)
	}
	if rep := h.Handle(ctx, req("Write", `{"file_path":"/tmp/a","content":"x"}`), func() {}); rep.Behavior != hook.Deny {
		t.Fatalf("away reject: %+v", rep)
	}
	pol.SetAwayMode(policy.AwayHold)
	if rep := h.Handle(ctx, req("Write", `{"file_path":"/tmp/b","content":"y"}`), func() {}); rep.Behavior != "" {
		t.Fatalf("away hold: %+v", rep)
	}
	if n := gated.Load(); n != 0 {
		t.Errorf("the broker's gate matched the rules again %d times", n)
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("%d questions shown; a rule, away reject and away hold show none", n)
	}
	if got := len(b.Pending()); got != 0 {
		t.Errorf("%d questions left pending", got)
	}
}
