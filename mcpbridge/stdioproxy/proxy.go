// Package stdioproxy bridges an MCP client that speaks newline-delimited
// JSON-RPC on stdin and stdout to an MCP server's Streamable HTTP endpoint, so
// that clients which can only launch commands reach a server that runs
// elsewhere.
package stdioproxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
)

// JSON-RPC error codes the proxy answers with.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeInternalError  = -32603
)

// metaProtocolVersion is the _meta key that marks a request of protocol
// version 2026-07-28 or later, which needs no initialize and no session.
const metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// Proxy forwards MCP messages between a stdio client and a Streamable HTTP
// server. Set its fields before calling Run; a Proxy may run once at a time.
type Proxy struct {
	URL        string       // the server's MCP endpoint, such as http://127.0.0.1:7931/mcp
	Token      string       // sent as "Authorization: Bearer <Token>"; empty sends none
	HTTPClient *http.Client // nil means a client without timeouts that ignores HTTP_PROXY
	Log        *slog.Logger // nil discards the log; it must not write to out
}

// Run reads JSON-RPC messages from in, one per line, POSTs each to p.URL on
// its own goroutine and writes every message the server sends back to out,
// one compacted message per line and nothing else. It blocks until in ends or
// ctx is done; then it cancels the calls in flight, ends the server session
// with a DELETE (best effort, 2 s), and returns nil. It returns an error only
// when reading in fails. When ctx ends first, a goroutine may stay blocked
// reading in until in is closed.
func (p *Proxy) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c := &conn{p: p, ctx: ctx, out: out, hc: p.HTTPClient, log: p.Log, getWake: make(chan struct{}, 1)}
	if c.hc == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.Proxy = nil
		tr.MaxIdleConnsPerHost = 64
		c.hc = &http.Client{Transport: tr}
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go func() { readErr <- readLines(ctx, in, lines) }()
	var err error
loop:
	for {
		select {
		case line := <-lines:
			c.dispatch(line)
		case err = <-readErr:
			break loop
		case <-ctx.Done():
			break loop
		}
	}
	cancel()
	c.wg.Wait()
	c.endSession()
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// readLines sends every line of in to lines until in ends (io.EOF) or ctx is done.
func readLines(ctx context.Context, in io.Reader, lines chan<- []byte) error {
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			select {
			case lines <- line:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if errors.Is(err, io.EOF) {
			return io.EOF
		}
		if err != nil {
			return fmt.Errorf("read stdin: %w", err)
		}
	}
}

// conn is the state of one Run.
type conn struct {
	p   *Proxy
	ctx context.Context // ends when Run stops
	hc  *http.Client
	log *slog.Logger
	wg  sync.WaitGroup // every goroutine Run started

	outMu     sync.Mutex
	out       io.Writer
	outBroken bool

	mu        sync.Mutex
	sessionID string             // from the initialize reply's Mcp-Session-Id header
	version   string             // the protocolVersion of the initialize result
	initMsg   []byte             // the client's initialize request, replayed when the session is lost
	gate      chan struct{}      // closed when the initialize in flight completes; nil before any
	gen       int                // counts session changes
	listening bool               // the standalone GET loop runs
	stopGet   context.CancelFunc // ends the current GET stream
	getWake   chan struct{}      // tells the GET loop the session changed

	reinitMu sync.Mutex // one re-initialization at a time

	modern modernClient // a client on 2026-07-28: its per-request _meta, its requests in flight
}

// message is one JSON-RPC message from the client.
type message struct {
	raw             []byte
	id              json.RawMessage // nil for notifications
	method          string          // empty for responses
	protocolVersion string          // from params._meta, for 2026-07-28 and later
	name            string          // the tool or prompt name, or resource URI
}

// isRequest reports whether m expects a response.
func (m *message) isRequest() bool {
	return m.method != "" && len(m.id) > 0 && string(m.id) != "null"
}

// parseMessage reads the fields the proxy routes on. A batch or a message it
// cannot read is forwarded as it is.
func parseMessage(raw []byte) *message {
	m := &message{raw: raw}
	var env struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if raw[0] != '{' || json.Unmarshal(raw, &env) != nil {
		return m
	}
	m.id, m.method = env.ID, env.Method
	var params struct {
		Meta map[string]any `json:"_meta"`
		Name string         `json:"name"`
		URI  string         `json:"uri"`
	}
	if json.Unmarshal(env.Params, &params) == nil {
		m.protocolVersion, _ = params.Meta[metaProtocolVersion].(string)
		switch m.method {
		case "tools/call", "prompts/get":
			m.name = params.Name
		case "resources/read":
			m.name = params.URI
		}
	}
	return m
}

// dispatch starts forwarding one line from the client. Messages that arrive
// while an initialize is in flight wait for it to complete.
func (c *conn) dispatch(line []byte) {
	line = bytes.TrimSpace(line)
	switch {
	case len(line) == 0:
		return
	case !json.Valid(line):
		c.writeError(nil, codeParseError, "parse error: the line is not valid JSON")
		return
	case line[0] != '{' && line[0] != '[':
		c.writeError(nil, codeInvalidRequest, "invalid request: not a JSON-RPC message")
		return
	}
	m := parseMessage(line)
	if m.protocolVersion != "" {
		c.modern.remember(m.raw)
	} else if sid, _, _ := c.session(); sid == "" && m.method != "initialize" {
		if m.method == "ping" && m.isRequest() && c.modern.known() {
			// 2026-07-28 removed ping from the app's protocol; on stdio it
			// asks whether this process is alive, which it answers itself.
			c.write([]byte(`{"jsonrpc":"2.0","id":` + string(m.id) + `,"result":{}}`))
			return
		}
		c.modern.complete(m)
	}
	c.mu.Lock()
	gate := c.gate
	if m.method == "initialize" && m.isRequest() {
		done := make(chan struct{})
		c.initMsg, c.gate = m.raw, done
		c.mu.Unlock()
		c.wg.Go(func() {
			defer close(done)
			c.forward(m)
		})
		return
	}
	c.mu.Unlock()
	c.wg.Go(func() {
		if gate != nil {
			select {
			case <-gate:
			case <-c.ctx.Done():
				return
			}
		}
		c.forward(m)
		if m.method == "notifications/cancelled" {
			c.modern.cancelled(m.raw)
		}
	})
}

// write writes msg to out as one compacted line. It drops anything that is
// not a JSON object or array, so that out carries only MCP messages.
func (c *conn) write(msg []byte) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, msg); err != nil || buf.Len() == 0 || (buf.Bytes()[0] != '{' && buf.Bytes()[0] != '[') {
		if len(bytes.TrimSpace(msg)) > 0 {
			c.log.Warn("dropped a message from the server that is not JSON-RPC", "err", err, "start", first(msg, 200))
		}
		return
	}
	buf.WriteByte('\n')
	c.outMu.Lock()
	defer c.outMu.Unlock()
	if c.outBroken {
		return
	}
	if _, err := c.out.Write(buf.Bytes()); err != nil {
		c.outBroken = true
		c.log.Warn("cannot write to stdout", "err", err)
	}
}

// writeError writes a JSON-RPC error response for id (nil means null).
func (c *conn) writeError(id json.RawMessage, code int, msg string) {
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{code, msg}})
	if err != nil {
		c.log.Error("encode error response", "err", err)
		return
	}
	c.write(b)
}

// fail reports that m could not be delivered: to the client as an error
// response when m is a request, else only in the log.
func (c *conn) fail(m *message, msg string) {
	if m.isRequest() {
		c.writeError(m.id, codeInternalError, msg)
		return
	}
	c.log.Warn("message not delivered", "method", m.method, "err", msg)
}

// reply is what a server message carries besides the JSON-RPC messages.
type reply struct {
	parsed  bool            // it is a JSON-RPC response
	id      json.RawMessage // its id
	isError bool
	version string // result.protocolVersion, for initialize
}

// readReply parses msg as a JSON-RPC response; parsed is false for requests,
// notifications and batches.
func readReply(msg []byte) reply {
	var r struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	msg = bytes.TrimSpace(msg)
	if len(msg) == 0 || msg[0] != '{' || json.Unmarshal(msg, &r) != nil || r.Method != "" || (r.Result == nil && r.Error == nil) {
		return reply{}
	}
	out := reply{parsed: true, id: r.ID, isError: r.Error != nil && string(r.Error) != "null"}
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(r.Result, &res) == nil {
		out.version = res.ProtocolVersion
	}
	return out
}

// answers reports whether r is the response to m.
func (r reply) answers(m *message) bool {
	return r.parsed && m.isRequest() && bytes.Equal(bytes.TrimSpace(r.id), bytes.TrimSpace(m.id))
}

// first returns up to the first n characters of b, as valid UTF-8.
func first(b []byte, n int) string {
	b = bytes.TrimSpace(b)
	if len(b) > 4*n {
		b = b[:4*n]
	}
	r := []rune(string(bytes.ToValidUTF8(b, []byte("?"))))
	if len(r) > n {
		r = r[:n]
	}
	return string(r)
}
