package hookservice

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// autoPayload reads one of Claude Code's auto-mode payloads
// (app/hook/testdata/claude-code/auto), its command set to cmd when not "".
func autoPayload(t *testing.T, name, cmd string) hook.Payload {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "hook", "testdata", "claude-code", "auto", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := hook.Parse(hook.ClaudeCode, "", b)
	if err != nil {
		t.Fatal(err)
	}
	if cmd != "" {
		p.ToolInput, _ = json.Marshal(map[string]string{"command": cmd, "description": "a test"})
	}
	return p
}

// noneAsked fails when a question is asked within a short while.
func (e *hookEnv) noneAsked(t *testing.T, what string) {
	t.Helper()
	select {
	case q := <-e.asked:
		t.Fatalf("%s: asked %s %q", what, q.Action, q.Details)
	case <-time.After(200 * time.Millisecond):
	}
}

// TestPreToolUse_DecisionOrder: Claude Code's PreToolUse in auto mode, in
// the order: a low-risk call gets no decision at once and nothing is
// asked (auto mode decides); a high-risk one is asked (allow → allow, deny →
// deny with the person's note, a dismissal → no decision); a deny rule
// denies with its note and an allow rule allows, unasked; an ask rule
// brings a low-risk call to the tray.
func TestPreToolUse_DecisionOrder(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	low := autoPayload(t, "allowed-PreToolUse", "ls -la")
	start := time.Now()
	if rep := recv(t, e.call(low, time.Minute)); rep.Behavior != "" || time.Since(start) > 2*time.Second {
		t.Fatalf("low risk: %+v after %v, want no decision at once", rep, time.Since(start))
	}
	e.noneAsked(t, "low risk")

	high := autoPayload(t, "flagged-PreToolUse", "")
	got := e.call(high, time.Minute)
	q := e.nextAsked(t)
	if q.Risk != question.RiskHigh || q.Action != "Bash" || q.Client.Name != "claude-code" {
		t.Fatalf("high risk question %+v", q)
	}
	_ = e.b.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`), Via: question.ViaDialog})
	if rep := recv(t, got); rep.Behavior != hook.Allow || string(hook.Format(high, rep)) != `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"Allowed in Asktray"}}`+"\n" {
		t.Fatalf("allowed: %+v", rep)
	}
	got = e.call(high, time.Minute)
	q = e.nextAsked(t)
	_ = e.b.Answer(q.ID, question.Response{Action: question.Decline, Note: "not the victim folder", Via: question.ViaDialog})
	rep := recv(t, got)
	var out struct {
		H struct {
			PD  string `json:"permissionDecision"`
			PDR string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal(hook.Format(high, rep), &out) != nil || out.H.PD != "deny" || !strings.Contains(out.H.PDR, `Their note: "not the victim folder"`) {
		t.Fatalf("denied: %+v printed %s", rep, hook.Format(high, rep))
	}
	got = e.call(high, time.Minute)
	q = e.nextAsked(t)
	_ = e.b.Answer(q.ID, question.Response{Action: question.Cancel, Via: question.ViaDialog})
	if rep := recv(t, got); rep.Behavior != "" {
		t.Fatalf("dismissed: %+v, want no decision", rep)
	}

	add := func(d policy.Decision, pattern, note string) {
		t.Helper()
		r := policy.Rule{Client: "claude-code", Action: hook.Tool + ":Bash", Decision: d, Scope: policy.ScopeAlways, Match: policy.MatchCommand, Pattern: pattern, Note: note}
		if d == policy.Allow {
			r.HighRisk = true
		}
		if _, err := e.pol.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	add(policy.Deny, "rm -rf /tmp/keep", "keep that folder")
	add(policy.Allow, "rm -rf /tmp/scratch", "")
	add(policy.Ask, "git status", "")
	if rep := recv(t, e.call(autoPayload(t, "flagged-PreToolUse", "rm -rf /tmp/keep"), time.Minute)); rep.Behavior != hook.Deny || !strings.Contains(rep.Message, "keep that folder") {
		t.Fatalf("deny rule: %+v", rep)
	}
	if rep := recv(t, e.call(autoPayload(t, "flagged-PreToolUse", "rm -rf /tmp/scratch"), time.Minute)); rep.Behavior != hook.Allow {
		t.Fatalf("allow rule: %+v", rep)
	}
	e.noneAsked(t, "rules")
	got = e.call(autoPayload(t, "allowed-PreToolUse", "git status"), time.Minute)
	q = e.nextAsked(t)
	if q.Risk == question.RiskHigh {
		t.Fatalf("git status graded high: %+v", q)
	}
	_ = e.b.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`), Via: question.ViaDialog})
	if rep := recv(t, got); rep.Behavior != hook.Allow {
		t.Fatalf("ask rule, allowed: %+v", rep)
	}
}

// TestPreToolUse_ManualOneQuestionPerCall: in Manual mode Claude Code fires
// PreToolUse and then, when it returned no decision, PermissionRequest for
// the same call. The person is asked once: a high-risk call PreToolUse took
// to the tray and the person dismissed is not asked again at its
// PermissionRequest (Claude Code asks in its terminal), while a low-risk
// call PreToolUse left alone is asked at its PermissionRequest, once.
func TestPreToolUse_ManualOneQuestionPerCall(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	pre, perm := autoPayload(t, "manual-PreToolUse", ""), autoPayload(t, "manual-PermissionRequest", "")
	got := e.call(pre, time.Minute)
	q := e.nextAsked(t)
	_ = e.b.Answer(q.ID, question.Response{Action: question.Cancel, Via: question.ViaDialog})
	if rep := recv(t, got); rep.Behavior != "" {
		t.Fatalf("dismissed PreToolUse: %+v", rep)
	}
	if rep := recv(t, e.call(perm, time.Minute)); rep.Behavior != "" {
		t.Fatalf("PermissionRequest after the dismissal: %+v", rep)
	}
	e.noneAsked(t, "the PermissionRequest of a call PreToolUse asked")

	// The next call of the same command is a new call: asked again, once.
	got = e.call(pre, time.Minute)
	q = e.nextAsked(t)
	_ = e.b.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`), Via: question.ViaDialog})
	if rep := recv(t, got); rep.Behavior != hook.Allow {
		t.Fatalf("allowed PreToolUse: %+v", rep)
	}

	lowPre := pre
	lowPre.ToolInput = json.RawMessage(`{"command":"ls","description":"list"}`)
	lowPerm := perm
	lowPerm.ToolInput = lowPre.ToolInput
	if rep := recv(t, e.call(lowPre, time.Minute)); rep.Behavior != "" {
		t.Fatalf("low-risk PreToolUse: %+v", rep)
	}
	e.noneAsked(t, "low-risk PreToolUse")
	got = e.call(lowPerm, time.Minute)
	q = e.nextAsked(t)
	_ = e.b.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`), Via: question.ViaDialog})
	if rep := recv(t, got); rep.Behavior != hook.Allow {
		t.Fatalf("low-risk PermissionRequest: %+v", rep)
	}
	e.noneAsked(t, "after the one question")
}

// TestPreToolUse_OwnToolsNeverAsked: Asktray's own MCP tools, as Claude
// Code names them, raise no approval in any mode: PreToolUse and
// PermissionRequest both allow at once, even under an ask rule for every
// tool; another server's tool of the same name is not Asktray's, and
// neither is a name under Asktray's prefix that is none of its tools
// (mcp__asktray__evil): both are asked.
func TestPreToolUse_OwnToolsNeverAsked(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	if _, err := e.pol.Add(policy.Rule{Client: "*", Action: "*", Decision: policy.Ask, Scope: policy.ScopeAlways}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"manual-PreToolUse", "manual-PermissionRequest", "flagged-PreToolUse"} {
		p := autoPayload(t, name, "")
		p.ToolName, p.ToolInput = "mcp__asktray__ask_user", json.RawMessage(`{"question":"Which?"}`)
		if rep := recv(t, e.call(p, time.Minute)); rep.Behavior != hook.Allow {
			t.Fatalf("%s of ask_user: %+v", name, rep)
		}
	}
	e.noneAsked(t, "Asktray's own tool")
	for _, c := range []struct{ event, tool string }{
		{"flagged-PreToolUse", "mcp__other__ask_user"},
		{"flagged-PreToolUse", "mcp__asktray__evil"},
		{"manual-PermissionRequest", "mcp__asktray__evil"},
	} {
		p := autoPayload(t, c.event, "")
		p.ToolName, p.ToolInput = c.tool, json.RawMessage(`{"question":"Which?"}`)
		got := e.call(p, time.Minute)
		q := e.nextAsked(t)
		_ = e.b.Answer(q.ID, question.Response{Action: question.Cancel, Via: question.ViaDialog})
		if rep := recv(t, got); rep.Behavior == hook.Allow {
			t.Errorf("%s of %s allowed without asking: %+v", c.event, c.tool, rep)
		}
	}
}

// TestPermissionDenied_Recorded: auto mode's block lands in the history as
// blocked by the agent (reason agent_blocked, decided by the agent, the
// classifier's reason as the note, verdict agent_blocked), never as the
// person's decision; a tray question still open for that call (its
// tool_use_id) ends; a call the tray allowed that auto mode blocked all the
// same is marked.
func TestPermissionDenied_Recorded(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	denied := autoPayload(t, "flagged-PermissionDenied", "")
	if rep := recv(t, e.call(denied, time.Minute)); rep.Behavior != "" {
		t.Fatalf("PermissionDenied decided %+v", rep)
	}
	var rec history.Record
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		page, err := e.store.List(context.Background(), history.Filter{Verdicts: []question.Verdict{question.VerdictAgentBlocked}})
		if err == nil && len(page.Records) == 1 {
			rec = page.Records[0]
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	r := rec.Result
	if r == nil || r.Outcome != question.AutoRejected || r.DecidedBy != question.ByAgent || r.Reason != question.ReasonAgentBlocked ||
		r.Note != denied.Reason || rec.Question.Header != "Blocked by Claude Code's auto mode" || rec.Question.Action != "Bash" {
		t.Fatalf("history %+v %+v", rec.Question, r)
	}

	// Allowed in the tray at PreToolUse, then blocked: the allow is marked.
	pre := autoPayload(t, "flagged-PreToolUse", "")
	got := e.call(pre, time.Minute)
	q := e.nextAsked(t)
	_ = e.b.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`), Via: question.ViaDialog})
	recv(t, got)
	recv(t, e.call(denied, time.Minute))
	deadline = time.Now().Add(5 * time.Second)
	for {
		if _, res, err := e.b.Get(q.ID); err == nil && res != nil && res.Afterwards == question.ReasonAgentBlocked {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the tray's allow was not marked as blocked by auto mode")
		}
		time.Sleep(20 * time.Millisecond)
	}

	// A question open for the call ends when auto mode blocks it; one for
	// another call of the same command stays.
	other := pre
	other.ToolUseID = "toolu_other"
	got = e.call(pre, time.Minute)
	q = e.nextAsked(t)
	got2 := e.call(other, time.Minute)
	q2 := e.nextAsked(t)
	recv(t, e.call(denied, time.Minute))
	if rep := recv(t, got); rep.Behavior != "" {
		t.Fatalf("question of the blocked call: %+v", rep)
	}
	if _, res, _ := e.b.Get(q2.ID); res != nil {
		t.Fatalf("the other call's question ended: %+v", res)
	}
	_ = e.b.Answer(q2.ID, question.Response{Action: question.Cancel, Via: question.ViaDialog})
	recv(t, got2)
	if _, res, _ := e.b.Get(q.ID); res == nil || res.Outcome != question.Withdrawn {
		t.Fatalf("blocked call's question: %+v", res)
	}
}
