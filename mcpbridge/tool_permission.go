package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/asktray/asktray/app/ellipsis"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/toolcall"
	"github.com/asktray/asktray/app/toolinput"
)

// ToolPermission is Claude Code's --permission-prompt-tool. The name is
// fixed: agents and user configs refer to it.
const ToolPermission = "permission_prompt"

// permissionSpec decodes its own arguments (parsePermission); a permission
// prompt's message and action are Claude Code's tool name.
var permissionSpec = &toolSpec{name: ToolPermission, define: permissionTool, serve: servePermission,
	origin: question.OriginPermission, fields: map[string]string{"message": "tool_name", "action": "tool_name"}}

func servePermission(b *Bridge, ctx context.Context, c caller, spec *toolSpec, raw json.RawMessage) *mcp.CallToolResult {
	pr := b.permissionPrompt(ctx, c, spec, raw)
	return mcp.NewToolResultStructured(pr, pr.text())
}

// permissionTool defines permission_prompt.
func permissionTool(name string) mcp.Tool {
	return newTool(name, "Claude Code permission prompt",
		"Permission prompt for Claude Code's --permission-prompt-tool: Claude Code calls it with tool_name, input and tool_use_id before running a tool, and gets back as text {\"behavior\":\"allow\",\"updatedInput\":{...}} or {\"behavior\":\"deny\",\"message\":\"...\"}. The request shows in Asktray like request_approval. Models should call request_approval instead.",
		permissionInput(),
		permissionOutput(),
		true, false, false)
}

// Claude Code's --permission-prompt-tool contract: before running a tool it
// calls the named MCP tool with {"tool_name", "input", "tool_use_id"} and
// parses the first text content as JSON: {"behavior":"allow","updatedInput":
// {...}} runs the tool with updatedInput, {"behavior":"deny","message":"..."}
// refuses it and tells the model the message.
//
// permission_prompt cannot ask Claude Code to poll, so when the person has
// not answered within the blocking window (15 min for Claude Code, which
// resets its own timeout on progress) it denies, with a message that names
// the question, says it stays open, and that retrying the same action
// re-attaches to it and collects the answer.

// permissionArgs is what Claude Code sends.
type permissionArgs struct {
	ToolName  string
	Input     json.RawMessage
	ToolUseID string
}

// permissionResult is exactly what Claude Code parses from the text content.
type permissionResult struct {
	Behavior     string          `json:"behavior"`
	UpdatedInput json.RawMessage `json:"updatedInput,omitempty"`
	Message      string          `json:"message,omitempty"`
}

// text is pr as the JSON text Claude Code parses: compact, with &, < and >
// left as they are so that updatedInput reads exactly like the input.
func (pr permissionResult) text() string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(pr); err != nil {
		return `{"behavior":"deny","message":"asktray could not encode its answer"}`
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func permissionInput() json.RawMessage {
	return mustJSON(obj{
		"type": "object",
		"properties": obj{
			"tool_name":   str("The Claude Code tool asking to run, e.g. Bash, Edit, Write, or an MCP tool's full name."),
			"input":       obj{"type": "object", "description": "The tool's input, exactly as Claude Code would run it."},
			"tool_use_id": str("Claude Code's id of this tool use."),
		},
		"required": []string{"tool_name", "input"},
	})
}

func permissionOutput() json.RawMessage {
	return mustJSON(obj{
		"type": "object",
		"properties": obj{
			"behavior":     obj{"type": "string", "enum": []string{"allow", "deny"}},
			"updatedInput": obj{"type": "object", "description": "On allow: the input to run, unchanged."},
			"message":      str("On deny: why, for the model."),
		},
		"required": []string{"behavior"},
	})
}

// parsePermission decodes Claude Code's arguments. It ignores keys it does
// not know (Claude Code may add some) but refuses a key given twice, and
// matches names exactly.
func parsePermission(raw json.RawMessage) (permissionArgs, error) {
	var p permissionArgs
	raw = bytes.TrimSpace(raw)
	if _, err := objectArgs(raw); err != nil {
		return p, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return p, argErrorf("arguments: must be a JSON object")
	}
	if err := json.Unmarshal(m["tool_name"], &p.ToolName); err != nil || p.ToolName == "" {
		return p, argErrorf("tool_name: required, a string")
	}
	if v, ok := m["tool_use_id"]; ok && json.Unmarshal(v, &p.ToolUseID) != nil {
		return p, argErrorf("tool_use_id: must be a string")
	}
	in := bytes.TrimSpace(m["input"])
	switch {
	case len(in) == 0 || bytes.Equal(in, []byte("null")):
		in = json.RawMessage("{}")
	case in[0] != '{':
		return p, argErrorf("input: must be a JSON object")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, in); err != nil {
		return p, argErrorf("input: not valid JSON: %v", err)
	}
	p.Input = buf.Bytes()
	return p, nil
}

// permissionQuestion turns Claude Code's request into an approval showing
// the whole input, graded by what it does: the question an agent's
// permission hook asks for the same call (toolcall.Approval). The input
// goes with it, so that rules match its content.
func permissionQuestion(p permissionArgs) question.Question {
	return toolcall.Approval(toolcall.Call{Tool: p.ToolName, Input: p.Input})
}

// toolNameUnfit says why name cannot be an approval's action as it is, or
// "": permission_prompt refuses a name the hooks would cut
// (toolcall.Approval), since Claude Code calls it with its own tools' names.
func toolNameUnfit(name string) string {
	if !utf8.ValidString(name) {
		return "tool_name: not valid UTF-8"
	}
	if n := utf8.RuneCountInString(name); n > question.MaxAction {
		return fmt.Sprintf("tool_name: at most %d characters, got %d", question.MaxAction, n)
	}
	return ""
}

// clipRunes cuts s to at most n runes, ending it with "…" when cut.
func clipRunes(s string, n int) string { return ellipsis.Cut(s, n) }

// permissionPrompt runs permission_prompt. It never fails: whatever goes
// wrong becomes a deny whose message says why.
func (b *Bridge) permissionPrompt(ctx context.Context, c caller, spec *toolSpec, raw json.RawMessage) permissionResult {
	p, err := parsePermission(raw)
	if err != nil {
		return permissionResult{Behavior: "deny", Message: "Asktray could not read this permission request, so it is denied: " + err.Error()}
	}
	if msg := toolNameUnfit(p.ToolName); msg != "" {
		return permissionResult{Behavior: "deny", Message: "Asktray could not show this permission request, so it is denied: " + msg}
	}
	// A retry re-attaches only to a request with the very same input: the
	// fingerprint covers every key, not the (possibly cut) rendered text.
	res, err := b.askParsed(ctx, c, spec, ask{q: permissionQuestion(p), inputFP: toolinput.Fingerprint(p.ToolName, p.Input)})
	if err != nil {
		if ae, ok := errors.AsType[*argError](err); ok {
			return permissionResult{Behavior: "deny", Message: "Asktray could not show this permission request, so it is denied: " + ae.msg}
		}
		b.cfg.Log.Error("permission prompt failed", "tool", p.ToolName, "err", err)
		return permissionResult{Behavior: "deny", Message: "Asktray could not ask the user, so this is denied: " + err.Error()}
	}
	if res.Decision == "allow" {
		return permissionResult{Behavior: "allow", UpdatedInput: p.Input}
	}
	return permissionResult{Behavior: "deny", Message: denyMessage(res)}
}

// denyMessage tells the model why a permission prompt was not allowed: the
// outcome's guidance (question.Guide) naming the question, or, while the
// person has not answered, that a retry collects the answer.
func denyMessage(r *toolResult) string {
	id := r.QuestionID
	if r.Status == string(question.StatePending) {
		return fmt.Sprintf("The user has not answered in Asktray yet (question %s), so this is not allowed for now. "+
			"The question stays open in Asktray; once the user answers it there, retry exactly the same action: "+
			"the retry re-attaches to question %s and gets the answer instead of asking again.", id, id)
	}
	g := r.guide
	g.Said = strings.TrimSuffix(g.Said, ".") + fmt.Sprintf(" (question %s).", id)
	return g.Text()
}
