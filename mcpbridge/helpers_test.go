package mcpbridge

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/question"
)

const testToken = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// env is a bridge served over real HTTP with a real broker and history.
type env struct {
	url    string
	broker *question.Broker
	store  history.Store
	bridge *Bridge
}

func newEnv(t *testing.T, cfg Config) *env {
	t.Helper()
	store := historytest.New(t)
	b := question.NewBroker(question.Config{Journal: store})
	cfg.Broker = b
	cfg.Version = "test"
	br := New(cfg)
	mux := http.NewServeMux()
	mux.Handle("/mcp", br.HTTPHandler(HTTPOptions{Token: testToken}))
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		_ = b.Close()
	})
	return &env{url: srv.URL + "/mcp", broker: b, store: store, bridge: br}
}

// bearer adds the token to every request.
type bearer struct{ base http.RoundTripper }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+testToken)
	return b.base.RoundTrip(r)
}

// connect opens a session of the official Go SDK client, as today's agents
// do (protocol 2025-11-25, with initialize).
func (e *env) connect(t *testing.T, name string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1.0"}, opts)
	tr := &mcp.StreamableClientTransport{Endpoint: e.url, HTTPClient: &http.Client{Transport: bearer{http.DefaultTransport}}, MaxRetries: -1}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := c.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// call calls a tool and returns its structured result as a map, failing on
// protocol errors. isError results come back with isErr set.
func call(t *testing.T, ctx context.Context, s *mcp.ClientSession, tool string, args any) (res map[string]any, text string, isErr bool) {
	t.Helper()
	r, err := s.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return decodeResult(t, r)
}

func decodeResult(t *testing.T, r *mcp.CallToolResult) (map[string]any, string, bool) {
	t.Helper()
	if len(r.Content) > 0 {
		if tc, ok := r.Content[0].(*mcp.TextContent); ok {
			if r.IsError {
				return nil, tc.Text, true
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(tc.Text), &m); err != nil {
				t.Fatalf("text content is not the JSON result: %q", tc.Text)
			}
			sc, _ := json.Marshal(r.StructuredContent)
			var sm map[string]any
			_ = json.Unmarshal(sc, &sm)
			if string(mustJSON(sm)) != string(mustJSON(m)) {
				t.Fatalf("structuredContent %s differs from text %s", sc, tc.Text)
			}
			return m, tc.Text, false
		}
	}
	t.Fatalf("result without text content: %+v", r)
	return nil, "", false
}

// person answers the next question that gets asked from now on with resp,
// and returns its id.
func (e *env) person(t *testing.T, resp question.Response) <-chan string {
	t.Helper()
	asked := make(chan question.Question, 16)
	// Events are delivered asynchronously: an earlier question's Asked
	// event may still arrive after this subscription, so skip those.
	since := time.Now()
	cancel := e.broker.Subscribe(func(ev question.Event) {
		if ev.Type == question.EventAsked && !ev.Question.Created.Before(since) {
			asked <- ev.Question
		}
	})
	out := make(chan string, 1)
	go func() {
		defer cancel()
		select {
		case q := <-asked:
			if err := e.broker.Answer(q.ID, resp); err != nil {
				t.Errorf("answer: %v", err)
			}
			out <- q.ID
		case <-time.After(10 * time.Second):
			t.Error("no question was asked")
			close(out)
		}
	}()
	return out
}

// waitPending waits until n questions are pending and returns them.
func (e *env) waitPending(t *testing.T, n int) []question.Question {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		p := e.broker.Pending()
		if len(p) == n {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d pending, want %d", len(p), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func accept(v string) question.Response {
	return question.Response{Action: question.Accept, Value: json.RawMessage(v), Via: question.ViaDialog}
}
