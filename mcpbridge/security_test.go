package mcpbridge

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestSecurityTable sends a tools/call that would ask a question, on an
// initialized session, in every way the guard must refuse. Each gets its
// status and reaches no tool (counted by a tool middleware, so the count
// would move if the guard let one through). The last row, well-formed, does
// reach the tool: the count can move.
func TestSecurityTable(t *testing.T) {
	t.Parallel()
	e := newFuzzEnv(t)
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_text","arguments":{"question":"q","wait":false}}}`
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_text","arguments":{"question":"` + strings.Repeat("a", MaxBody) + `"}}}`
	cases := []struct {
		name   string
		method string
		body   string
		mutate func(*http.Request)
		want   int
	}{
		{"no_token", "POST", call, func(r *http.Request) { r.Header.Del("Authorization") }, 401},
		{"wrong_token", "POST", call, func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+strings.Repeat("0", 64)) }, 401},
		{"token_prefix", "POST", call, func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+testToken[:32]) }, 401},
		{"token_without_bearer", "POST", call, func(r *http.Request) { r.Header.Set("Authorization", testToken) }, 401},
		{"basic_auth", "POST", call, func(r *http.Request) { r.SetBasicAuth("asktray", testToken) }, 401},
		{"token_in_query", "POST", call, func(r *http.Request) {
			r.Header.Del("Authorization")
			r.URL.RawQuery = "token=" + testToken + "&access_token=" + testToken
		}, 401},
		{"token_in_cookie", "POST", call, func(r *http.Request) {
			r.Header.Del("Authorization")
			r.AddCookie(&http.Cookie{Name: "token", Value: testToken})
		}, 401},
		{"get_stream_no_token", "GET", "", func(r *http.Request) { r.Header.Del("Authorization") }, 401},
		{"delete_session_no_token", "DELETE", "", func(r *http.Request) { r.Header.Del("Authorization") }, 401},
		{"wrong_host", "POST", call, func(r *http.Request) { r.Host = "evil.example:7931" }, 403},
		{"rebound_host_no_port", "POST", call, func(r *http.Request) { r.Host = "attacker.test" }, 403},
		{"loopback_lookalike_host", "POST", call, func(r *http.Request) { r.Host = "127.0.0.1.evil.example" }, 403},
		{"foreign_origin", "POST", call, func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, 403},
		{"null_origin", "POST", call, func(r *http.Request) { r.Header.Set("Origin", "null") }, 403},
		{"file_origin", "POST", call, func(r *http.Request) { r.Header.Set("Origin", "file://") }, 403},
		{"oversized_body", "POST", big, nil, 413},
		{"wrong_content_type", "POST", call, func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") }, 415},
		{"form_content_type", "POST", call, func(r *http.Request) { r.Header.Set("Content-Type", "application/x-www-form-urlencoded") }, 415},
		{"no_content_type", "POST", call, func(r *http.Request) { r.Header.Del("Content-Type") }, 415},
		{"non_loopback_peer", "POST", call, func(r *http.Request) { r.RemoteAddr = "192.0.2.7:51000" }, 403},
		{"non_loopback_peer_v6", "POST", call, func(r *http.Request) { r.RemoteAddr = "[2001:db8::1]:51000" }, 403},
	}
	for _, tc := range cases {
		before, asked := e.calls.Load(), e.begins.Load()
		w := e.post(tc.body, func(r *http.Request) {
			r.Method = tc.method
			if tc.mutate != nil {
				tc.mutate(r)
			}
		})
		if w.Code != tc.want {
			t.Errorf("%s: status %d, want %d: %s", tc.name, w.Code, tc.want, w.Body)
		}
		if tc.want == 401 && w.Header().Get("WWW-Authenticate") == "" {
			t.Errorf("%s: 401 without WWW-Authenticate", tc.name)
		}
		if n, q := e.calls.Load()-before, e.begins.Load()-asked; n != 0 || q != 0 {
			t.Errorf("%s: refused request reached %d tool calls and asked %d questions", tc.name, n, q)
		}
	}
	// The same call, well-formed, reaches the tool once.
	before := e.calls.Load()
	if w := e.post(call, nil); w.Code != 200 || e.calls.Load()-before != 1 {
		t.Fatalf("well-formed call: status %d, %d tool calls: %s", w.Code, e.calls.Load()-before, w.Body)
	}
}

// TestNoToolDecidesOrReadsQuestions checks the tool list: no tool answers,
// lists, searches or reads questions. Only get_answer and cancel_question
// take a question id, and nothing else; no tool takes an argument that
// carries a decision or a query; no name or description offers one.
func TestNoToolDecidesOrReadsQuestions(t *testing.T) {
	t.Parallel()
	decisionArgs := []string{"answer", "answers", "value", "response", "reply", "decision", "decide", "outcome", "approve",
		"approved", "allow", "deny", "confirmed", "selected", "content", "result", "status", "decided_by", "answered_by",
		"question_ids", "ids", "query", "search", "filter", "cursor", "offset", "page", "limit", "client", "session_id", "all"}
	badName := regexp.MustCompile(`(?i)(answer|respond|reply|approve|decide|list|search|history|read|pending|export)`)
	badDesc := regexp.MustCompile(`(?i)\b(list|search|browse|read|export|enumerate)\w*\b[^.]{0,40}\b(questions|history|answers)\b|\banswer (a|any|another|other|someone)\b[^.]{0,30}\bquestion|\bother (agents|clients|sessions)\b`)
	for _, tl := range Tools() {
		var in struct {
			Properties           map[string]json.RawMessage `json:"properties"`
			AdditionalProperties *bool                      `json:"additionalProperties"`
		}
		if err := json.Unmarshal(tl.RawInputSchema, &in); err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		// permission_prompt follows Claude Code's contract: it ignores keys it
		// does not know (Claude Code may add some), matching names exactly.
		if tl.Name != ToolPermission && (in.AdditionalProperties == nil || *in.AdditionalProperties) {
			t.Errorf("%s: input schema allows extra arguments", tl.Name)
		}
		for p := range in.Properties {
			if slices.Contains(decisionArgs, strings.ToLower(p)) {
				t.Errorf("%s takes %q, an argument that decides or queries questions", tl.Name, p)
			}
		}
		_, takesID := in.Properties["question_id"]
		switch tl.Name {
		case ToolGetAnswer, ToolCancelQuestion:
			for p := range in.Properties {
				if p != "question_id" && p != "wait_seconds" {
					t.Errorf("%s takes %q besides the question id", tl.Name, p)
				}
			}
			if !takesID {
				t.Errorf("%s takes no question_id", tl.Name)
			}
		default:
			if takesID {
				t.Errorf("%s takes a question_id", tl.Name)
			}
			if badName.MatchString(tl.Name) {
				t.Errorf("tool name %q suggests it answers or reads questions", tl.Name)
			}
		}
		if m := badDesc.FindString(tl.Description); m != "" {
			t.Errorf("%s description offers %q", tl.Name, m)
		}
	}
}
