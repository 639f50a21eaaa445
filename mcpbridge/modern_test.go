package mcpbridge

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/question"
)

// modernCall is a tools/call of MCP 2026-07-28 as it goes on the wire: no
// session, the version, the client and its capabilities in _meta, and key
// as the idempotency key.
func modernCall(id int, tool, args, key string) string {
	return `{"jsonrpc":"2.0","id":` + strings.Repeat("1", id) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw-modern","version":"1"},` +
		`"io.modelcontextprotocol/clientCapabilities":{},"` + MetaIdempotencyKey + `":"` + key + `"}}}`
}

// postModern POSTs body with the headers 2026-07-28 requires; it returns
// when the response ends or ctx does (the stream dropped).
func postModern(ctx context.Context, url, tool, body string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return "", err
	}
	for k, v := range map[string]string{"Authorization": "Bearer " + testToken, "Content-Type": "application/json",
		"Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": modern, "Mcp-Method": "tools/call", "Mcp-Name": tool} {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var b strings.Builder
	_, err = io.Copy(&b, resp.Body)
	return b.String(), err
}

// TestModernDroppedStreamReissue: at 2026-07-28 a dropped response stream
// loses the call and the client re-issues it with a new request id. A call
// whose stream dropped mid-wait leaves its question open; the person's
// late answer reaches the re-issued call (same idempotency key) exactly
// once, with no second dialog; the next re-issue asks anew.
func TestModernDroppedStreamReissue(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{DefaultWindow: 2 * time.Second})
	const key = "k-0123456789abcdef-dropped"
	args := `{"question":"Which port?"}`
	ctx, drop := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := postModern(ctx, e.url, ToolAskText, modernCall(1, ToolAskText, args, key))
		errc <- err
	}()
	q := e.waitPending(t, 1)[0]
	// The question is pending (Broker.Ask returned) a moment before the
	// call records it under its key; a re-issue before that would ask
	// anew. Under load that moment was long enough once: wait for it.
	for deadline := time.Now().Add(10 * time.Second); !e.bridge.attach.asked(q.ID); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the call never recorded its question under its key")
		}
	}
	drop() // the stream drops mid-wait, with no notifications/cancelled
	if err := <-errc; err == nil {
		t.Fatal("the dropped call returned a result")
	}
	// The person answers once the server has seen the stream drop (the
	// call stopped waiting): an answer in the moment before that is
	// written to the dead stream, which no server can tell from a live one
	// (seen under load in CI).
	for deadline := time.Now().Add(10 * time.Second); e.broker.Waiters(q.ID) != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the server's call still waits 10 s after its stream dropped")
		}
	}
	if err := e.broker.Answer(q.ID, accept(`"8080"`)); err != nil {
		t.Fatalf("the question did not stay open after the stream dropped: %v", err)
	}

	// The client re-issues the call: the Go SDK at 2026-07-28, same key.
	s := e.at(modern).connect(t, "raw-modern", nil)
	reissue := func() map[string]any {
		r, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: ToolAskText, Arguments: map[string]any{"question": "Which port?"},
			Meta: mcp.Meta{MetaIdempotencyKey: key}})
		if err != nil {
			t.Fatal(err)
		}
		m, _, _ := decodeResult(t, r)
		return m
	}
	got := reissue()
	if got["status"] != "answered" || got["answer"] != "8080" || idOf(got["question_id"]) != q.ID {
		t.Fatalf("re-issued call: %v", got)
	}
	// Delivered once: the same call again is a new question, not the answer again.
	got = reissue()
	if got["status"] != "pending" || idOf(got["question_id"]) == q.ID || got["answer"] != nil {
		t.Fatalf("second re-issue: %v", got)
	}
	if n := len(e.broker.Pending()); n != 1 {
		t.Fatalf("%d pending, want the one new question", n)
	}
}

// TestModernWithoutKeyNeverShares: at 2026-07-28 a call without an
// idempotency key is its own asker: another call of the same client
// asking the same thing gets its own question, never the first's answer;
// a key too short to be unguessable is an isError naming it.
func TestModernWithoutKeyNeverShares(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	c := mcp.NewClient(&mcp.Implementation{Name: "twin", Version: "1"}, nil)
	s, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: e.url,
		HTTPClient: &http.Client{Transport: bearer{http.DefaultTransport}}, MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: modern})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	args := map[string]any{"action": "Drop the staging database", "wait": false}
	first, _, _ := call(t, ctx, s, ToolApproval, args)
	if err := e.broker.Answer(idOf(first["question_id"]), accept(`"allow"`)); err != nil {
		t.Fatal(err)
	}
	got, text, _ := call(t, ctx, s, ToolApproval, args)
	if got["decision"] == "allow" || idOf(got["question_id"]) == idOf(first["question_id"]) {
		t.Fatalf("a keyless call took another call's allow: %s", text)
	}
	r, err := s.CallTool(ctx, &mcp.CallToolParams{Name: ToolAskText, Arguments: map[string]any{"question": "Port?"}, Meta: mcp.Meta{MetaIdempotencyKey: "short"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, text, isErr := decodeResult(t, r); !isErr || !strings.Contains(text, MetaIdempotencyKey) || !strings.Contains(text, "16") {
		t.Fatalf("short key: isError %v %s", isErr, text)
	}
	if _, res, err := e.broker.Get(idOf(first["question_id"])); err != nil || res == nil || res.Outcome != question.Answered {
		t.Fatalf("first question: %+v %v", res, err)
	}
}

// TestRepeatedCallsAtOnceAskOnce: the same call made many times at once
// (one session at 2025-11-25; one idempotency key at 2026-07-28), as a
// client re-issuing while the first is still being asked, opens one
// question: every call gets its question_id, and one question is pending.
// Before the asks of one key were serialized, a call in the moment between
// Broker.Ask and the record under its key asked anew.
func TestRepeatedCallsAtOnceAskOnce(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newEnv(t, Config{}).at(rev)
		s := e.connect(t, "eager", nil)
		const n = 16
		ids := make(chan string, n)
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				r, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: ToolAskText,
					Arguments: map[string]any{"question": "Which port?", "wait": false}, Meta: mcp.Meta{MetaIdempotencyKey: "k-0123456789abcdef-at-once"}})
				if err != nil {
					t.Error(err)
					return
				}
				m, _, _ := decodeResult(t, r)
				ids <- idOf(m["question_id"])
			})
		}
		wg.Wait()
		close(ids)
		seen := map[string]bool{}
		for id := range ids {
			seen[id] = true
		}
		if len(seen) != 1 || len(e.broker.Pending()) != 1 {
			t.Fatalf("%d calls at once opened %d questions (%d pending), want one", n, len(seen), len(e.broker.Pending()))
		}
	})
}
