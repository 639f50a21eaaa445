package stdioproxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	testToken = "test-token"
	legacy    = "2025-11-25" // what today's agents negotiate
	modern    = "2026-07-28" // no initialize, no session: version and client in each request's _meta
	wait      = 10 * time.Second
)

// revisions are the protocol revisions every client scenario runs at.
var revisions = []string{legacy, modern}

// eachRevision runs f as a parallel subtest per protocol revision, named
// after it: the same scenario at 2025-11-25 and 2026-07-28.
func eachRevision(t *testing.T, f func(t *testing.T, version string)) {
	for _, v := range revisions {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			f(t, v)
		})
	}
}

// fixture is an mcp-go Streamable HTTP server behind a bearer check, with
// the tools block and whoami.
type fixture struct {
	ts      *httptest.Server
	started chan string // block: the key of each call that started
	ended   chan ended  // block: each call whose ctx ended
	release chan struct{}
	relOnce sync.Once

	mu      sync.Mutex
	srv     *mcpserver.MCPServer
	h       *mcpserver.StreamableHTTPServer
	counts  map[string]int // POSTs by JSON-RPC method, and "GET", "DELETE"
	served  map[string]int // the same, counted once the server has answered
	getSID  []string       // the session of each GET
	dropGet []context.CancelFunc
}

type ended struct {
	key string
	err error
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{started: make(chan string, 256), ended: make(chan ended, 256), release: make(chan struct{}), counts: map[string]int{}, served: map[string]int{}}
	f.srv, f.h = f.newServer()
	f.ts = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(func() {
		f.releaseAll()
		f.ts.Close()
	})
	return f
}

func (f *fixture) url() string { return f.ts.URL + "/mcp" }

func (f *fixture) releaseAll() { f.relOnce.Do(func() { close(f.release) }) }

func (f *fixture) newServer() (*mcpserver.MCPServer, *mcpserver.StreamableHTTPServer) {
	s := mcpserver.NewMCPServer("fixture", "1.0", mcpserver.WithToolCapabilities(true))
	s.AddTool(mcpgo.NewTool("block", mcpgo.WithString("key", mcpgo.Required())), f.block)
	s.AddTool(mcpgo.NewTool("whoami"), whoami)
	quiet := slog.New(slog.DiscardHandler)
	return s, mcpserver.NewStreamableHTTPServer(s, mcpserver.WithStateful(true), mcpserver.WithStreamableHTTPLogger(quiet))
}

// restart replaces the server with a new one, as when the app restarts: the
// old sessions are gone.
func (f *fixture) restart() {
	f.mu.Lock()
	old := f.h
	f.srv, f.h = f.newServer()
	f.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = old.Shutdown(ctx)
}

func (f *fixture) serve(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+testToken {
		http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
		return
	}
	key := r.Method
	if r.Method == http.MethodPost {
		b, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(b))
		var m struct{ Method string }
		_ = json.Unmarshal(b, &m)
		key = m.Method
	}
	f.mu.Lock()
	f.counts[key]++
	h := f.h
	if r.Method == http.MethodGet {
		ctx, cancel := context.WithCancel(r.Context())
		r = r.WithContext(ctx)
		f.getSID = append(f.getSID, r.Header.Get("Mcp-Session-Id"))
		f.dropGet = append(f.dropGet, cancel)
	}
	f.mu.Unlock()
	h.ServeHTTP(w, r)
	f.mu.Lock()
	f.served[key]++
	f.mu.Unlock()
}

// dropGets ends the GET streams open on the server side.
func (f *fixture) dropGets() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, cancel := range f.dropGet {
		cancel()
	}
}

// lastGetSession returns the session of the latest GET.
func (f *fixture) lastGetSession() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.getSID) == 0 {
		return ""
	}
	return f.getSID[len(f.getSID)-1]
}

func (f *fixture) count(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.counts[key]
}

// servedCount is count for requests the server has finished answering.
func (f *fixture) servedCount(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.served[key]
}

// block waits until released or its ctx ends, sending progress every 50 ms
// when the request has a progress token.
func (f *fixture) block(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	key := req.GetString("key", "")
	f.started <- key
	var tok mcpgo.ProgressToken
	if m := req.Params.Meta; m != nil {
		tok = m.ProgressToken
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for n := 1; ; n++ {
		select {
		case <-f.release:
			return mcpgo.NewToolResultText("released " + key), nil
		case <-ctx.Done():
			f.ended <- ended{key, ctx.Err()}
			return nil, ctx.Err()
		case <-tick.C:
			if tok != nil {
				_ = mcpserver.ServerFromContext(ctx).SendNotificationToClient(ctx, "notifications/progress",
					map[string]any{"progressToken": tok, "progress": n, "message": "waiting"})
			}
		}
	}
}

// whoami answers with the client's name and version, and where it found them.
func whoami(ctx context.Context, _ mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	if ci, ok := mcpserver.ClientSessionFromContext(ctx).(mcpserver.SessionWithClientInfo); ok {
		if info := ci.GetClientInfo(); info.Name != "" {
			return mcpgo.NewToolResultText(info.Name + " " + info.Version + " via session"), nil
		}
	}
	if pi := mcpserver.RequestProtocolInfoFromContext(ctx); pi != nil && pi.ClientInfo != nil {
		return mcpgo.NewToolResultText(pi.ClientInfo.Name + " " + pi.ClientInfo.Version + " via meta"), nil
	}
	return mcpgo.NewToolResultText("unknown"), nil
}

// recorder keeps everything the proxy writes to its out.
type recorder struct {
	w      io.Writer
	mu     sync.Mutex
	buf    bytes.Buffer
	writes int
	bad    []string // writes that were not exactly one line
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	r.buf.Write(p)
	r.writes++
	if bytes.Count(p, []byte("\n")) != 1 || p[len(p)-1] != '\n' {
		r.bad = append(r.bad, string(p))
	}
	r.mu.Unlock()
	return r.w.Write(p)
}

// check fails t unless every line written is one JSON-RPC 2.0 message.
func (r *recorder) check(t *testing.T) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range r.bad {
		t.Errorf("a write was not exactly one line: %q", b)
	}
	data := r.buf.Bytes()
	if len(data) == 0 {
		return
	}
	if data[len(data)-1] != '\n' {
		t.Errorf("output does not end with a newline")
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	for i, line := range lines {
		var m struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Method  string          `json:"method"`
			Result  json.RawMessage `json:"result"`
			Error   json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(line, &m); err != nil || m.JSONRPC != "2.0" || (m.Method == "" && (m.ID == nil || (m.Result == nil && m.Error == nil))) {
			t.Errorf("output line %d is not a JSON-RPC message (%v): %q", i+1, err, line)
		}
	}
	if len(lines) != r.writes {
		t.Errorf("%d lines in %d writes", len(lines), r.writes)
	}
}

// proxied is a Proxy running over pipes.
type proxied struct {
	in      *io.PipeWriter // the proxy's stdin
	out     *io.PipeReader // the proxy's stdout
	rec     *recorder
	done    chan struct{} // closed when Run returned
	err     error         // what Run returned
	stopped bool
}

// startProxy runs a Proxy for url over pipes, checking its output at cleanup.
func startProxy(t *testing.T, url, token string) *proxied {
	t.Helper()
	return startProxyCtx(t, context.Background(), url, token)
}

// startProxyCtx is startProxy with the ctx given to Run.
func startProxyCtx(t *testing.T, ctx context.Context, url, token string) *proxied {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &proxied{in: inW, out: outR, rec: &recorder{w: outW}, done: make(chan struct{})}
	px := &Proxy{URL: url, Token: token, Log: slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))}
	go func() {
		p.err = px.Run(ctx, inR, p.rec)
		outW.Close()
		close(p.done)
	}()
	t.Cleanup(func() { p.stop(t) })
	return p
}

// stop ends the proxy's stdin and waits for Run to return nil.
func (p *proxied) stop(t *testing.T) {
	t.Helper()
	if p.stopped {
		return
	}
	p.stopped = true
	p.in.Close()
	go func() { _, _ = io.Copy(io.Discard, p.out) }()
	select {
	case <-p.done:
		if p.err != nil {
			t.Errorf("Run: %v", p.err)
		}
	case <-time.After(wait):
		t.Fatal("Run did not return after stdin ended")
	}
	p.rec.check(t)
}

// connect runs a Proxy to f and connects a go-sdk client to it, negotiating
// version ("" means the SDK's latest).
func connect(t *testing.T, f *fixture, opts *sdk.ClientOptions, version string) (*sdk.ClientSession, *proxied) {
	t.Helper()
	p := startProxy(t, f.url(), testToken)
	c := sdk.NewClient(&sdk.Implementation{Name: "test-client", Version: "9.9"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	cs, err := c.Connect(ctx, &sdk.IOTransport{Reader: p.out, Writer: p.in}, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs, p
}

// callText calls a tool and returns the text of its result.
func callText(t *testing.T, ctx context.Context, cs *sdk.ClientSession, params *sdk.CallToolParams) string {
	t.Helper()
	res, err := cs.CallTool(ctx, params)
	return resultText(t, res, err)
}

// resultText returns the text of a tool result.
func resultText(t *testing.T, res *sdk.CallToolResult, err error) string {
	t.Helper()
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	var b bytes.Buffer
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	if res.IsError {
		t.Fatalf("tool error: %s", b.String())
	}
	return b.String()
}

// rawLines returns a channel of the lines the proxy writes.
func (p *proxied) rawLines() <-chan string {
	ch := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(p.out)
		for sc.Scan() {
			ch <- sc.Text()
		}
		close(ch)
	}()
	return ch
}

// send writes lines to the proxy's stdin.
func (p *proxied) send(t *testing.T, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := fmt.Fprintln(p.in, l); err != nil {
			t.Fatalf("write stdin: %v", err)
		}
	}
}

// eventually polls cond until it holds or wait passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
