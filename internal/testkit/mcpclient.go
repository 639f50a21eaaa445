package testkit

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bearer is an http.RoundTripper that sends each request through Base (the
// default transport when nil) with the app's bearer token.
type Bearer struct {
	Token string
	Base  http.RoundTripper
}

// RoundTrip sends a copy of r with the Authorization header set.
func (b Bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	base := b.Base
	if base == nil {
		base = http.DefaultTransport
	}
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.Token)
	return base.RoundTrip(r)
}

// ConnectMCP connects the official Go SDK client, as name, to the app's MCP
// endpoint url with its token, waiting at most timeout for the handshake;
// the session closes when t ends. It blocks; any goroutine may call it.
func ConnectMCP(t testing.TB, url, token, name string, timeout time.Duration) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: name, Version: "2.1.3"}, nil)
	tr := &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: Bearer{Token: token}}}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	s, err := c.Connect(ctx, tr, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// CallToolAsync calls tool on s in the background and returns at once; the
// channel gets the call's structured result, or {"error": …}.
func CallToolAsync(s *sdk.ClientSession, tool string, args map[string]any) <-chan map[string]any {
	done := make(chan map[string]any, 1)
	go func() {
		r, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			done <- map[string]any{"error": err.Error()}
			return
		}
		var m map[string]any
		b, _ := json.Marshal(r.StructuredContent)
		_ = json.Unmarshal(b, &m)
		done <- m
	}()
	return done
}

// WaitToolResult waits at most timeout for CallToolAsync's result and fails
// t without one. It blocks.
func WaitToolResult(t testing.TB, c <-chan map[string]any, timeout time.Duration) map[string]any {
	t.Helper()
	select {
	case m := <-c:
		return m
	case <-time.After(timeout):
		t.Fatalf("no result from the tool call within %v", timeout)
		return nil
	}
}
