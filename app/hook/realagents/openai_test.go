//go:build realagents

package realagents

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
)

// responsesRequest is the part of a Responses request the fake model reads.
type responsesRequest struct {
	Stream bool `json:"stream"`
	Input  []struct {
		Type    string          `json:"type"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
		Output  json.RawMessage `json:"output"`
	} `json:"input"`
	Tools []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"tools"`
}

// responses answers POST /v1/responses for Codex: a call of its shell tool
// asking to run outside the sandbox (so that Codex asks for approval), or a
// text reply.
func (m *model) responses(w http.ResponseWriter, body []byte) {
	var req responsesRequest
	_ = json.Unmarshal(body, &req)
	var events []event
	for _, it := range req.Input {
		switch {
		case it.Type == "function_call_output" || it.Type == "custom_tool_call_output":
			events = append(events, event{result: true, text: outputText(it.Output)})
		case it.Role == "user":
			events = append(events, event{text: string(it.Content)})
		}
	}
	tool := ""
	for _, tl := range req.Tools {
		if tool == "" && (tl.Name == "shell_command" || tl.Name == "exec_command" || tl.Name == "shell") {
			tool = tl.Name
		}
	}
	next := decide(events, tool != "")
	msgID, respID := m.id("msg"), m.id("resp")
	var item map[string]any
	if next.command != "" {
		item = map[string]any{"type": "function_call", "id": m.id("fc"), "call_id": m.id("call"), "name": tool,
			"arguments": mustJSON(codexArgs(tool, next.command)), "status": "completed"}
	} else {
		item = map[string]any{"type": "message", "id": msgID, "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": next.text, "annotations": []any{}}}}
	}
	resp := map[string]any{"id": respID, "object": "response", "created_at": 0, "model": fakeModel, "status": "completed",
		"output": []any{item}, "usage": map[string]any{"input_tokens": 100, "output_tokens": 10, "total_tokens": 110,
			"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}}
	if !req.Stream {
		writeJSON(w, resp)
		return
	}
	startSSE(w)
	sse(w, "response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": respID, "object": "response", "status": "in_progress", "output": []any{}}})
	sse(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	if next.command == "" {
		sse(w, "response.output_text.delta", map[string]any{"type": "response.output_text.delta", "item_id": msgID, "output_index": 0, "content_index": 0, "delta": next.text})
	}
	sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	sse(w, "response.completed", map[string]any{"type": "response.completed", "response": resp})
}

// codexArgs are the arguments of Codex's shell tool for command, asking for
// escalation so that Codex's approval (and its PermissionRequest hook) runs.
func codexArgs(tool, command string) map[string]any {
	args := map[string]any{"sandbox_permissions": "require_escalated", "justification": "Run the command the person asked for"}
	switch tool {
	case "exec_command":
		args["cmd"] = command
	case "shell":
		args["command"] = []string{"bash", "-lc", command}
	default:
		args["command"] = command
	}
	return args
}

func outputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	if b.Len() == 0 {
		return string(raw)
	}
	return b.String()
}

// chatRequest is the part of a chat completions request the fake model reads.
type chatRequest struct {
	Stream   bool `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

// chatShellTools are the shell tools of the agents that speak chat
// completions to the fake model: Copilot CLI's bash, Qwen Code's
// run_shell_command, Factory Droid's Execute, Cline's run_commands.
var chatShellTools = []string{"bash", "run_shell_command", "Execute", "run_commands"}

// chatShellArgs are the arguments of shell tool calling command: Factory
// Droid's Execute also takes the model's grade of its risk; Cline's
// run_commands takes a list of commands.
func chatShellArgs(shell, command string) map[string]any {
	switch shell {
	case "Execute":
		return map[string]any{"command": command, "riskLevel": "medium", "riskLevelReason": "writes a file the person asked for"}
	case "run_commands":
		return map[string]any{"commands": []string{command}}
	}
	return map[string]any{"command": command, "description": "Run the command the person asked for"}
}

// chat answers POST /chat/completions for Copilot CLI and Qwen Code: a
// call of its shell tool, or a text reply.
func (m *model) chat(w http.ResponseWriter, body []byte) {
	var req chatRequest
	_ = json.Unmarshal(body, &req)
	var events []event
	for _, msg := range req.Messages {
		switch msg.Role {
		case "tool":
			events = append(events, event{result: true, text: outputText(msg.Content)})
		case "user":
			events = append(events, event{text: string(msg.Content)})
		}
	}
	shell := ""
	for _, tl := range req.Tools {
		if shell == "" && slices.Contains(chatShellTools, tl.Function.Name) {
			shell = tl.Function.Name
		}
	}
	next := decide(events, shell != "")
	chatID := m.id("chatcmpl")
	delta := map[string]any{"role": "assistant"}
	finish := "stop"
	message := map[string]any{"role": "assistant", "content": next.text}
	if next.command != "" {
		calls := []any{map[string]any{"index": 0, "id": m.id("call"), "type": "function", "function": map[string]any{
			"name": shell, "arguments": mustJSON(chatShellArgs(shell, next.command))}}}
		delta["tool_calls"], message["tool_calls"], message["content"] = calls, calls, nil
		finish = "tool_calls"
	} else {
		delta["content"] = next.text
	}
	usage := map[string]any{"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}
	if !req.Stream {
		writeJSON(w, map[string]any{"id": chatID, "object": "chat.completion", "created": 0, "model": fakeModel,
			"choices": []any{map[string]any{"index": 0, "message": message, "finish_reason": finish}}, "usage": usage})
		return
	}
	startSSE(w)
	chunk := func(d map[string]any, fin any, u any) map[string]any {
		c := map[string]any{"id": chatID, "object": "chat.completion.chunk", "created": 0, "model": fakeModel,
			"choices": []any{map[string]any{"index": 0, "delta": d, "finish_reason": fin}}}
		if u != nil {
			c["usage"] = u
		}
		return c
	}
	sse(w, "", chunk(delta, nil, nil))
	sse(w, "", chunk(map[string]any{}, finish, usage))
	_, _ = w.Write([]byte("data: [DONE]\n\n"))
}
