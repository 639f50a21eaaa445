//go:build realagents

package realagents

import (
	"encoding/json"
	"net/http"
	"strings"
)

// anthropicRequest is the part of a Messages request the fake model reads.
type anthropicRequest struct {
	Stream   bool `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
	// Safeguards asks for auto mode's review of each tool call in the
	// answer itself (Claude Code 2.1.332 in auto mode, with its server
	// classifier, the default).
	Safeguards json.RawMessage `json:"safeguards"`
}

// blockMark in a command makes the fake auto mode classifier block it.
const blockMark = "CLASSIFIER-BLOCK"

// ownAskUser is Asktray's ask_user as Claude Code names it, through the
// MCP entry `asktray config claude-code --write` installs.
const ownAskUser = "mcp__asktray__ask_user"

// askUserQuestionInput is the AskUserQuestion call the fake model makes for
// an ASK<<question>> prompt.
func askUserQuestionInput(q string) map[string]any {
	return map[string]any{"questions": []any{map[string]any{"question": q, "header": "DB", "multiSelect": false,
		"options": []any{map[string]any{"label": "Postgres", "description": "relational"}, map[string]any{"label": "SQLite", "description": "embedded"}}}}}
}

type anthropicBlock struct {
	Type    string          `json:"type"`
	Text    string          `json:"text"`
	Content json.RawMessage `json:"content"`
}

// anthropic answers POST /v1/messages for Claude Code: a Bash tool_use, or
// a text reply.
func (m *model) anthropic(w http.ResponseWriter, body []byte) {
	var req anthropicRequest
	_ = json.Unmarshal(body, &req)
	var events []event
	for _, msg := range req.Messages {
		if msg.Role != "user" {
			continue // Claude Code puts its environment in system messages
		}
		var str string
		var blocks []anthropicBlock
		if json.Unmarshal(msg.Content, &str) == nil {
			events = append(events, event{text: str})
		} else if json.Unmarshal(msg.Content, &blocks) == nil {
			for _, b := range blocks {
				switch b.Type {
				case "text":
					events = append(events, event{text: b.Text})
				case "tool_result":
					events = append(events, event{result: true, text: textOf(b.Content)})
				}
			}
		}
	}
	haveShell, haveAsk, haveMCP := false, false, false
	for _, tl := range req.Tools {
		haveShell = haveShell || tl.Name == "Bash"
		haveAsk = haveAsk || tl.Name == "AskUserQuestion"
		haveMCP = haveMCP || tl.Name == ownAskUser
	}
	next := decide(events, haveShell)
	if next.ask != "" && !haveAsk || next.mcp != "" && !haveMCP {
		next = turn{text: "ok"}
	}
	msgID := m.id("msg")
	var block map[string]any
	var delta map[string]any
	stop := "end_turn"
	var verdict []any // auto mode's review of the tool call, when asked for
	if next.command != "" || next.ask != "" || next.mcp != "" {
		name, input := "Bash", map[string]any{"command": next.command, "description": "Run the command the person asked for"}
		switch {
		case next.ask != "":
			name, input = "AskUserQuestion", askUserQuestionInput(next.ask)
		case next.mcp != "":
			name, input = ownAskUser, map[string]any{"question": next.mcp}
		}
		toolID := m.id("toolu")
		block = map[string]any{"type": "tool_use", "id": toolID, "name": name, "input": map[string]any{}}
		if len(req.Safeguards) > 0 {
			v := map[string]any{"type": "evaluated", "outcome": "not_flagged"}
			if strings.Contains(next.command, blockMark) {
				v = map[string]any{"type": "evaluated", "outcome": "flagged", "explanation": "fake classifier: " + blockMark}
			}
			verdict = []any{map[string]any{"type": "dangerous_tool_use", "status": map[string]any{"type": "available", "tool_uses": map[string]any{toolID: v}}}}
		}
		delta = map[string]any{"type": "input_json_delta", "partial_json": mustJSON(input)}
		stop = "tool_use"
		if !req.Stream {
			block["input"] = input
		}
	} else {
		block = map[string]any{"type": "text", "text": ""}
		delta = map[string]any{"type": "text_delta", "text": next.text}
		if !req.Stream {
			block["text"] = next.text
		}
	}
	usage := map[string]any{"input_tokens": 100, "output_tokens": 10, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}
	msg := map[string]any{"id": msgID, "type": "message", "role": "assistant", "model": fakeModel,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}
	if !req.Stream {
		msg["content"], msg["stop_reason"] = []any{block}, stop
		writeJSON(w, msg)
		return
	}
	startSSE(w)
	sse(w, "message_start", map[string]any{"type": "message_start", "message": msg})
	sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": block})
	sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": delta})
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	md := map[string]any{"stop_reason": stop, "stop_sequence": nil}
	if verdict != nil {
		md["safeguard_results"] = verdict
	}
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": md, "usage": map[string]any{"output_tokens": 10}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// textOf is the text of a tool result's content: a string or text blocks.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []anthropicBlock
	_ = json.Unmarshal(raw, &blocks)
	var b strings.Builder
	for _, x := range blocks {
		b.WriteString(x.Text)
	}
	return b.String()
}
