package mcpbridge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
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
	rev    string // the protocol revision connect negotiates; "" means legacy
}

// The protocol revisions every client scenario runs at: today's agents
// (initialize, a session) and 2026-07-28 (no handshake, no session; the
// version and the client in each request's _meta).
const (
	legacy = "2025-11-25"
	modern = "2026-07-28"
)

// eachRevision runs f as a parallel subtest per protocol revision, named
// after it: one scenario, a matrix over both revisions.
func eachRevision(t *testing.T, f func(t *testing.T, rev string)) {
	for _, rev := range []string{legacy, modern} {
		t.Run(rev, func(t *testing.T) {
			t.Parallel()
			f(t, rev)
		})
	}
}

// at makes e's clients negotiate rev.
func (e *env) at(rev string) *env { e.rev = rev; return e }

// idOf is the question id a question_id names: the id itself, or, for a
// caller without a session, the id part of its handle.
func idOf(ref any) string {
	s, _ := ref.(string)
	id, _, _ := strings.Cut(s, ".")
	return id
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

// connect opens a session of the official Go SDK client at e's revision:
// as today's agents do (2025-11-25, with initialize), or at 2026-07-28.
func (e *env) connect(t *testing.T, name string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1.0"}, opts)
	tr := &mcp.StreamableClientTransport{Endpoint: e.url, HTTPClient: &http.Client{Transport: bearer{http.DefaultTransport}}, MaxRetries: -1}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if e.rev == modern {
		c.AddSendingMiddleware(keyEachCall(question.NewID()))
	}
	rev := e.rev
	if rev == "" {
		rev = legacy
	}
	s, err := c.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: rev})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// keyEachCall is a client without a session that names each call by an
// idempotency key: the same tool and arguments get the same key from one
// client (salt), so that a re-issued call re-attaches, as a session does at
// 2025-11-25; another client's keys differ.
func keyEachCall(salt string) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if p, ok := req.GetParams().(*mcp.CallToolParams); ok && method == "tools/call" && p.Meta[MetaIdempotencyKey] == nil {
				args, _ := json.Marshal(p.Arguments)
				sum := sha256.Sum256(append([]byte(salt+"\x00"+p.Name+"\x00"), args...))
				if p.Meta == nil {
					p.Meta = mcp.Meta{}
				}
				p.Meta[MetaIdempotencyKey] = hex.EncodeToString(sum[:16])
			}
			return next(ctx, method, req)
		}
	}
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
