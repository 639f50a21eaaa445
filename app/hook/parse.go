package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// MaxPayload limits the stdin a hook reads; a Write of a large file is the
// biggest legitimate payload.
const MaxPayload = 8 << 20

// Payload is what an agent's hook stdin says, whatever the agent's spelling.
type Payload struct {
	Agent     Agent  `json:"agent"`
	Event     string `json:"event"` // normalized: PermissionRequest, Notification, PostToolUse, ...
	SessionID string `json:"session_id,omitempty"`
	// TurnID is Codex's turn_id: the turn of the session the event belongs
	// to ("" when the agent sends none).
	TurnID   string `json:"turn_id,omitempty"`
	Cwd      string `json:"cwd,omitempty"`
	ToolName string `json:"tool_name,omitempty"`
	// ToolUseID is Claude Code's tool_use_id: the tool call a PreToolUse,
	// PostToolUse, PostToolUseFailure or PermissionDenied is about ("" in
	// its PermissionRequest, and from the other agents).
	ToolUseID string `json:"tool_use_id,omitempty"`
	// PermissionMode is Claude Code's permission_mode ("auto", "default"
	// for Manual, "acceptEdits", "plan", ...), "" when the payload has none.
	PermissionMode string `json:"permission_mode,omitempty"`
	// Reason is why Claude Code's auto mode blocked the call (PermissionDenied).
	Reason string `json:"reason,omitempty"`
	// ToolInput is the tool's input as a compact JSON object ({} when absent).
	ToolInput json.RawMessage `json:"tool_input,omitempty"`
	// Suggestions is Claude Code's permission_suggestions: the "always allow"
	// rules its own dialog would offer (a JSON array, or nil).
	Suggestions json.RawMessage `json:"permission_suggestions,omitempty"`
	// Notification fields.
	NotificationType string `json:"notification_type,omitempty"`
	Message          string `json:"message,omitempty"`
	Title            string `json:"title,omitempty"`
}

// wire is the union of the fields the agents send: Claude Code and Codex
// use snake_case (https://code.claude.com/docs/en/hooks,
// https://developers.openai.com/codex/hooks), Copilot CLI camelCase unless
// configured with PascalCase event names
// (https://docs.github.com/en/copilot/reference/hooks-reference).
type wire struct {
	HookEventName string          `json:"hook_event_name"`
	SessionID     string          `json:"session_id"`
	TurnID        string          `json:"turn_id"`
	Cwd           string          `json:"cwd"`
	ToolName      string          `json:"tool_name"`
	ToolUseID     string          `json:"tool_use_id"`
	PermMode      string          `json:"permission_mode"`
	Reason        string          `json:"reason"`
	ToolInput     json.RawMessage `json:"tool_input"`
	Suggestions   json.RawMessage `json:"permission_suggestions"`
	NotifType     string          `json:"notification_type"`
	Message       string          `json:"message"`
	Title         string          `json:"title"`

	// Copilot CLI's camelCase format, whose event is in hookName.
	HookName         string          `json:"hookName"`
	SessionIDCamel   string          `json:"sessionId"`
	SuggestionsCamel json.RawMessage `json:"permissionSuggestions"`
	ToolNameCamel    string          `json:"toolName"`
	ToolInputCamel   json.RawMessage `json:"toolInput"`
	ToolArgs         json.RawMessage `json:"toolArgs"`
}

// NormalizeEvent returns event in Claude Code's spelling, whichever
// agent's spelling it is in (Spec.Spellings). It does not block.
func NormalizeEvent(event string) string {
	for _, sp := range table {
		if e, ok := sp.Spellings[event]; ok {
			return e
		}
	}
	return event
}

// Parse reads agent a's hook payload. The payload's hook_event_name names
// the event, or Copilot CLI's hookName (seen in Copilot CLI 1.0.102's
// camelCase payloads); event, when not "", names it for a payload that does
// not (Copilot CLI's userPromptSubmitted, postToolUse and agentStop), so
// that the doctor's test request (AsktrayDoctor) through an entry with
// --event is still the test. Errors name the field at fault.
func Parse(a Agent, event string, data []byte) (Payload, error) {
	var w wire
	if sp, ok := Lookup(a); ok && sp.Unwrap != nil {
		var err error
		if data, err = sp.Unwrap(bytes.TrimSpace(data)); err != nil {
			return Payload{}, err
		}
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return Payload{}, errors.New("stdin: not a JSON object")
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return Payload{}, fmt.Errorf("stdin: not a valid hook payload: %w", err)
	}
	p := Payload{
		Agent: a, Event: NormalizeEvent(first(w.HookEventName, w.HookName, event)), SessionID: first(w.SessionID, w.SessionIDCamel), TurnID: w.TurnID, Cwd: w.Cwd,
		ToolName: first(w.ToolName, w.ToolNameCamel), ToolUseID: w.ToolUseID, PermissionMode: w.PermMode, Reason: w.Reason, NotificationType: w.NotifType, Message: w.Message, Title: w.Title,
	}
	if p.Event == "" {
		return p, errors.New("hook_event_name: required (Copilot CLI: hookName), or pass --event")
	}
	in, err := toolInput(firstRaw(w.ToolInput, w.ToolInputCamel, w.ToolArgs))
	if err != nil {
		return p, err
	}
	p.ToolInput = in
	if s := bytes.TrimSpace(firstRaw(w.Suggestions, w.SuggestionsCamel)); len(s) > 0 && s[0] == '[' {
		p.Suggestions = s
	}
	if (p.Event == PermissionRequest || p.Event == PreToolUse) && p.ToolName == "" {
		return p, errors.New("tool_name: required for " + p.Event)
	}
	return p, nil
}

// toolInput compacts a tool input: an object, an object encoded as a JSON
// string (Copilot CLI's toolArgs), or nothing ({}).
func toolInput(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return json.RawMessage("{}"), nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil && json.Valid([]byte(s)) {
			raw = bytes.TrimSpace([]byte(s))
		}
	}
	if raw[0] != '{' {
		return nil, errors.New("tool_input: must be a JSON object")
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, fmt.Errorf("tool_input: %w", err)
	}
	return b.Bytes(), nil
}

func first(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func firstRaw(rs ...json.RawMessage) json.RawMessage {
	for _, r := range rs {
		if len(bytes.TrimSpace(r)) > 0 {
			return r
		}
	}
	return nil
}
