package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseAutoModePayloads parses what Claude Code 2.1.332 sent in its
// default auto mode (testdata/claude-code/auto): each PreToolUse names its
// tool call and the mode; a PermissionDenied names the call it blocked (the
// PreToolUse's tool_use_id) and the classifier's reason; a PostToolUse the
// call that ran; Manual mode is "default".
func TestParseAutoModePayloads(t *testing.T) {
	t.Parallel()
	read := func(name string) Payload {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("testdata", "claude-code", "auto", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		p, err := Parse(ClaudeCode, "", b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return p
	}
	pre, denied := read("flagged-PreToolUse"), read("flagged-PermissionDenied")
	if pre.Event != PreToolUse || pre.ToolName != "Bash" || pre.ToolUseID == "" || pre.PermissionMode != "auto" {
		t.Errorf("PreToolUse: %+v", pre)
	}
	if denied.Event != PermissionDenied || denied.ToolUseID != pre.ToolUseID || denied.SessionID != pre.SessionID ||
		denied.Reason != "fake server classifier: this deletes files outside the task" || denied.ToolName != "Bash" {
		t.Errorf("PermissionDenied: %+v, want the PreToolUse's call %s and the classifier's reason", denied, pre.ToolUseID)
	}
	if l := read("local-PermissionDenied"); l.Reason != "[Irreversible Local Destruction]" || l.ToolUseID == "" {
		t.Errorf("local classifier's PermissionDenied: %+v", l)
	}
	if a, post := read("allowed-PreToolUse"), read("allowed-PostToolUse"); post.ToolUseID != a.ToolUseID || post.ToolUseID == "" {
		t.Errorf("PostToolUse names call %q, PreToolUse %q", post.ToolUseID, a.ToolUseID)
	}
	if ask := read("ask-PreToolUse"); ask.ToolName != AskUserQuestion || !strings.Contains(string(ask.ToolInput), `"multiSelect":false`) {
		t.Errorf("AskUserQuestion: %+v", ask)
	}
	if m := read("manual-PreToolUse"); m.PermissionMode != "default" {
		t.Errorf("Manual mode's PreToolUse says mode %q, want default", m.PermissionMode)
	}
	if r := read("asked-PermissionRequest"); r.ToolUseID != "" || r.Suggestions != nil || r.PermissionMode != "auto" {
		t.Errorf("auto mode's PermissionRequest: %+v, want no tool_use_id and no suggestions", r)
	}
}

// TestFormatPreToolUse: a Claude Code PreToolUse decision for any tool; a
// deny's reason is the message the model reads, an allow's is Asktray's
// sentence for the person; no decision prints nothing. Asktray's own MCP
// tools are told apart by their name.
func TestFormatPreToolUse(t *testing.T) {
	t.Parallel()
	p := Payload{Agent: ClaudeCode, Event: PreToolUse, ToolName: "Bash", ToolInput: []byte(`{"command":"rm -rf x"}`)}
	cases := []struct {
		r    Reply
		want string
	}{
		{Reply{Behavior: Allow, Message: "ignored"}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"Allowed in Asktray"}}`},
		{Reply{Behavior: Deny, Message: "not <now> & never"}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not <now> & never"}}`},
		{Reply{}, ``},
	}
	for _, c := range cases {
		if got := strings.TrimSuffix(string(Format(p, c.r)), "\n"); got != c.want {
			t.Errorf("%+v:\n got %s\nwant %s", c.r, got, c.want)
		}
	}
	p.Agent = Codex
	if got := Format(p, Reply{Behavior: Allow}); got != nil {
		t.Errorf("Codex PreToolUse printed %s; Asktray installs none for it", got)
	}
	for tool, want := range map[string]bool{
		"mcp__asktray__ask_user": true, "mcp__asktray__permission_prompt": true, "mcp__asktray__cancel_question": true,
		"mcp__asktray__": false, "mcp__other__ask_user": false, "Bash": false, "mcp__asktraybad__x": false,
		"mcp__asktray__evil": false, "mcp__asktray__ask_user_x": false, "mcp__asktray__ASK_USER": false,
	} {
		if OwnTool(tool) != want {
			t.Errorf("OwnTool(%q) = %v, want %v", tool, !want, want)
		}
	}
}
