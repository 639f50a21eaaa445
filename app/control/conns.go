package control

import (
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// The bounds on the control socket's connections.
const (
	// DefaultIdleTimeout closes a connection that has waited this long for
	// its next request; the client (NewClient) drops its own idle
	// connections sooner.
	DefaultIdleTimeout = time.Minute
	// DefaultMaxConnsPerUser bounds the connections one user holds open at
	// once. A hook waiting for the person holds one each.
	DefaultMaxConnsPerUser = 128
)

// connTracker counts the open connections of each user and closes what
// passes the bound: a new connection over it first makes room by closing
// that user's longest-waiting connection that serves no request, and is
// itself closed when every one is serving. It also closes the pidfd of each
// connection's process once the connection ends. Its methods may be called
// from any goroutine.
type connTracker struct {
	max int
	log func() *slog.Logger

	mu      sync.Mutex
	seq     uint64 // the last waitSeq given
	conns   map[net.Conn]*connInfo
	perUser map[string]int
}

type connInfo struct {
	user      string
	evicted   bool      // closed to make room, no longer counted
	waitSince time.Time // since when it waits for a request; zero while one is served
	// waitSeq orders the waits: Windows' clock ticks every ~15 ms, so two
	// waits begun in one tick have the same waitSince.
	waitSeq uint64
	peer    *peer
}

func newConnTracker(maxPerUser int, log func() *slog.Logger) *connTracker {
	return &connTracker{max: maxPerUser, log: log, conns: map[net.Conn]*connInfo{}, perUser: map[string]int{}}
}

// admit decides whether the new connection c may be served, closing an
// idle connection of the same user to make room, or c itself. It runs on
// the accept goroutine and does not block.
func (t *connTracker) admit(c net.Conn) bool {
	user, err := peerUser(c)
	if err != nil {
		user = "unknown" // refused per request (sameUser), bounded here as one user
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.perUser[user] >= t.max {
		var oldest net.Conn
		for oc, in := range t.conns {
			if in.user == user && !in.evicted && !in.waitSince.IsZero() && (oldest == nil || in.waitSeq < t.conns[oldest].waitSeq) {
				oldest = oc
			}
		}
		if oldest == nil {
			t.log().Warn("control connection refused: too many open", "user", user, "limit", t.max)
			_ = c.Close()
			return false
		}
		t.log().Warn("control connection closed to make room: too many open", "user", user, "limit", t.max)
		t.uncount(t.conns[oldest])
		_ = oldest.Close()
	}
	t.seq++
	t.conns[c] = &connInfo{user: user, waitSince: time.Now(), waitSeq: t.seq}
	t.perUser[user]++
	return true
}

// setPeer records the peer connContext read for c.
func (t *connTracker) setPeer(c net.Conn, p *peer) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if in := t.conns[c]; in != nil {
		in.peer = p
	}
}

// state follows c through the http.Server's states (its ConnState hook).
func (t *connTracker) state(c net.Conn, s http.ConnState) {
	t.mu.Lock()
	defer t.mu.Unlock()
	in := t.conns[c]
	if in == nil {
		return
	}
	switch s {
	case http.StateActive:
		in.waitSince = time.Time{}
	case http.StateIdle:
		in.waitSince = time.Now()
		t.seq++
		in.waitSeq = t.seq
	case http.StateClosed, http.StateHijacked:
		t.uncount(in)
		delete(t.conns, c)
		if in.peer != nil {
			in.peer.proc.close() // no request runs on it any more
		}
	}
}

// uncount drops in from its user's count, once; t.mu must be held.
func (t *connTracker) uncount(in *connInfo) {
	if in.evicted {
		return
	}
	in.evicted = true
	if t.perUser[in.user]--; t.perUser[in.user] <= 0 {
		delete(t.perUser, in.user)
	}
}

// waiting returns how many connections of user wait for a request; tests
// use it.
func (t *connTracker) waiting(user string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, in := range t.conns {
		if in.user == user && !in.evicted && !in.waitSince.IsZero() {
			n++
		}
	}
	return n
}

// open returns how many connections of user count; tests use it.
func (t *connTracker) open(user string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.perUser[user]
}

// limitListener hands the http.Server only the connections its tracker
// admits.
type limitListener struct {
	net.Listener
	t *connTracker
}

// Accept blocks until a connection the tracker admits arrives.
func (l limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.t.admit(c) {
			return c, nil
		}
	}
}
