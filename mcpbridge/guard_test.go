package mcpbridge

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/question"
)

// TestGuardMatrix sends requests that must never reach a tool, and one that must.
func TestGuardMatrix(t *testing.T) {
	t.Parallel()
	b := question.NewBroker(question.Config{})
	defer b.Close()
	br := New(Config{Broker: b})
	h := br.HTTPHandler(HTTPOptions{Token: testToken})
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_text","arguments":{"question":"q","wait":false}}}`
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	good := func(r *http.Request) {
		r.Header.Set("Authorization", "Bearer "+testToken)
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
	}
	cases := []struct {
		name   string
		body   string
		mutate func(*http.Request)
		want   int
	}{
		{"no_token", call, func(r *http.Request) { r.Header.Del("Authorization") }, 401},
		{"wrong_token", call, func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+strings.Repeat("0", 64)) }, 401},
		{"basic_auth", call, func(r *http.Request) { r.SetBasicAuth("x", testToken) }, 401},
		{"token_in_query", call, func(r *http.Request) {
			r.Header.Del("Authorization")
			r.URL.RawQuery = "token=" + testToken + "&access_token=" + testToken
		}, 401},
		{"wrong_host", call, func(r *http.Request) { r.Host = "evil.example:7931" }, 403},
		{"rebinding_host_no_port", call, func(r *http.Request) { r.Host = "attacker.test" }, 403},
		{"foreign_origin", call, func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, 403},
		{"null_origin", call, func(r *http.Request) { r.Header.Set("Origin", "null") }, 403},
		{"file_origin", call, func(r *http.Request) { r.Header.Set("Origin", "file://") }, 403},
		{"oversized_body", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_text","arguments":{"question":"` + strings.Repeat("a", MaxBody) + `"}}}`, nil, 413},
		{"wrong_content_type", call, func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") }, 415},
		{"form_content_type", call, func(r *http.Request) { r.Header.Set("Content-Type", "application/x-www-form-urlencoded") }, 415},
		{"non_loopback_peer", call, func(r *http.Request) { r.RemoteAddr = "192.0.2.7:51000" }, 403},
		{"loopback_origin_ok", init, func(r *http.Request) { r.Header.Set("Origin", "http://localhost:6274") }, 200},
		{"localhost_host_ok", init, func(r *http.Request) { r.Host = "localhost:7931" }, 200},
		{"ok", init, nil, 200},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:7931/mcp", strings.NewReader(tc.body))
			r.RemoteAddr = "127.0.0.1:40000"
			good(r)
			if tc.mutate != nil {
				tc.mutate(r)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tc.want {
				t.Fatalf("status %d, want %d: %s", w.Code, tc.want, w.Body)
			}
			if tc.want == 401 && w.Header().Get("WWW-Authenticate") == "" {
				t.Fatal("401 without WWW-Authenticate")
			}
		})
	}
	// None of the refused tools/call requests reached a tool.
	if n := len(b.Pending()); n != 0 {
		t.Fatalf("%d questions asked through refused requests", n)
	}
}

func TestHostAndOrigin(t *testing.T) {
	t.Parallel()
	for host, want := range map[string]bool{"127.0.0.1:1": true, "localhost": true, "[::1]:80": true, "127.1.2.3": true,
		"LOCALHOST:9": true, "evil.com": false, "127.0.0.1.evil.com": false, "": false, "0.0.0.0:7931": false} {
		if got := hostAllowed(host, nil); got != want {
			t.Errorf("hostAllowed(%q) = %v", host, got)
		}
	}
	for origin, want := range map[string]bool{"http://localhost:6274": true, "https://127.0.0.1": true, "null": false,
		"http://evil.com": false, "chrome-extension://abc": false, "http://localhost.evil.com": false} {
		if got := originAllowed(origin, nil); got != want {
			t.Errorf("originAllowed(%q) = %v", origin, got)
		}
	}
	if !hostAllowed("192.168.1.5:7931", []string{"192.168.1.5"}) {
		t.Error("extra host refused")
	}
}

// TestGuardCurrentToken checks that a token swapped in while serving is the
// only one accepted from the next request on, and that an empty token
// accepts nobody.
func TestGuardCurrentToken(t *testing.T) {
	t.Parallel()
	b := question.NewBroker(question.Config{})
	defer b.Close()
	tok := testToken
	h := New(Config{Broker: b}).HTTPHandler(HTTPOptions{Token: "ignored", CurrentToken: func() string { return tok }})
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	status := func(bearer string) int {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:7931/mcp", strings.NewReader(init))
		r.RemoteAddr = "127.0.0.1:40000"
		r.Header.Set("Authorization", "Bearer "+bearer)
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	if got := status(testToken); got != 200 {
		t.Fatalf("current token: %d", got)
	}
	if got := status("ignored"); got != 401 {
		t.Fatalf("static Token accepted while CurrentToken is set: %d", got)
	}
	old := tok
	tok = strings.Repeat("b", 64)
	if got := status(old); got != 401 {
		t.Fatalf("old token after the swap: %d", got)
	}
	if got := status(tok); got != 200 {
		t.Fatalf("new token: %d", got)
	}
	tok = ""
	if got := status(""); got != 401 {
		t.Fatalf("empty token accepted: %d", got)
	}
}
