package hookservice

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
)

func TestHook_AskUserQuestion(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	p := payload(t, hook.ClaudeCode, "PreToolUse_AskUserQuestion")
	// Off by default: Claude Code asks in its own prompt.
	if rep := recv(t, e.call(p, time.Minute)); rep.Behavior != "" {
		t.Fatalf("setting off: %+v", rep)
	}
	e.set.AskUserQuestion = true
	got := e.call(p, time.Minute)
	q := e.nextAsked(t)
	if q.Kind != question.KindChoice || q.Origin != question.OriginAgentQuestion || q.Message != "Which package manager should I use?" || len(q.Options) != 2 || q.Options[1].Description != "Faster installs" {
		t.Fatalf("question %+v", q)
	}
	if err := e.b.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"pnpm"`)}); err != nil {
		t.Fatal(err)
	}
	rep := recv(t, got)
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"answers":{"Which package manager should I use?":"pnpm"},"questions":[{"header":"Package manager","multiSelect":false,"options":[{"description":"The default","label":"npm"},{"description":"Faster installs","label":"pnpm"}],"question":"Which package manager should I use?"}]}}}`
	if out := strings.TrimSpace(string(hook.Format(p, rep))); out != want {
		t.Fatalf("output\n got %s\nwant %s", out, want)
	}
	// Several questions become one form; a multi-select answer joins its labels.
	p.ToolInput = json.RawMessage(`{"questions":[{"question":"Which one?","header":"One","options":[{"label":"a"},{"label":"b"}],"multiSelect":false},{"question":"Which ones?","header":"Many","options":[{"label":"x"},{"label":"y"}],"multiSelect":true}]}`)
	got = e.call(p, time.Minute)
	q = e.nextAsked(t)
	if q.Kind != question.KindForm {
		t.Fatalf("kind %s", q.Kind)
	}
	if err := e.b.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`{"q1":"b","q2":["x","y"]}`)}); err != nil {
		t.Fatal(err)
	}
	if rep := recv(t, got); rep.Answers["Which one?"] != "b" || rep.Answers["Which ones?"] != "x, y" {
		t.Fatalf("answers %+v", rep)
	}
	// Its PermissionRequest is never an approval: allowing answers nothing.
	perm := payload(t, hook.ClaudeCode, "PermissionRequest")
	perm.ToolName, perm.ToolInput = hook.AskUserQuestion, p.ToolInput
	if rep := recv(t, e.call(perm, time.Minute)); rep.Behavior != "" {
		t.Fatalf("PermissionRequest for AskUserQuestion: %+v", rep)
	}
	select {
	case q := <-e.asked:
		t.Fatalf("asked %+v", q)
	default:
	}
	// Away, Claude Code asks at once in its own UI.
	_ = e.pol.SetAway(true)
	if rep := recv(t, e.call(p, time.Minute)); rep.Behavior != "" {
		t.Fatalf("away: %+v", rep)
	}
	select {
	case q := <-e.asked:
		t.Fatalf("asked while away: %+v", q)
	default:
	}
	_ = e.pol.SetAway(false)
	// A dismissal leaves it to Claude Code.
	got = e.call(p, time.Minute)
	q = e.nextAsked(t)
	_ = e.b.Answer(q.ID, question.Response{Action: question.Cancel})
	if rep := recv(t, got); rep.Behavior != "" {
		t.Fatalf("dismissed: %+v", rep)
	}
}

// TestHook_AgentRule: "Always…" offers Claude Code's own suggestion; picking
// it allows and returns it as updatedPermissions, so Claude Code keeps it.
func TestHook_AgentRule(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	p := payload(t, hook.ClaudeCode, "PermissionRequest")
	got := e.call(p, time.Minute)
	q := e.nextAsked(t)
	label := "Always allow Bash(rm -rf node_modules) in this project (Claude Code's local settings)"
	if len(q.AgentRules) != 1 || q.AgentRules[0].Label != label {
		t.Fatalf("agent rules %+v", q.AgentRules)
	}
	if err := e.b.Answer(q.ID, question.Response{Action: question.Accept, Value: question.AgentRuleValue(label), Via: question.ViaDialog}); err != nil {
		t.Fatal(err)
	}
	want := `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"rm -rf node_modules"}],"behavior":"allow","destination":"localSettings"}]}}}`
	if out := strings.TrimSpace(string(hook.Format(p, recv(t, got)))); out != want {
		t.Fatalf("output\n got %s\nwant %s", out, want)
	}
	// Codex sends none, so its approvals offer none.
	got = e.call(payload(t, hook.Codex, "PermissionRequest"), time.Minute)
	if q := e.nextAsked(t); len(q.AgentRules) != 0 {
		t.Fatalf("codex agent rules %+v", q.AgentRules)
	} else {
		_ = e.b.Answer(q.ID, question.Response{Action: question.Cancel})
	}
	recv(t, got)
}
