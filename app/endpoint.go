package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/loopback"
	"github.com/asktray/asktray/app/settings"
	"github.com/asktray/asktray/app/webask"
	"github.com/asktray/asktray/mcpbridge"
)

// moveGrace is how long the old listener's calls in progress may run on
// after the MCP server moved to another port, before their connections are
// cut. It covers the default blocking window (55 s): an agent waiting in a
// call then still gets its answer.
var moveGrace = 60 * time.Second

// httpTimeouts bound how long a client may take to send a request and how
// long an idle connection stays open.
type httpTimeouts struct {
	readHeader time.Duration // the request line and headers
	read       time.Duration // the whole request, body included
	idle       time.Duration // between requests on a kept-alive connection
}

// defaultHTTPTimeouts close a connection whose headers never end within
// seconds. They do not cut a tool call waiting for a person: net/http
// clears the read deadline once a request's body has been read, when it
// starts watching the connection for the client leaving (see
// https://github.com/golang/go/issues/18447), so read bounds only the
// sending of a request, and mcp-go's streamable HTTP handler then holds
// the POST (or the GET event stream) open for as long as the call runs.
//
// readHeader counts from when the server starts reading a new connection,
// which on a starved machine can be seconds before the client's own
// goroutine writes the request it just dialled for, and a cut request is
// a bare EOF to the client (a POST is not retried). At 3 s, 1 of 50
// clients' initialize got EOF in TestLoad_FiftyClients at load 20 on 2
// cores, twice in this session, the likely cause. 10 s, as the control
// socket's, still cuts a stalled connection within seconds.
var defaultHTTPTimeouts = httpTimeouts{readHeader: 10 * time.Second, read: 20 * time.Second, idle: 2 * time.Minute}

// newHTTPServer returns the server for the MCP endpoint and the question
// pages. It has no WriteTimeout: a tool call may wait minutes for a person,
// and a write deadline would cut its response.
func newHTTPServer(h http.Handler, t httpTimeouts) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: t.readHeader, ReadTimeout: t.read, IdleTimeout: t.idle}
}

// mcpEndpoint is the MCP listener: its HTTP server, the address it listens
// on and the token its guard accepts. It can move to another port and take
// a new token while the app runs. Safe for concurrent use.
type mcpEndpoint struct {
	dir         string
	host        string // the listen host; a move keeps it
	nonLoopback bool
	handler     http.Handler
	timeouts    httpTimeouts
	log         *slog.Logger
	token       atomic.Pointer[string]
	onMove      func(url string) // called with the new URL after a move, under mu

	mu       sync.Mutex
	url      string
	hs       *http.Server
	retiring []*http.Server // servers left by moves, finishing their calls
}

// currentToken returns the token the guard accepts now. Any goroutine.
func (e *mcpEndpoint) currentToken() string {
	if t := e.token.Load(); t != nil {
		return *t
	}
	return ""
}

// URL returns the endpoint's current URL. Any goroutine.
func (e *mcpEndpoint) URL() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.url
}

// setOnMove sets what runs with the new URL after each move. Any goroutine.
func (e *mcpEndpoint) setOnMove(fn func(url string)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.onMove = fn
}

// serve starts serving on ln; the caller holds mu or owns e alone.
func (e *mcpEndpoint) serve(ln net.Listener) {
	e.url = "http://" + ln.Addr().String() + "/mcp"
	hs := newHTTPServer(e.handler, e.timeouts)
	e.hs = hs
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			e.log.Error("mcp listener stopped", "err", err)
		}
	}()
}

// move listens on port (0 means settings.DefaultPort) on the same host and serves
// there from now on. The old listener closes at once; its calls in
// progress may finish for moveGrace. On error (the port is taken) nothing
// changes. It blocks only to listen; any goroutine may call it.
func (e *mcpEndpoint) move(port int) (string, error) {
	if port == 0 {
		port = settings.DefaultPort
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if strings.HasSuffix(addrOf(e.url), ":"+strconv.Itoa(port)) {
		return e.url, nil // already there
	}
	ln, err := listen(net.JoinHostPort(e.host, strconv.Itoa(port)), e.nonLoopback)
	if err != nil {
		return "", fmt.Errorf("mcp_port %d: %w", port, err)
	}
	old := e.hs
	e.serve(ln)
	e.retiring = append(e.retiring, old)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), moveGrace)
		defer cancel()
		if err := old.Shutdown(ctx); err != nil {
			old.Close()
		}
	}()
	e.log.Info("mcp listener moved", "url", e.url)
	if e.onMove != nil {
		e.onMove(e.url)
	}
	return e.url, nil
}

// regenerate writes a new token to the data dir and makes the guard accept
// only it, from the next request on. It blocks for the file write; any
// goroutine may call it.
func (e *mcpEndpoint) regenerate() (string, error) {
	tok, err := datadir.RegenerateToken(e.dir)
	if err != nil {
		return "", err
	}
	e.token.Store(&tok)
	e.log.Info("mcp token regenerated; clients must be reconfigured")
	return tok, nil
}

// stop shuts the server down, waiting up to 5 s for calls in progress, and
// cuts the connections of servers left by moves.
func (e *mcpEndpoint) stop() {
	e.mu.Lock()
	defer e.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := e.hs.Shutdown(ctx); err != nil {
		e.log.Warn("mcp listener shutdown", "err", err)
	}
	for _, hs := range e.retiring {
		hs.Close()
	}
}

// addrOf returns the host:port of an MCP URL.
func addrOf(url string) string {
	return strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
}

// startMCP listens on o.Addr (or the address of the mcp_port setting when
// o.Addr is empty) and serves the MCP endpoint there, its bridge built from
// cfg, and the question pages of web at /q/ (outside the bearer check; they
// have their own), until the endpoint's stop.
func startMCP(o Options, s settings.Settings, cfg mcpbridge.Config, token string, web *webask.Server) (*mcpEndpoint, *mcpbridge.Bridge, error) {
	if o.NoAuth && o.AllowNonLoopback {
		return nil, nil, errors.New("no-auth mode is for loopback test runs only")
	}
	if o.Addr == "" {
		o.Addr = s.MCPAddr()
	}
	ln, err := listen(o.Addr, o.AllowNonLoopback)
	if err != nil {
		return nil, nil, err
	}
	host, _, _ := net.SplitHostPort(o.Addr) // listen checked it
	e := &mcpEndpoint{dir: o.DataDir, host: host, nonLoopback: o.AllowNonLoopback, log: cfg.Log, timeouts: defaultHTTPTimeouts}
	e.token.Store(&token)
	bridge := mcpbridge.New(cfg)
	mux := http.NewServeMux()
	mux.Handle("/mcp", bridge.HTTPHandler(mcpbridge.HTTPOptions{CurrentToken: e.currentToken, NoAuth: o.NoAuth, ExtraHosts: extraHosts(ln), RemotePeers: o.AllowNonLoopback}))
	web.SetAddr(ln.Addr().String())
	mux.Handle("/q/", web.Handler())
	e.handler = mux
	e.serve(ln)
	return e, bridge, nil
}

// listen listens on addr, which must name a loopback address unless
// nonLoopback is set.
func listen(addr string, nonLoopback bool) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--addr %q: %w", addr, err)
	}
	if !nonLoopback && !loopback.Name(host) {
		return nil, fmt.Errorf("--addr %q: must be a loopback address such as 127.0.0.1", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return ln, nil
}

// extraHosts returns the Host names to accept besides loopback ones: the
// listener's own address when it is not loopback.
func extraHosts(ln net.Listener) []string {
	tcp, ok := ln.Addr().(*net.TCPAddr)
	if !ok || tcp.IP.IsLoopback() {
		return nil
	}
	if !tcp.IP.IsUnspecified() {
		return []string{tcp.IP.String()}
	}
	var hosts []string
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok {
			hosts = append(hosts, ipn.IP.String())
		}
	}
	if h, err := os.Hostname(); err == nil {
		hosts = append(hosts, h)
	}
	return hosts
}
