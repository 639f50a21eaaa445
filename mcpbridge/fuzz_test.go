package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/asktray/asktray/app/question"
)

// fuzzEnv is the MCP endpoint exactly as app builds it (guard, then mcp-go's
// stateful Streamable HTTP server, then our tools) with a person who
// declines every question at once, so blocking calls return. It counts the
// tool handler invocations and the questions that reached the journal.
type fuzzEnv struct {
	h      http.Handler
	bridge *Bridge
	broker *question.Broker
	sid    string // an initialized session
	known  string // the id of a real question, substituted for $ID in inputs
	calls  atomic.Int64
	begins atomic.Int64

	mu      sync.Mutex
	respond func(question.Question) question.Response // the person; nil declines
}

type countingJournal struct{ n *atomic.Int64 }

func (j countingJournal) Begin(context.Context, question.Question) error { j.n.Add(1); return nil }
func (j countingJournal) End(context.Context, question.Question, question.Result) error {
	return nil
}

func newFuzzEnv(tb testing.TB) *fuzzEnv {
	tb.Helper()
	e := &fuzzEnv{}
	e.broker = question.NewBroker(question.Config{Journal: countingJournal{&e.begins}})
	stop := e.broker.Subscribe(func(ev question.Event) {
		if ev.Type != question.EventAsked {
			return
		}
		r := question.Response{Action: question.Decline, Via: question.ViaDialog}
		e.mu.Lock()
		if e.respond != nil {
			r = e.respond(ev.Question)
		}
		e.mu.Unlock()
		if err := e.broker.Answer(ev.Question.ID, r); err != nil && r.Action == question.Accept {
			tb.Errorf("the broker refused an answer its check accepted: %v", err)
			_ = e.broker.Answer(ev.Question.ID, question.Response{Action: question.Decline})
		}
	})
	tb.Cleanup(func() { stop(); _ = e.broker.Close() })
	e.bridge = New(Config{Broker: e.broker, Version: "fuzz"})
	e.bridge.MCPServer().Use(func(next mcpserver.ToolHandlerFunc) mcpserver.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			e.calls.Add(1)
			return next(ctx, req)
		}
	})
	e.h = e.bridge.HTTPHandler(HTTPOptions{Token: testToken})
	w := e.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzzer","version":"1"}}}`, nil)
	e.sid = w.Header().Get("Mcp-Session-Id")
	if w.Code != http.StatusOK || e.sid == "" {
		tb.Fatalf("initialize: %d %s", w.Code, w.Body)
	}
	e.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil)
	q, err := e.broker.Ask(context.Background(), question.Question{Kind: question.KindText, Message: "known", FreeText: true})
	if err != nil {
		tb.Fatal(err)
	}
	e.known = q.ID
	return e
}

// post sends body as a well-formed request of the session, changed by mutate.
func (e *fuzzEnv) post(body string, mutate func(*http.Request)) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:7931/mcp", strings.NewReader(body))
	r.RemoteAddr = "127.0.0.1:40000"
	r.Header.Set("Authorization", "Bearer "+testToken)
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	if e.sid != "" {
		r.Header.Set("Mcp-Session-Id", e.sid)
	}
	if mutate != nil {
		mutate(r)
	}
	w := httptest.NewRecorder()
	e.h.ServeHTTP(w, r)
	return w
}

// refusals are the guard's refusals the HTTP fuzzer applies to its bodies;
// index 0 is a well-formed request.
var refusals = []struct {
	name   string
	mutate func(*http.Request)
	status int
}{
	{"ok", nil, 0},
	{"no_token", func(r *http.Request) { r.Header.Del("Authorization") }, 401},
	{"wrong_token", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+strings.Repeat("f", 64)) }, 401},
	{"wrong_host", func(r *http.Request) { r.Host = "evil.example:7931" }, 403},
	{"foreign_origin", func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, 403},
	{"null_origin", func(r *http.Request) { r.Header.Set("Origin", "null") }, 403},
	{"text_plain", func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") }, 415},
	{"remote_peer", func(r *http.Request) { r.RemoteAddr = "192.0.2.7:51000" }, 403},
}

// httpSeeds are JSON-RPC bodies: valid calls of every tool, the table tests'
// bad arguments, and duplicate or case-variant keys at both levels.
var httpSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":2,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ask_text","arguments":{"question":"q"}}}`,
	`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"ask_confirm","arguments":{"question":"rm?","destructive":true,"wait":false}}}`,
	`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"ask_choice","arguments":{"question":"q","options":[{"label":"a"},{"label":"b"}]}}}`,
	`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"ask_form","arguments":{"message":"m","requestedSchema":{"type":"object","properties":{"n":{"type":"string"}}}}}}`,
	`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"notify","arguments":{"message":"m"}}}`,
	`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"get_answer","arguments":{"question_id":"$ID","wait_seconds":0}}}`,
	`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"cancel_question","arguments":{"question_id":"nope"}}}`,
	`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"ask_text","arguments":{"question":"q","Question":"r"}}}`,
	`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"ask_text","arguments":{"question":"q","question":"r"}}}`,
	`{"jsonrpc":"2.0","id":12,"method":"ping","method":"tools/call","params":{"name":"ask_text","arguments":{"question":"q"}}}`,
	`{"jsonrpc":"2.0","id":13,"id":14,"Method":"tools/call","params":{"name":"notify","arguments":{"message":"m"}}}`,
	`{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"ask_text","name":"notify","arguments":{"message":"m"}}}`,
	`[{"jsonrpc":"2.0","id":16,"method":"ping"},{"jsonrpc":"2.0","id":17,"method":"tools/list"}]`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`,
	`{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"ask_user","arguments":{"question":"\u017fq","options":[{"label":"a"}],"timeout_seconds":1e99}}}`,
	`{"jsonrpc":"2.0","id":19,"method":"tools/call","params":{"name":"request_approval","arguments":{"action":"Deploy","details":"make deploy","risk":"high"}}}`,
	`{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"permission_prompt","arguments":{"tool_name":"Bash","input":{"command":"ls"},"tool_use_id":"t"}}}`,
	`{}`, `null`, `[]`, `{"jsonrpc":"2.0"`,
}

// FuzzHTTPBody sends raw bodies through the whole handler chain. A request
// the guard refuses gets its status and reaches no tool; a well-formed one
// never gets a 5xx, and every isError tool result names the field at fault.
func FuzzHTTPBody(f *testing.F) {
	for _, s := range httpSeeds {
		for v := range refusals {
			f.Add(uint8(v), []byte(s))
		}
	}
	e := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, variant uint8, body []byte) {
		rf := refusals[int(variant)%len(refusals)]
		body = bytes.ReplaceAll(body, []byte("$ID"), []byte(e.known))
		before := e.calls.Load()
		w := e.post(string(body), rf.mutate)
		if rf.status != 0 {
			if w.Code != rf.status {
				t.Fatalf("%s: status %d, want %d", rf.name, w.Code, rf.status)
			}
			if n := e.calls.Load() - before; n != 0 {
				t.Fatalf("%s: refused request reached %d tool calls", rf.name, n)
			}
			return
		}
		if w.Code >= 500 {
			t.Fatalf("status %d for %q: %s", w.Code, body, w.Body)
		}
		if e.calls.Load() == before {
			return
		}
		var msg struct {
			Params struct {
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &msg) // decoded as mcp-go does
		for _, res := range toolResults(w.Body.Bytes()) {
			if res.IsError {
				checkNamesField(t, res.Text, msg.Params.Arguments)
			}
		}
	})
}

// FuzzToolCall calls each tool with raw arguments through the real
// tools/call path. An isError result names a field and asks nothing; any
// other result is the structured result with a question id and a status,
// and asked at most one question.
func FuzzToolCall(f *testing.F) {
	seeds := []string{`{}`, `{"question":"q"}`, `{"question":"q","Question":"r"}`, `{"question":"q","question":"r"}`,
		`{"question":"q","wait":false}`, `{"question":"q","QUESTION":"q"}`, `{"question":"q","\u0071uestion":"r"}`,
		`{"question":"q","options":[{"label":"a"},{"label":"b"}],"timeout_seconds":5}`,
		`{"question":"q","options":[{"label":"a","label":"b"},{"label":"c"}]}`,
		`{"message":"m","requestedSchema":{"type":"object","properties":{"n":{"type":"string"}}}}`,
		`{"message":"m","requestedSchema":{"type":"object","Type":"array","properties":{}}}`,
		`{"message":"m","message":"n"}`, `{"question_id":"$ID"}`, `{"question_id":"$ID","wait_seconds":0}`,
		`{"question_id":"$ID","question_id":"x"}`, `{"question_id":"x","wait_seconds":1e99}`, `{"Question_Id":"$ID"}`,
		`[]`, `null`, `"q"`, `{"question":"\u017fq"}`, `{"question":"q","multiline":true,"min_length":3,"max_length":2}`,
		`{"question":"q","destructive":"yes"}`, `{"question":"q","wait":"yes"}`, `{"question":"q","timeout_seconds":1e99}`,
		`{"":1}`, `{": ":""}`, `{"a\"b":1,"a\"b":2}`,
		`{"action":"Deploy to production","details":"make deploy","risk":"high"}`, `{"action":"Run tests","Action":"Deploy"}`,
		`{"tool_name":"Bash","input":{"command":"ls"},"tool_use_id":"t1"}`, `{"tool_name":"Bash","tool_name":"Edit","input":{}}`,
		`{"tool_name":"Bash","Tool_Name":"Edit","input":{"command":"rm -rf /"}}`, `{"tool_name":"Bash","input":[]}`}
	for _, s := range seeds {
		for _, tool := range ToolNames {
			f.Add(tool, []byte(s))
		}
	}
	e := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, tool string, raw []byte) {
		if !slices.Contains(ToolNames, tool) {
			return
		}
		raw = bytes.ReplaceAll(raw, []byte("$ID"), []byte(e.known))
		if !json.Valid(raw) {
			return // not a tools/call mcp-go would parse; FuzzHTTPBody covers those
		}
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
			"params": map[string]any{"name": tool, "arguments": json.RawMessage(raw)}})
		calls, begins := e.calls.Load(), e.begins.Load()
		w := e.post(string(body), nil)
		if w.Code != http.StatusOK {
			t.Fatalf("status %d: %s", w.Code, w.Body)
		}
		res := toolResults(w.Body.Bytes())
		if len(res) != 1 || e.calls.Load()-calls != 1 {
			t.Fatalf("want one tool call and one result, got %d calls: %s", e.calls.Load()-calls, w.Body)
		}
		asked := e.begins.Load() - begins
		if tool == ToolPermission {
			checkPermission(t, res[0], asked)
			return
		}
		if res[0].IsError {
			checkNamesField(t, res[0].Text, raw)
			if asked != 0 {
				t.Fatalf("refused call %s asked %d questions: %s", raw, asked, res[0].Text)
			}
			return
		}
		if asked > 1 {
			t.Fatalf("one call asked %d questions", asked)
		}
		var out struct {
			QuestionID string `json:"question_id"`
			Status     string `json:"status"`
		}
		if err := json.Unmarshal([]byte(res[0].Text), &out); err != nil || out.QuestionID == "" || out.Status == "" {
			t.Fatalf("result without question_id and status: %s", res[0].Text)
		}
		if !json.Valid(res[0].Structured) || !jsonEqual(res[0].Structured, []byte(res[0].Text)) {
			t.Fatalf("structuredContent %s differs from text %s", res[0].Structured, res[0].Text)
		}
	})
}

// checkPermission checks a permission_prompt result: Claude Code reads only
// its text, which must say allow or deny; with a person who declines
// everything it is never allow, and a request it could not read asks nothing.
func checkPermission(t *testing.T, res fuzzResult, asked int64) {
	t.Helper()
	var pr permissionResult
	if res.IsError || json.Unmarshal([]byte(res.Text), &pr) != nil || (pr.Behavior != "allow" && pr.Behavior != "deny") {
		t.Fatalf("permission_prompt result Claude Code cannot read: %+v", res)
	}
	if pr.Behavior == "allow" {
		t.Fatalf("permission_prompt allowed though the person declined: %s", res.Text)
	}
	if strings.Contains(pr.Message, "could not read") && asked != 0 {
		t.Fatalf("unreadable permission request asked %d questions: %s", asked, res.Text)
	}
	if asked > 1 {
		t.Fatalf("one permission request asked %d questions", asked)
	}
}

type fuzzResult struct {
	IsError    bool
	Text       string
	Structured json.RawMessage
}

// toolResults extracts the tools/call results from a JSON or SSE response body.
func toolResults(body []byte) []fuzzResult {
	var out []fuzzResult
	for line := range bytes.SplitSeq(body, []byte("\n")) {
		line = bytes.TrimPrefix(bytes.TrimSpace(line), []byte("data: "))
		var msg struct {
			Result *struct {
				IsError bool `json:"isError"`
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
				Structured json.RawMessage `json:"structuredContent"`
			} `json:"result"`
		}
		if json.Unmarshal(line, &msg) != nil || msg.Result == nil || len(msg.Result.Content) == 0 {
			continue
		}
		out = append(out, fuzzResult{msg.Result.IsError, msg.Result.Content[0].Text, msg.Result.Structured})
	}
	return out
}

// checkNamesField fails unless msg starts with "<field>: " where field is
// "arguments", one of the tools' argument names (with a path), or a key
// of raw, the arguments sent. Real faults ("could not handle") fail too.
func checkNamesField(t *testing.T, msg string, raw []byte) {
	t.Helper()
	if strings.Contains(msg, "could not handle this call") {
		t.Fatalf("fuzz input caused a real fault: %s", msg)
	}
	field, _, ok := strings.Cut(msg, ": ")
	if q, err := strconv.QuotedPrefix(msg); err == nil {
		// A key that is not a plain name is quoted.
		field, _ = strconv.Unquote(q)
		ok = strings.HasPrefix(msg[len(q):], ": ")
	}
	if !ok {
		t.Fatalf("isError %q names no field", msg)
	}
	if field == "arguments" || isArgName(field) {
		return
	}
	if slices.Contains(topKeys(raw), field) {
		return
	}
	t.Fatalf("isError %q: %q is not an argument name", msg, field)
}

// isArgName reports whether field's first segment is an argument some tool takes.
func isArgName(field string) bool {
	head := field
	if i := strings.IndexAny(head, ".["); i >= 0 {
		head = head[:i]
	}
	for _, tl := range Tools() {
		var in struct{ Properties map[string]json.RawMessage }
		if json.Unmarshal(tl.RawInputSchema, &in) == nil {
			if _, ok := in.Properties[head]; ok {
				return true
			}
		}
	}
	return false
}

// topKeys returns the keys of a JSON object, in order, duplicates kept.
func topKeys(raw []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return keys
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

// roundTripTools are the ask tools FuzzAnswerRoundTrip asks with.
var roundTripTools = []struct{ tool, args, field string }{
	{ToolAskText, `{"question":"Name?","max_length":20}`, "answer"},
	{ToolAskUser, `{"question":"Which?","options":[{"label":"a"},{"label":"b"}]}`, "answer"},
	{ToolAskConfirm, `{"question":"Proceed?"}`, "answer"},
	{ToolAskChoice, `{"question":"Pick","options":[{"label":"a"},{"label":"b"}],"free_text":true}`, "selected"},
	{ToolAskMultiSelect, `{"question":"Pick some","options":[{"label":"a"},{"label":"b"},{"label":"c"}],"max_selections":2}`, "selected"},
	{ToolAskForm, `{"message":"Details","requestedSchema":{"type":"object","properties":{"name":{"type":"string","maxLength":10},"age":{"type":"integer","minimum":0},"ok":{"type":"boolean"},"size":{"type":"string","enum":["S","M"]}},"required":["name"]}}`, "content"},
}

// FuzzAnswerRoundTrip asks through the whole HTTP chain and has the person
// answer with the fuzzed value. A value the answer check accepts reaches
// the agent as exactly its canonical form; one it refuses never reaches the
// agent (the person then declines, and the agent sees declined).
func FuzzAnswerRoundTrip(f *testing.F) {
	for _, v := range []string{`"hi"`, `"yes"`, `"no"`, `false`, `true`, `"a"`, `["a","b"]`, `["b"]`, `{"selected":"b","free_text":"n"}`,
		`{"name":"Ada","age":7}`, `{"name":"Ada","name":"Bob"}`, `{"name":"Ada","Name":"Bob"}`, `{"selected":"a","selected":"b"}`,
		`{"name":"\u0041da","ok":true,"size":"M"}`, `1`, `null`, `""`, `"` + strings.Repeat("x", 21) + `"`, `["a","a"]`, `{}`} {
		for i := range roundTripTools {
			f.Add(uint8(i), []byte(v))
		}
	}
	e := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, i uint8, value []byte) {
		tc := roundTripTools[int(i)%len(roundTripTools)]
		var want question.Response
		var wantErr error
		e.mu.Lock()
		e.respond = func(q question.Question) question.Response {
			want, wantErr = q.CheckResponse(question.Response{Action: question.Accept, Value: value})
			if wantErr != nil {
				return question.Response{Action: question.Decline, Via: question.ViaDialog}
			}
			return question.Response{Action: question.Accept, Value: value, Via: question.ViaDialog}
		}
		e.mu.Unlock()
		defer func() { e.mu.Lock(); e.respond = nil; e.mu.Unlock() }()
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tc.tool + `","arguments":` + tc.args + `}}`
		w := e.post(body, nil)
		res := toolResults(w.Body.Bytes())
		if w.Code != http.StatusOK || len(res) != 1 || res[0].IsError {
			t.Fatalf("ask: %d %s", w.Code, w.Body)
		}
		var out map[string]json.RawMessage
		if err := json.Unmarshal([]byte(res[0].Text), &out); err != nil {
			t.Fatal(err)
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		status := string(out["status"])
		if wantErr != nil {
			if status != `"declined"` || out[tc.field] != nil && tc.field != "selected" {
				t.Fatalf("refused value %q: agent got %s", value, res[0].Text)
			}
			return
		}
		got := out[tc.field]
		if got == nil && tc.field == "selected" {
			got = json.RawMessage(`[]`)
		}
		if status != `"answered"` || !jsonEqual(got, want.Value) {
			t.Fatalf("value %q, canonical %s: agent got %s %s", value, want.Value, status, got)
		}
	})
}
