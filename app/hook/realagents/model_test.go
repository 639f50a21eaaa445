//go:build realagents

package realagents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// model is a fake model provider on loopback that speaks just enough of
// Anthropic Messages (Claude Code), OpenAI Responses (Codex), OpenAI chat
// completions (Copilot CLI) and Gemini's generateContent (Gemini CLI),
// streaming or not, for one turn of the kind the
// suite needs: the person's prompt names a shell command as RUN<<command>>;
// the model answers with one call of the agent's shell tool running it, and,
// once the agent sends the tool's result back, with one text reply quoting
// it (REPLY<<result>>). Requests without the agent's shell tool (titles,
// summaries, quota checks) get a short text reply. Every request is
// recorded.
type model struct {
	t    *testing.T
	url  string // http://127.0.0.1:PORT
	mu   sync.Mutex
	reqs []modelRequest
	n    int // responses so far, for unique ids
}

// id returns a fresh id with prefix: agents keep tool calls by id, so a
// second call under the first one's id is lost.
func (m *model) id(prefix string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n++
	return fmt.Sprintf("%s_fake%04d", prefix, m.n)
}

// modelRequest is one request an agent sent the model.
type modelRequest struct {
	Method, Path string
	Body         json.RawMessage
}

var (
	runRE = regexp.MustCompile(`RUN<<(.+?)>>`)
	askRE = regexp.MustCompile(`ASK<<(.+?)>>`)
	mcpRE = regexp.MustCompile(`MCP<<(.+?)>>`)
)

// startModel serves the fake model until the test ends.
func startModel(t *testing.T) *model {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := &model{t: t, url: "http://" + ln.Addr().String()}
	srv := &http.Server{Handler: m} //nolint:gosec // a test server on loopback
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() {
		_ = srv.Close()
		if dir := os.Getenv("REALAGENTS_DUMP"); dir != "" && t.Failed() {
			for i, r := range m.requests() {
				_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%03d.json", strings.ReplaceAll(t.Name(), "/", "_"), i)), []byte(mustJSON(r)), 0o600)
			}
		}
	})
	return m
}

// requests returns a copy of what the agents sent so far.
func (m *model) requests() []modelRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]modelRequest(nil), m.reqs...)
}

// saw reports whether some request held s.
func (m *model) saw(s string) bool {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	_ = e.Encode(s)
	js := strings.TrimSpace(b.String())
	js = js[1 : len(js)-1] // as it appears inside a JSON string
	for _, r := range m.requests() {
		if strings.Contains(string(r.Body), js) {
			return true
		}
	}
	return false
}

// sentResult reports whether some request carried a tool result holding s
// back to the model (the agent's tool output, or the denial it got): s
// must be inside a tool result itself, not anywhere in the request (the
// prompt, the agent's own context), so a note that never reached the
// model as the tool's result does not count.
func (m *model) sentResult(s string) bool {
	for _, r := range m.requests() {
		for _, res := range toolResults(r.Body) {
			if strings.Contains(res, s) {
				return true
			}
		}
	}
	return false
}

// toolResults are the texts of the tool results in a request of any of the
// three wire formats: Anthropic's tool_result blocks, Responses'
// function_call_output items, chat completions' tool messages.
func toolResults(body []byte) []string {
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Input []struct {
			Type   string          `json:"type"`
			Output json.RawMessage `json:"output"`
		} `json:"input"`
	}
	if json.Unmarshal(body, &req) != nil {
		return nil
	}
	var out []string
	for _, msg := range req.Messages {
		if msg.Role == "tool" {
			out = append(out, outputText(msg.Content))
			continue
		}
		var blocks []anthropicBlock
		if json.Unmarshal(msg.Content, &blocks) == nil {
			for _, b := range blocks {
				if b.Type == "tool_result" {
					out = append(out, textOf(b.Content))
				}
			}
		}
	}
	for _, in := range req.Input {
		if in.Type == "function_call_output" {
			out = append(out, outputText(in.Output))
		}
	}
	return append(out, geminiResults(body)...)
}

func (m *model) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	m.mu.Lock()
	rec := modelRequest{Method: r.Method, Path: r.URL.Path}
	if json.Valid(body) {
		rec.Body = body
	}
	m.reqs = append(m.reqs, rec)
	m.mu.Unlock()
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/messages/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 100})
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/messages"):
		m.anthropic(w, body)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/responses"):
		m.responses(w, body)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		m.chat(w, body)
	case r.Method == http.MethodPost && (strings.HasSuffix(r.URL.Path, ":streamGenerateContent") || strings.HasSuffix(r.URL.Path, ":generateContent")):
		m.gemini(w, r, body)
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		writeJSON(w, modelList())
	default:
		http.NotFound(w, r)
	}
}

// fakeModel is the model name every provider reports.
const fakeModel = "fake-model"

func modelList() map[string]any {
	return map[string]any{"object": "list", "data": []any{map[string]any{
		"id": fakeModel, "object": "model", "created": 0, "owned_by": "asktray-test",
		"type": "model", "display_name": "Fake model", "created_at": "2026-01-01T00:00:00Z",
	}}}
}

// turn is what the model does next for a request: call the shell with
// command, or reply with text.
type turn struct {
	command string
	text    string
	ask     string // Claude Code: ask the person this with AskUserQuestion
	mcp     string // Claude Code: ask the person this with Asktray's ask_user
}

// event is a step of the conversation the model reads: the person's text
// (a prompt) or a tool's result.
type event struct {
	result bool
	text   string
}

// decide reads the conversation: when its last step is a tool's result the
// model replies quoting it; when it is a RUN<<…>> prompt and the agent
// offers its shell tool, the model calls it; ASK<<…>> and MCP<<…>> ask the
// person through AskUserQuestion and Asktray's ask_user; else it says ok.
func decide(events []event, haveShell bool) turn {
	for _, e := range slices.Backward(events) {
		if e.result {
			return turn{text: "REPLY<<" + e.text + ">>"}
		}
		if m := askRE.FindStringSubmatch(e.text); m != nil {
			return turn{ask: m[1]}
		}
		if m := mcpRE.FindStringSubmatch(e.text); m != nil {
			return turn{mcp: m[1]}
		}
		if m := runRE.FindAllStringSubmatch(e.text, -1); m != nil {
			if haveShell {
				return turn{command: m[len(m)-1][1]}
			}
			break
		}
	}
	return turn{text: "ok"}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// sse writes one server-sent event (event may be "" for data-only streams).
func sse(w io.Writer, event string, data any) {
	b, _ := json.Marshal(data)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func startSSE(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
