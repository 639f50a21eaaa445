package mcpbridge

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/asktray/asktray/app/loopback"
)

// MaxBody limits an MCP request body. The largest legitimate one is an
// ask_form with a 64 KiB schema and a 4 KiB message.
const MaxBody = 1 << 20

// HTTPOptions configure the guarded Streamable HTTP handler.
type HTTPOptions struct {
	Token string // required bearer token; empty only with NoAuth
	// CurrentToken, when set, is read on every request in place of Token,
	// so that a regenerated token takes effect at once; it must be safe
	// to call from any goroutine.
	CurrentToken func() string
	// NoAuth turns the token check off. It exists for the conformance suite,
	// whose CLI cannot send headers; Host and Origin checks stay on.
	NoAuth bool
	// ExtraHosts are further Host names accepted besides the loopback ones,
	// for an app deliberately listening on another interface.
	ExtraHosts []string
	// RemotePeers accepts connections from non-loopback addresses; without
	// it they get 403 even if they reach the listener.
	RemotePeers bool
	IdleTTL     time.Duration // how long an idle MCP session lives; 0 means 1 h
}

// HTTPHandler returns the MCP endpoint: bearer token, Host and Origin checks
// and a body limit in front of mcp-go's stateful Streamable HTTP server.
// Serve it with no WriteTimeout: a call may wait minutes for a person.
func (b *Bridge) HTTPHandler(o HTTPOptions) http.Handler {
	if o.IdleTTL <= 0 {
		o.IdleTTL = time.Hour
	}
	h := mcpserver.NewStreamableHTTPServer(b.srv,
		mcpserver.WithStateful(true),
		mcpserver.WithSessionIdleTTL(o.IdleTTL),
		mcpserver.WithStreamableHTTPLogger(b.cfg.Log),
	)
	return b.guard(o, h)
}

func (b *Bridge) guard(o HTTPOptions, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch (loopback.Rules{ExtraHosts: o.ExtraHosts, RemotePeers: o.RemotePeers}).Check(r) {
		case loopback.Allowed:
		case loopback.ForeignPeer:
			http.Error(w, "Forbidden: only local clients may connect", http.StatusForbidden)
			return
		case loopback.ForeignHost:
			http.Error(w, "Forbidden: Host must be a loopback name", http.StatusForbidden)
			return
		default:
			http.Error(w, "Forbidden: Origin not allowed", http.StatusForbidden)
			return
		}
		// Another local user who read the token (a command line, a file
		// left readable) is refused as the question page refuses them. A
		// request served from a listener carries its local address; one
		// handed to the handler directly (tests) has no socket to look up.
		if _, served := r.Context().Value(http.LocalAddrContextKey).(net.Addr); served && loopback.Peer(r.RemoteAddr) {
			if err := loopback.SameUser(r); err != nil {
				b.cfg.Log.Warn("MCP request refused: another user", "err", err)
				http.Error(w, "Forbidden: only the user who runs Asktray may connect", http.StatusForbidden)
				return
			}
		}
		if !o.NoAuth && !tokenMatches(r.Header.Get("Authorization"), o) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="asktray"`)
			http.Error(w, "Unauthorized: send Authorization: Bearer <token> (asktray url prints it)", http.StatusUnauthorized)
			return
		}
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
			http.Error(w, "Unsupported Media Type: POST application/json", http.StatusUnsupportedMediaType)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
		if err != nil {
			http.Error(w, "Request Entity Too Large: at most 1 MiB", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		ctx, done := b.calls.observe(r.Context(), r.Header.Get("Mcp-Session-Id"), body)
		defer done()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// tokenMatches reports whether header is "Bearer <token>" for the current
// token. An empty token matches nothing.
func tokenMatches(header string, o HTTPOptions) bool {
	tok := o.Token
	if o.CurrentToken != nil {
		tok = o.CurrentToken()
	}
	if tok == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(header), []byte("Bearer "+tok)) == 1
}

// trackedCall is one tools/call in flight over HTTP.
type trackedCall struct {
	once      sync.Once
	reason    string        // the notification's reason; written before cancelled closes
	cancelled chan struct{} // closed when the client sends notifications/cancelled for it
}

func newTrackedCall() *trackedCall { return &trackedCall{cancelled: make(chan struct{})} }

func (c *trackedCall) cancel(reason string) {
	c.once.Do(func() {
		c.reason = reason
		close(c.cancelled)
	})
}

// clientTimedOut reports whether a notifications/cancelled reason says the
// client's own request timed out rather than that the agent no longer wants
// the answer: the Go SDK sends "context deadline exceeded", the TypeScript
// SDK "McpError: MCP error -32001: Request timed out".
func clientTimedOut(reason string) bool {
	r := strings.ToLower(reason)
	return strings.Contains(r, "deadline") || strings.Contains(r, "timeout") || strings.Contains(r, "timed out")
}

// withdraws reports whether the client cancelled the call because the agent
// no longer wants the answer: a notifications/cancelled arrived (waiting up
// to cancelGrace for it) and its reason is not the client's own timeout.
// A timed-out client is treated like a dropped connection: the question
// stays open for get_answer or a re-ask.
func (c *trackedCall) withdraws() bool {
	return c.explicitlyCancelled() && !clientTimedOut(c.reason)
}

// cancelGrace is how long a call whose connection dropped waits for a
// notifications/cancelled that may follow: clients such as the Go SDK abort
// the HTTP request first and send the notification a moment later.
const cancelGrace = time.Second

// explicitlyCancelled reports whether the client cancelled the call, waiting
// up to cancelGrace for the notice.
func (c *trackedCall) explicitlyCancelled() bool {
	if c == nil {
		return false
	}
	select {
	case <-c.cancelled:
		return true
	case <-time.After(cancelGrace):
		return false
	}
}

type callKey struct{ session, id string }

// callTracker tells an explicit cancellation from a dropped connection.
// mcp-go runs a tools/call handler under the POST request's context and
// cancels that context both when the client sends notifications/cancelled
// for the call (MCPServer.handleNotification) and when the HTTP connection
// drops (the request context ends). The MCP specification says a
// disconnection should not be read as the client cancelling its request;
// only notifications/cancelled means the agent no longer wants the answer.
type callTracker struct {
	mu    sync.Mutex
	calls map[callKey]*trackedCall
}

func newCallTracker() *callTracker { return &callTracker{calls: map[callKey]*trackedCall{}} }

type ctxKey struct{}

func callFromContext(ctx context.Context) *trackedCall {
	c, _ := ctx.Value(ctxKey{}).(*trackedCall)
	return c
}

// observe looks at one POST body. A tools/call is registered for the
// duration of the request and attached to ctx; a notifications/cancelled
// marks the call it names before mcp-go cancels it.
func (t *callTracker) observe(ctx context.Context, session string, body []byte) (context.Context, func()) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
			Reason    any             `json:"reason"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil {
		return ctx, func() {}
	}
	switch msg.Method {
	case "notifications/cancelled":
		t.mu.Lock()
		if c, ok := t.calls[callKey{session, compact(msg.Params.RequestID)}]; ok {
			reason, _ := msg.Params.Reason.(string)
			c.cancel(reason)
		}
		t.mu.Unlock()
	case "tools/call":
		if len(msg.ID) == 0 {
			break
		}
		k := callKey{session, compact(msg.ID)}
		c := newTrackedCall()
		t.mu.Lock()
		t.calls[k] = c
		t.mu.Unlock()
		return context.WithValue(ctx, ctxKey{}, c), func() {
			t.mu.Lock()
			if t.calls[k] == c {
				delete(t.calls, k)
			}
			t.mu.Unlock()
		}
	}
	return ctx, func() {}
}

func compact(raw json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}
