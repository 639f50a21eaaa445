package hookservice

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// geminiPayload is Gemini CLI's recorded BeforeTool running cmd in mode
// (as the hook reads it from Gemini's command line).
func geminiPayload(t *testing.T, mode, cmd string) hook.Payload {
	t.Helper()
	p := payload(t, hook.GeminiCLI, "BeforeTool")
	p.PermissionMode = mode
	p.ToolInput, _ = json.Marshal(map[string]string{"command": cmd, "description": "a test"})
	return p
}

// TestGemini_YoloTheTrayIsFinal: in yolo mode Gemini CLI runs what its
// BeforeTool hook does not stop, so the tray's answer is final there: a
// high-risk call is asked (allow → "allow", deny → "deny" with the note the
// model reads), and a dismissal opens Gemini's own prompt ("ask"), never
// lets yolo run it; a low-risk call gets nothing, at once.
func TestGemini_YoloTheTrayIsFinal(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	low := geminiPayload(t, hook.GeminiYolo, "ls -la")
	if rep := recv(t, e.call(low, time.Minute)); rep.Behavior != "" || hook.Format(low, rep) != nil {
		t.Fatalf("low risk: %+v", rep)
	}
	e.noneAsked(t, "low risk")

	high := geminiPayload(t, hook.GeminiYolo, "rm -rf /tmp/victim")
	got := e.call(high, time.Minute)
	q := e.nextAsked(t)
	if q.Risk != question.RiskHigh || q.Action != "run_shell_command" || q.Client.Name != "gemini-cli" || !strings.Contains(q.Details, "rm -rf /tmp/victim") ||
		!strings.Contains(q.Details, "Gemini CLI runs in yolo mode and waits for this answer") {
		t.Fatalf("question %+v", q)
	}
	_ = e.b.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`), Via: question.ViaDialog})
	if rep := recv(t, got); string(hook.Format(high, rep)) != `{"decision":"allow"}`+"\n" {
		t.Fatalf("allowed: %+v printed %s", rep, hook.Format(high, rep))
	}

	got = e.call(high, time.Minute)
	q = e.nextAsked(t)
	_ = e.b.Answer(q.ID, question.Response{Action: question.Decline, Note: "not that folder", Via: question.ViaDialog})
	var out struct{ Decision, Reason string }
	rep := recv(t, got)
	if json.Unmarshal(hook.Format(high, rep), &out) != nil || out.Decision != "deny" || !strings.Contains(out.Reason, `"not that folder"`) {
		t.Fatalf("denied: %+v printed %s", rep, hook.Format(high, rep))
	}

	got = e.call(high, time.Minute)
	q = e.nextAsked(t)
	_ = e.b.Answer(q.ID, question.Response{Action: question.Cancel, Via: question.ViaDialog})
	if rep := recv(t, got); string(hook.Format(high, rep)) != `{"decision":"ask"}`+"\n" {
		t.Fatalf("dismissed: %+v printed %s, want Gemini's own prompt", rep, hook.Format(high, rep))
	}
}

// TestGemini_DefaultModeAsksNothing: outside yolo mode Gemini CLI asks
// again after a hook's allow, so the tray asks nothing (the person would
// answer twice): a high-risk call opens Gemini's own prompt with Asktray's
// warning, a deny rule still denies with its note, an allow rule and a
// low-risk call are left to Gemini, and Asktray's own MCP tools are never
// stopped.
func TestGemini_DefaultModeAsksNothing(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	for _, mode := range []string{"default", "auto_edit", ""} {
		high := geminiPayload(t, mode, "rm -rf /tmp/victim")
		rep := recv(t, e.call(high, time.Minute))
		var out struct{ Decision, SystemMessage string }
		if json.Unmarshal(hook.Format(high, rep), &out) != nil || out.Decision != "ask" || !strings.Contains(out.SystemMessage, "high risk") {
			t.Fatalf("%q: high risk %+v printed %s", mode, rep, hook.Format(high, rep))
		}
		if rep := recv(t, e.call(geminiPayload(t, mode, "ls"), time.Minute)); rep.Behavior != "" {
			t.Fatalf("%q: low risk %+v", mode, rep)
		}
	}
	e.noneAsked(t, "default mode")
	for _, d := range []policy.Decision{policy.Deny, policy.Allow} {
		r := policy.Rule{Client: "gemini-cli", Action: hook.Tool + ":run_shell_command", Decision: d, Scope: policy.ScopeAlways,
			Match: policy.MatchCommand, Pattern: "rm -rf /tmp/" + string(d), Note: "rule " + string(d), HighRisk: d == policy.Allow}
		if _, err := e.pol.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	denied := geminiPayload(t, "default", "rm -rf /tmp/deny")
	var out struct{ Decision, Reason string }
	if rep := recv(t, e.call(denied, time.Minute)); json.Unmarshal(hook.Format(denied, rep), &out) != nil || out.Decision != "deny" || !strings.Contains(out.Reason, "rule deny") {
		t.Fatalf("deny rule: %+v", rep)
	}
	if rep := recv(t, e.call(geminiPayload(t, "default", "rm -rf /tmp/allow"), time.Minute)); rep.Behavior != hook.Allow {
		t.Fatalf("allow rule: %+v (Gemini asks all the same; it is what the rule says)", rep)
	}
	own := payload(t, hook.GeminiCLI, "BeforeTool")
	own.ToolName, own.ToolInput = "mcp_asktray_ask_user", json.RawMessage(`{"question":"rm -rf /?"}`)
	for _, mode := range []string{hook.GeminiYolo, "default"} {
		own.PermissionMode = mode
		if rep := recv(t, e.call(own, time.Minute)); rep.Behavior == hook.Deny || rep.Behavior == hook.AskAgent {
			t.Fatalf("%s: own tool %+v", mode, rep)
		}
	}
	e.noneAsked(t, "rules and own tools")
}

// TestGemini_StepAside: with no answer from the app the hook prints
// Gemini's "ask" in yolo mode (which would run the call otherwise) and
// nothing in the others.
func TestGemini_StepAside(t *testing.T) {
	t.Parallel()
	p := payload(t, hook.GeminiCLI, "BeforeTool")
	p.PermissionMode = hook.GeminiYolo
	if got := string(hook.StepAside(p)); !strings.HasPrefix(got, `{"decision":"ask"`) {
		t.Errorf("yolo: %q", got)
	}
	p.PermissionMode = "default"
	if got := hook.StepAside(p); got != nil {
		t.Errorf("default: %q", got)
	}
	if got := hook.StepAside(payload(t, hook.ClaudeCode, "PermissionRequest")); got != nil {
		t.Errorf("claude-code: %q", got)
	}
}
