//go:build realagents

package realagents

import (
	"encoding/json"
	"net/http"
	"strings"
)

// geminiRequest is the part of a Gemini generateContent request the fake
// model reads: the conversation's contents, each a role and parts (text, a
// function call, a function's response), and the tools offered.
type geminiRequest struct {
	Contents []struct {
		Role  string `json:"role"`
		Parts []struct {
			Text             *string `json:"text"`
			FunctionResponse *struct {
				Name     string          `json:"name"`
				Response json.RawMessage `json:"response"`
			} `json:"functionResponse"`
		} `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
}

// geminiShell is Gemini CLI's shell tool.
const geminiShell = "run_shell_command"

// gemini answers Gemini CLI (0.61.0, GOOGLE_GEMINI_BASE_URL pointing here):
// POST /v1beta/models/MODEL:streamGenerateContent?alt=sse, server-sent
// events each holding a GenerateContentResponse, and :generateContent (its
// session summary) with one. The model calls run_shell_command when the
// conversation asks for a command, else replies in text.
func (m *model) gemini(w http.ResponseWriter, r *http.Request, body []byte) {
	var req geminiRequest
	_ = json.Unmarshal(body, &req)
	haveShell := false
	for _, tl := range req.Tools {
		for _, fd := range tl.FunctionDeclarations {
			haveShell = haveShell || fd.Name == geminiShell
		}
	}
	next := decide(geminiEvents(req), haveShell)
	part := map[string]any{"text": next.text}
	switch {
	case next.command != "":
		part = map[string]any{"functionCall": map[string]any{"name": geminiShell, "id": m.id("call"),
			"args": map[string]any{"command": next.command, "description": "Run the command the person asked for"}}}
	case next.ask != "":
		part = map[string]any{"text": "ok"}
	}
	resp := map[string]any{
		"candidates":    []any{map[string]any{"index": 0, "finishReason": "STOP", "content": map[string]any{"role": "model", "parts": []any{part}}}},
		"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110},
		"modelVersion":  fakeModel, "responseId": m.id("resp"),
	}
	if !strings.Contains(r.URL.Path, ":streamGenerateContent") {
		writeJSON(w, resp)
		return
	}
	startSSE(w)
	sse(w, "", resp)
}

// geminiEvents are the person's texts and the tools' results of req, in
// order.
func geminiEvents(req geminiRequest) []event {
	var events []event
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			switch {
			case p.FunctionResponse != nil:
				events = append(events, event{result: true, text: string(p.FunctionResponse.Response)})
			case c.Role == "user" && p.Text != nil:
				events = append(events, event{text: *p.Text})
			}
		}
	}
	return events
}

// geminiResults are the function responses of a Gemini request: what a tool
// returned, or the error it got ("Tool execution blocked: REASON" after a
// hook's deny).
func geminiResults(body []byte) []string {
	var req geminiRequest
	if json.Unmarshal(body, &req) != nil {
		return nil
	}
	var out []string
	for _, e := range geminiEvents(req) {
		if e.result {
			out = append(out, e.text)
		}
	}
	return out
}
