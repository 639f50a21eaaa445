package app

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// TestAutomaticOutcomesLandInHistory runs a broker wired as Run wires it
// (SQLite history as journal, the policy as gate) and checks that a rule's,
// away's and the deadline's outcomes are what the history keeps.
func TestAutomaticOutcomesLandInHistory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	store, err := history.Open(filepath.Join(dir, datadir.DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	pol, err := policy.Open(filepath.Join(dir, policy.File))
	if err != nil {
		t.Fatal(err)
	}
	// Once jump is armed (phase 1), the clock jumps an hour after its next
	// reading: Ask stamps the question with base and then arms its deadline
	// timer an hour later, so the timer fires at once.
	base := time.Now()
	var phase atomic.Int32
	now := func() time.Time {
		if phase.CompareAndSwap(1, 2) || phase.Load() == 0 {
			return base
		}
		return base.Add(time.Hour)
	}
	b := question.NewBroker(question.Config{Journal: store, Gate: pol.Gate, Now: now})
	defer b.Close()
	var asked atomic.Int32
	b.Subscribe(func(ev question.Event) {
		if ev.Type == question.EventAsked {
			asked.Add(1)
		}
	})
	ctx := context.Background()
	client := question.Client{Name: "claude-code", SessionID: "s1"}

	rule, err := pol.Add(policy.Rule{Client: "claude-code", Action: "permission_prompt:Bash", Decision: policy.Allow, Scope: policy.ScopeAlways})
	if err != nil {
		t.Fatal(err)
	}
	approved, err := b.Ask(ctx, question.Question{Kind: question.KindApproval, Client: client, Message: "Bash", Tool: "permission_prompt", Origin: question.OriginPermission, Action: "Bash", Details: "`go test ./...`"})
	if err != nil {
		t.Fatal(err)
	}
	wantHistory(t, store, approved.ID, question.AutoApproved, question.ByRule, question.ReasonRule, rule.ID)
	if rec, _ := store.Get(ctx, approved.ID); rec.Question.Details != "`go test ./...`" || rec.Question.Tool != "permission_prompt" {
		t.Errorf("history lost the approval's fields: %+v", rec.Question)
	}

	pol.SetAwayMode(policy.AwayReject)
	if err := pol.SetAway(true); err != nil {
		t.Fatal(err)
	}
	away, err := b.Ask(ctx, question.Question{Kind: question.KindConfirm, Client: client, Message: "Push?", Tool: "ask_confirm"})
	if err != nil {
		t.Fatal(err)
	}
	wantHistory(t, store, away.ID, question.AutoRejected, question.ByApp, question.ReasonAway, "")
	if asked.Load() != 0 {
		t.Fatalf("%d questions were shown; gated ones must not be", asked.Load())
	}

	if err := pol.SetAway(false); err != nil {
		t.Fatal(err)
	}
	phase.Store(1)
	timedOut, err := b.Ask(ctx, question.Question{Kind: question.KindConfirm, Client: client, Message: "Push?", Tool: "ask_confirm"})
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := b.Wait(wctx, timedOut.ID); err != nil {
		t.Fatal(err)
	}
	wantHistory(t, store, timedOut.ID, question.AutoRejected, question.ByTimeout, question.ReasonTimeout, "")
}

func wantHistory(t *testing.T, store history.Store, id string, o question.Outcome, by question.Decider, reason question.Reason, ruleID string) {
	t.Helper()
	rec, err := store.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	r := rec.Result
	if r == nil || r.Outcome != o || r.DecidedBy != by || r.Reason != reason || r.RuleID != ruleID || rec.Question.State != question.State(o) {
		t.Fatalf("history of %s: %+v state %s; want %s by %s reason %s rule %q", id, r, rec.Question.State, o, by, reason, ruleID)
	}
}
