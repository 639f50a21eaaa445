package stdioproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestStdio_RoundTrip(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs, p := connect(t, f, nil, legacy)
	if got := cs.InitializeResult().ServerInfo.Name; got != "fixture" {
		t.Errorf("server name %q, want fixture", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"block", "whoami"}) {
		t.Errorf("tools %v", names)
	}
	if err := cs.Ping(ctx, nil); err != nil {
		t.Errorf("ping: %v", err)
	}
	if got := callText(t, ctx, cs, &sdk.CallToolParams{Name: "whoami"}); got == "" {
		t.Errorf("whoami: empty")
	}
	// The standalone GET stream opens; stdin EOF ends the session with a DELETE.
	eventually(t, "the standalone GET stream", func() bool { return f.count("GET") >= 1 })
	_ = cs.Close()
	p.stop(t)
	if n := f.count("DELETE"); n != 1 {
		t.Errorf("%d DELETEs, want 1", n)
	}
}

func TestStdio_ClientInfoReachesServer(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, version string) {
		f := newFixture(t)
		cs, _ := connect(t, f, nil, version)
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		want := "test-client 9.9 via session"
		if version == modern {
			want = "test-client 9.9 via " // no session: mcp-go reads each request's _meta (and lends it to a session of that request)
		}
		if got := callText(t, ctx, cs, &sdk.CallToolParams{Name: "whoami"}); !strings.HasPrefix(got, want) {
			t.Errorf("whoami = %q, want %q", got, want)
		}
	})
}

func TestStdio_Progress(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, version string) {
		f := newFixture(t)
		progress := make(chan *sdk.ProgressNotificationParams, 100)
		cs, _ := connect(t, f, &sdk.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			select {
			case progress <- r.Params:
			default:
			}
		}}, version)
		params := &sdk.CallToolParams{Name: "block", Arguments: map[string]any{"key": "p"}}
		params.SetProgressToken("tok-1")
		type result struct {
			res *sdk.CallToolResult
			err error
		}
		done := make(chan result, 1)
		go func() {
			res, err := cs.CallTool(context.Background(), params)
			done <- result{res, err}
		}()
		// mcp-go hands a session's notifications to whichever of its streams reads
		// first (this POST's or the standalone GET), so their order may change.
		seen := map[float64]bool{}
		for i := range 3 {
			select {
			case n := <-progress:
				if n.ProgressToken != "tok-1" || n.Progress <= 0 || seen[n.Progress] {
					t.Errorf("progress %d: token %v progress %v", i, n.ProgressToken, n.Progress)
				}
				seen[n.Progress] = true
			case <-time.After(wait):
				t.Fatalf("only %d progress notifications", i)
			}
		}
		f.releaseAll()
		select {
		case r := <-done:
			if got := resultText(t, r.res, r.err); got != "released p" {
				t.Errorf("result %q", got)
			}
		case <-time.After(wait):
			t.Fatal("the call did not return after release")
		}
	})
}

func TestStdio_ConcurrentCallsDoNotBlockOthers(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, version string) {
		f := newFixture(t)
		cs, _ := connect(t, f, nil, version)
		const n = 50
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := range n {
			wg.Go(func() {
				res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "block", Arguments: map[string]any{"key": fmt.Sprint(i)}})
				if err == nil && res.IsError {
					err = errors.New("tool error")
				}
				errs <- err
			})
		}
		for i := range n {
			select {
			case <-f.started:
			case <-time.After(wait):
				t.Fatalf("only %d of %d calls reached the server", i, n)
			}
		}
		// All 50 block in the server; a ping and another call still go through.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := cs.Ping(ctx, nil); err != nil {
			t.Fatalf("ping while %d calls block: %v", n, err)
		}
		if got := callText(t, ctx, cs, &sdk.CallToolParams{Name: "whoami"}); !strings.HasPrefix(got, "test-client") {
			t.Fatalf("whoami while %d calls block: %q", n, got)
		}
		f.releaseAll()
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Errorf("blocked call: %v", err)
			}
		}
	})
}

func TestStdio_CancelReachesServer(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, version string) {
		f := newFixture(t)
		cs, _ := connect(t, f, nil, version)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "block", Arguments: map[string]any{"key": "c"}})
			done <- err
		}()
		select {
		case <-f.started:
		case <-time.After(wait):
			t.Fatal("the call did not start")
		}
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("call error %v, want context.Canceled", err)
		}
		select {
		case e := <-f.ended:
			if e.key != "c" || !errors.Is(e.err, context.Canceled) {
				t.Errorf("ended %+v", e)
			}
		case <-time.After(wait):
			t.Fatal("the tool's ctx did not end")
		}
		if n := f.count("notifications/cancelled"); n != 1 {
			t.Errorf("%d notifications/cancelled reached the server, want 1", n)
		}
		// The session still works.
		ctx2, cancel2 := context.WithTimeout(context.Background(), wait)
		defer cancel2()
		if err := cs.Ping(ctx2, nil); err != nil {
			t.Errorf("ping after cancel: %v", err)
		}
	})
}

func TestStdio_SessionLostReinitializes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs, _ := connect(t, f, nil, legacy)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	callText(t, ctx, cs, &sdk.CallToolParams{Name: "whoami"})
	eventually(t, "the standalone GET stream", func() bool { return f.count("GET") >= 1 })
	firstSession := f.lastGetSession()
	// Messages are forwarded concurrently: wait until the client's own
	// notifications/initialized has been answered, so that the counts below
	// are exact. Arrival is not enough: one still being served when the
	// server restarts gets a 404 and is sent again on the new session.
	eventually(t, "notifications/initialized", func() bool { return f.servedCount("notifications/initialized") == 1 })
	f.restart()
	if got := callText(t, ctx, cs, &sdk.CallToolParams{Name: "whoami"}); got != "test-client 9.9 via session" {
		t.Errorf("whoami after restart = %q", got)
	}
	if err := cs.Ping(ctx, nil); err != nil {
		t.Errorf("ping after restart: %v", err)
	}
	if n, m := f.count("initialize"), f.count("notifications/initialized"); n != 2 || m != 2 {
		t.Errorf("%d initialize and %d notifications/initialized, want 2 each", n, m)
	}
	// The standalone stream moves to the new session.
	eventually(t, "a GET on the new session", func() bool {
		sid := f.lastGetSession()
		return sid != "" && sid != firstSession
	})
}

func TestStdio_ServerNotificationsOverStandaloneStream(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	changed := make(chan struct{}, 10)
	connect(t, f, &sdk.ClientOptions{ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
		changed <- struct{}{}
	}}, legacy)
	eventually(t, "the standalone GET stream", func() bool { return f.count("GET") >= 1 })
	f.mu.Lock()
	f.srv.AddTool(mcpgo.NewTool("late"), whoami) // sends notifications/tools/list_changed
	f.mu.Unlock()
	select {
	case <-changed:
	case <-time.After(wait):
		t.Fatal("notifications/tools/list_changed did not reach the client")
	}
}

func TestStdio_ModernClient(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs, _ := connect(t, f, nil, "") // the SDK's default: server/discover, no session
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	got := callText(t, ctx, cs, &sdk.CallToolParams{Name: "whoami"})
	t.Logf("protocol %s, whoami %q", cs.InitializeResult().ProtocolVersion, got)
	if !strings.HasPrefix(got, "test-client 9.9") {
		t.Errorf("whoami = %q", got)
	}
}

// rpc is a JSON-RPC message read back in the raw tests.
type rpc struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func next(t *testing.T, lines <-chan string) rpc {
	t.Helper()
	select {
	case l, ok := <-lines:
		if !ok {
			t.Fatal("the proxy's output ended")
		}
		var m rpc
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("output %q: %v", l, err)
		}
		return m
	case <-time.After(wait):
		t.Fatal("no output")
	}
	return rpc{}
}

const rawInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func TestStdio_RawLines(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	p := startProxy(t, f.url(), testToken)
	lines := p.rawLines()

	// Blank lines are ignored; a line that is not JSON gets -32700 with id null.
	p.send(t, "", "   ", "not json {")
	if m := next(t, lines); string(m.ID) != "null" || m.Error == nil || m.Error.Code != -32700 {
		t.Fatalf("parse error reply %+v", m)
	}
	p.send(t, "42")
	if m := next(t, lines); m.Error == nil || m.Error.Code != -32600 {
		t.Fatalf("non-message reply %+v", m)
	}

	// Messages sent before the initialize reply wait for it, then go out with its session.
	p.send(t, rawInit,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"two","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	got := map[string]rpc{}
	for range 3 {
		m := next(t, lines)
		got[string(m.ID)] = m
	}
	for _, id := range []string{`1`, `"two"`, `3`} {
		if m, ok := got[id]; !ok || m.Error != nil || m.Result == nil {
			t.Errorf("reply to %s: %+v (ok %v)", id, m, ok)
		}
	}
	if !strings.Contains(string(got[`"two"`].Result), `"whoami"`) {
		t.Errorf("tools/list result %s", got[`"two"`].Result)
	}
}

func TestStdio_HTTPErrorsBecomeJSONRPCErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	p := startProxy(t, f.url(), "wrong-token")
	lines := p.rawLines()
	// A notification that fails is only logged; a request gets an error with its id.
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, rawInit)
	m := next(t, lines)
	if string(m.ID) != "1" || m.Error == nil || m.Error.Code != -32603 || !strings.Contains(m.Error.Message, "401") || !strings.Contains(m.Error.Message, "missing or wrong bearer token") {
		t.Fatalf("reply %+v", m)
	}

	// Nothing listens: the request gets an error too.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p2 := startProxy(t, "http://"+addr+"/mcp", testToken)
	lines2 := p2.rawLines()
	p2.send(t, rawInit)
	if m := next(t, lines2); string(m.ID) != "1" || m.Error == nil || !strings.Contains(m.Error.Message, "cannot reach") {
		t.Fatalf("unreachable reply %+v", m)
	}
}

func TestReadSSE(t *testing.T) {
	t.Parallel()
	in := ": comment\r\nevent: message\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\n" +
		"id: 7\nretry: 100\n\n" + // no data
		"data:{\"b\":2}\n\n" +
		"data: {\"c\":3}\n" // unfinished
	var got []string
	if err := readSSE(strings.NewReader(in), func(b []byte) { got = append(got, string(b)) }); err != nil {
		t.Fatal(err)
	}
	want := []string{"{\"a\":\n1}", `{"b":2}`}
	if !slices.Equal(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
}

func TestStdio_StandaloneStreamReconnects(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	connect(t, f, nil, legacy)
	eventually(t, "the standalone GET stream", func() bool { return f.count("GET") >= 1 })
	f.dropGets()
	time.Sleep(time.Second) // well inside the 5 s backoff
	if n := f.count("GET"); n != 1 {
		t.Errorf("%d GETs within a second of the drop, want 1 (backoff)", n)
	}
	eventually(t, "a new GET after the backoff", func() bool { return f.count("GET") >= 2 })
}

func TestStdio_EOFCancelsCallsAndEndsSession(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	p := startProxy(t, f.url(), testToken)
	lines := p.rawLines()
	p.send(t, rawInit)
	if m := next(t, lines); m.Error != nil {
		t.Fatalf("initialize: %+v", m)
	}
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"block","arguments":{"key":"eof"}}}`)
	select {
	case <-f.started:
	case <-time.After(wait):
		t.Fatal("the call did not start")
	}
	p.stop(t) // stdin EOF; Run returns nil
	select {
	case e := <-f.ended:
		if e.key != "eof" {
			t.Errorf("ended %+v", e)
		}
	case <-time.After(wait):
		t.Fatal("the call's ctx did not end after stdin EOF")
	}
	if n := f.count("DELETE"); n != 1 {
		t.Errorf("%d DELETEs, want 1", n)
	}
}

func TestStdio_ContextEndsRun(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	p := startProxyCtx(t, ctx, f.url(), testToken)
	lines := p.rawLines()
	p.send(t, rawInit)
	if m := next(t, lines); m.Error != nil {
		t.Fatalf("initialize: %+v", m)
	}
	cancel() // stdin stays open
	select {
	case <-p.done:
		if p.err != nil {
			t.Errorf("Run: %v", p.err)
		}
	case <-time.After(wait):
		t.Fatal("Run did not return when its ctx ended")
	}
	if n := f.count("DELETE"); n != 1 {
		t.Errorf("%d DELETEs, want 1", n)
	}
}
