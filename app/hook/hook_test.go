package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func load(t *testing.T, a Agent, name string) Payload {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", string(a), name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	event := ""
	if a == CopilotCLI {
		event = strings.TrimSuffix(name, filepath.Ext(name))
	}
	p, err := Parse(a, event, b)
	if err != nil {
		t.Fatalf("parse %s/%s: %v", a, name, err)
	}
	return p
}

func TestParseRecordedPayloads(t *testing.T) {
	t.Parallel()
	cases := []struct {
		agent                      Agent
		file, event, session, tool string
		input                      string
		notifType                  string
		suggestions                bool
	}{
		{ClaudeCode, "PermissionRequest", PermissionRequest, "abc123", "Bash", `{"command":"rm -rf node_modules","description":"Remove node_modules directory"}`, "", true},
		{ClaudeCode, "Notification", Notification, "abc123", "", `{}`, "permission_prompt", false},
		{ClaudeCode, "Notification_idle", Notification, "abc123", "", `{}`, "idle_prompt", false},
		{ClaudeCode, "PostToolUse", PostToolUse, "abc123", "Bash", `{"command":"rm -rf node_modules","description":"Remove node_modules directory"}`, "", false},
		{ClaudeCode, "PostToolUseFailure", PostToolUseFailure, "abc123", "Bash", `{"command":"rm -rf node_modules","description":"Remove node_modules directory"}`, "", false},
		{ClaudeCode, "UserPromptSubmit", UserPromptSubmit, "abc123", "", `{}`, "", false},
		{ClaudeCode, "Stop", Stop, "abc123", "", `{}`, "", false},
		{ClaudeCode, "SessionEnd", SessionEnd, "abc123", "", `{}`, "", false},
		{ClaudeCode, "PreToolUse_AskUserQuestion", PreToolUse, "abc123", AskUserQuestion, "", "", false},
		{Codex, "PermissionRequest", PermissionRequest, "019d8d5f-1c2b-7a10-9f3e-2b6f0c1d2e3f", "Bash", `{"command":"rm -f /tmp/marker","description":"Do you want to remove the file /tmp/marker?"}`, "", false},
		{CopilotCLI, "permissionRequest", PermissionRequest, "7f3c2a10-5b4e-4c1d-9a8b-0e1f2a3b4c5d", "bash", `{"command":"git push --force","description":"Force-push the branch"}`, "", false},
		{CopilotCLI, "notification", Notification, "7f3c2a10-5b4e-4c1d-9a8b-0e1f2a3b4c5d", "", `{}`, "permission_prompt", false},
	}
	for _, c := range cases {
		p := load(t, c.agent, c.file)
		if p.Event != c.event || p.SessionID != c.session || p.ToolName != c.tool || p.NotificationType != c.notifType {
			t.Errorf("%s/%s: got event %q session %q tool %q type %q", c.agent, c.file, p.Event, p.SessionID, p.ToolName, p.NotificationType)
		}
		if c.input != "" && string(p.ToolInput) != c.input {
			t.Errorf("%s/%s: input %s, want %s", c.agent, c.file, p.ToolInput, c.input)
		}
		if (p.Suggestions != nil) != c.suggestions {
			t.Errorf("%s/%s: suggestions %s", c.agent, c.file, p.Suggestions)
		}
		if p.Cwd == "" {
			t.Errorf("%s/%s: no cwd", c.agent, c.file)
		}
		if (c.agent == Codex) != (p.TurnID != "") {
			t.Errorf("%s/%s: turn %q (only Codex names its turn)", c.agent, c.file, p.TurnID)
		}
	}
	if p := load(t, Codex, "PermissionRequest"); p.TurnID != "019d8d5f-39fc-7b21-8e4d-3c7a1b2c3d4e" {
		t.Errorf("codex turn %q", p.TurnID)
	}
}

func TestParseRejectsMalformed(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"":                   "stdin",
		"not json":           "stdin",
		`["a"]`:              "stdin",
		`{"session_id":`:     "stdin",
		`{"session_id":"s"}`: "hook_event_name",
		`{"hook_event_name":"PermissionRequest","tool_input":{}}`:                     "tool_name",
		`{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":[1]}`: "tool_input",
	}
	for in, field := range cases {
		if _, err := Parse(ClaudeCode, "", []byte(in)); err == nil || !strings.HasPrefix(err.Error(), field+":") {
			t.Errorf("Parse(%q) = %v, want an error naming %s", in, err, field)
		}
	}
}

func TestParseCopilotToolArgsString(t *testing.T) {
	t.Parallel()
	p, err := Parse(CopilotCLI, "permissionRequest", []byte(`{"sessionId":"s","cwd":"/w","toolName":"bash","toolArgs":"{\"command\": \"ls\"}"}`))
	if err != nil || string(p.ToolInput) != `{"command":"ls"}` || p.Event != PermissionRequest {
		t.Fatalf("got %+v, %v", p, err)
	}
}

func TestFormatExactOutput(t *testing.T) {
	t.Parallel()
	cc := load(t, ClaudeCode, "PermissionRequest")
	cx := load(t, Codex, "PermissionRequest")
	cp := load(t, CopilotCLI, "permissionRequest")
	ask := load(t, ClaudeCode, "PreToolUse_AskUserQuestion")
	perms := json.RawMessage(`[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"rm -rf node_modules"}],"behavior":"allow","destination":"localSettings"}]`)
	cases := []struct {
		name string
		p    Payload
		r    Reply
		want string
	}{
		{"claude allow", cc, Reply{Behavior: Allow}, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`},
		{"claude allow always", cc, Reply{Behavior: Allow, UpdatedPermissions: perms},
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedPermissions":` + string(perms) + `}}}`},
		{"claude deny", cc, Reply{Behavior: Deny, Message: "not <now> & never"},
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not <now> & never"}}}`},
		{"claude none", cc, Reply{}, ``},
		{"codex allow drops permissions", cx, Reply{Behavior: Allow, UpdatedPermissions: perms}, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`},
		{"codex deny", cx, Reply{Behavior: Deny, Message: "no"}, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}`},
		{"copilot allow", cp, Reply{Behavior: Allow, Message: "ignored"}, `{"behavior":"allow"}`},
		{"copilot deny", cp, Reply{Behavior: Deny, Message: "no"}, `{"behavior":"deny","message":"no"}`},
		{"ask answered", ask, Reply{Behavior: Allow, Answers: map[string]string{"Which package manager should I use?": "pnpm"}},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"answers":{"Which package manager should I use?":"pnpm"},"questions":[{"header":"Package manager","multiSelect":false,"options":[{"description":"The default","label":"npm"},{"description":"Faster installs","label":"pnpm"}],"question":"Which package manager should I use?"}]}}}`},
		{"ask allow without answers", ask, Reply{Behavior: Allow}, ``},
		{"notification", load(t, ClaudeCode, "Notification"), Reply{Behavior: Allow}, ``},
	}
	for _, c := range cases {
		got := strings.TrimSuffix(string(Format(c.p, c.r)), "\n")
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestEntries: the command line names only the executable, the agent, the
// data dir and (Copilot CLI) the event, and the timeout is the same whatever the person's deadline,
// so that setup writes the same bytes on every run (finding 7 of issue 25:
// Codex asks to review a hook whose entry changed).
func TestEntries(t *testing.T) {
	t.Parallel()
	es := Entries(CopilotCLI, "/opt/Ask Tray/asktray", "")
	if len(es) != len(Events(CopilotCLI)) || es[0].Event != "permissionRequest" || es[0].Timeout != 86406 {
		t.Fatalf("entries %+v", es)
	}
	for _, e := range es {
		// Copilot CLI's payloads of three events name no event (1.0.102,
		// testdata/copilot-cli/real): each entry passes its own.
		if got, want := e.Command(), `'/opt/Ask Tray/asktray' hook copilot-cli --event `+e.Event; got != want {
			t.Errorf("%s: command %s, want %s", e.Event, got, want)
		}
	}
	cc := Entries(ClaudeCode, "/usr/bin/asktray", "/tmp/d")
	if len(cc) != len(Events(ClaudeCode)) || cc[0].Command() != "/usr/bin/asktray hook claude-code --data-dir /tmp/d" {
		t.Errorf("claude entries %+v", cc)
	}
	if time.Duration(InstalledTimeout())*time.Second != MaxDeadline+2*Margin {
		t.Errorf("installed timeout %d s", InstalledTimeout())
	}
	// PreToolUse for every tool (it decides in every mode) and
	// PermissionDenied (what auto mode blocked); no entry has a matcher.
	var pre, denied bool
	for _, e := range cc {
		pre = pre || e.Event == PreToolUse
		denied = denied || e.Event == PermissionDenied
		if e.Matcher != "" {
			t.Errorf("%s entry has matcher %q, want every tool", e.Event, e.Matcher)
		}
	}
	if !pre || !denied {
		t.Errorf("claude entries %+v: want PreToolUse and PermissionDenied", cc)
	}
	cx := Entries(Codex, "/usr/bin/asktray", "")
	if got := []string{cx[0].Event, cx[1].Event, cx[2].Event}; len(cx) != 3 || got[0] != PermissionRequest || got[1] != UserPromptSubmit || got[2] != Stop {
		t.Errorf("codex entries %+v: want PermissionRequest, then the turn events that bound it", cx)
	}
	for _, a := range Agents() {
		if got, err := ParseAgent(string(a)); err != nil || got != a {
			t.Errorf("ParseAgent(%s) = %v, %v", a, got, err)
		}
	}
	if _, err := ParseAgent("cursor"); err == nil {
		t.Error("cursor parsed as a hook agent")
	}
}

// TestSuggestions labels Claude Code's suggestions as Claude Code means
// them: where it keeps each (session, this project, every project) and each
// mode by the name Claude Code's UI gives it (finding 5 of issue 25: its
// terminal says "from this project" for a session destination, the tray said
// "Switch to acceptEdits mode").
func TestSuggestions(t *testing.T) {
	t.Parallel()
	got := Suggestions(load(t, ClaudeCode, "PermissionRequest").Suggestions)
	if len(got) != 1 || got[0].Label != "Always allow Bash(rm -rf node_modules) in this project (Claude Code's local settings)" ||
		string(got[0].Raw) != `{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"rm -rf node_modules"}],"behavior":"allow","destination":"localSettings"}` {
		t.Fatalf("suggestions %+v", got)
	}
	more := Suggestions(json.RawMessage(`[{"type":"setMode","mode":"acceptEdits","destination":"session"},{"type":"addDirectories","directories":["/srv"],"destination":"userSettings"},` +
		`{"type":"addRules","rules":[{"toolName":"WebFetch"}],"behavior":"deny","destination":"projectSettings"},{"no":"type"},7,` +
		`{"type":"addDirectories","directories":["/tmp/x"],"destination":"session"},{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"ls"}],"behavior":"allow","destination":"session"},` +
		`{"type":"setMode","mode":"default","destination":"localSettings"},{"type":"setMode","mode":"someNewMode"},` +
		`{"type":"setMode","mode":"plan","destination":"session"},{"type":"setMode","mode":"dontAsk","destination":"session"}]`))
	want := []string{"Allow all edits (Accept edits mode) for this session (Claude Code keeps it)",
		"Always allow access to /srv for you, in every project (Claude Code's user settings)",
		"Always deny WebFetch in this project, for everyone (Claude Code's project settings)",
		"Allow access to /tmp/x for this session (Claude Code keeps it)", "Allow Bash(ls) for this session (Claude Code keeps it)",
		"Always start in Manual mode in this project (Claude Code's local settings)", "Always start in someNewMode mode (Claude Code keeps it)",
		"Switch to Plan mode for this session (Claude Code keeps it)"}
	if len(more) != len(want) {
		t.Fatalf("got %+v", more)
	}
	for i, w := range want {
		if more[i].Label != w {
			t.Errorf("label %d: %q, want %q", i, more[i].Label, w)
		}
	}
	if len(more) != maxSuggestions {
		t.Errorf("%d suggestions kept, the limit is %d", len(more), maxSuggestions)
	}
	if g := Suggestions(json.RawMessage(`[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"git push"}],"behavior":"ask","destination":"cliArg"}]`)); len(g) != 1 ||
		g[0].Label != "Ask before Bash(git push) for this run of Claude Code" {
		t.Errorf("cliArg: %+v", g)
	}
	for m, n := range map[string]string{"auto": "Auto", "dontAsk": "Don't Ask", "bypassPermissions": "Bypass Permissions", "plan": "Plan"} {
		if ModeName(m) != n {
			t.Errorf("ModeName(%s) = %s", m, ModeName(m))
		}
	}
	if Suggestions(json.RawMessage(`{"not":"an array"}`)) != nil {
		t.Error("an object read as suggestions")
	}
}

// TestParseCopilotNamesItsEvent: Copilot CLI 1.0.102 names the event in
// hookName and sends permissionSuggestions in camelCase, so the command needs
// no --event (finding 8 of issue 25); --event names the event of a payload
// that does not (issue 32 item 8), and a payload's own name wins over it
// (the doctor's AsktrayDoctor through an entry with --event).
func TestParseCopilotNamesItsEvent(t *testing.T) {
	t.Parallel()
	in := []byte(`{"hookName":"permissionRequest","sessionId":"s1","timestamp":1,"cwd":"/w","toolName":"bash","toolInput":{"command":"ls"},` +
		`"permissionSuggestions":[{"type":"addRules"}]}`)
	p, err := Parse(CopilotCLI, "", in)
	if err != nil || p.Event != PermissionRequest || p.SessionID != "s1" || p.ToolName != "bash" || string(p.ToolInput) != `{"command":"ls"}` ||
		string(p.Suggestions) != `[{"type":"addRules"}]` {
		t.Fatalf("%+v, %v", p, err)
	}
	for hn, want := range map[string]string{"postToolUse": PostToolUse, "userPromptSubmitted": UserPromptSubmit, "agentStop": Stop, "sessionEnd": SessionEnd} {
		p, err := Parse(CopilotCLI, "", []byte(`{"hookName":"`+hn+`","sessionId":"s1","toolName":"bash"}`))
		if err != nil || p.Event != want {
			t.Errorf("%s: %+v, %v", hn, p, err)
		}
	}
	if p, err := Parse(CopilotCLI, "notification", in); err != nil || p.Event != PermissionRequest {
		t.Errorf("--event over a named payload: %+v, %v", p, err)
	}
	if p, err := Parse(CopilotCLI, "agentStop", []byte(`{"sessionId":"s1","timestamp":1,"cwd":"/w"}`)); err != nil || p.Event != Stop {
		t.Errorf("--event for a payload naming none: %+v, %v", p, err)
	}
	if p, err := Parse(CopilotCLI, "permissionRequest", []byte(`{"hookName":"AsktrayDoctor","sessionId":"asktray-doctor","cwd":"/tmp","message":"x"}`)); err != nil || p.Event != Doctor {
		t.Errorf("the doctor's request through an entry with --event: %+v, %v", p, err)
	}
	if _, err := Parse(CopilotCLI, "", []byte(`{"sessionId":"s1"}`)); err == nil || !strings.Contains(err.Error(), "hookName") {
		t.Errorf("no event: %v", err)
	}
}
