package control

import (
	"errors"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestConnTracker_BoundsEachUser: past the bound, a new connection of a
// user closes that user's longest-waiting connection, one that serves no
// request; when every one serves a request, the new one is closed instead;
// another user's connections neither count nor are closed.
func TestConnTracker_BoundsEachUser(t *testing.T) {
	t.Parallel()
	tr := newConnTracker(3, func() *slog.Logger { return slog.New(slog.DiscardHandler) })
	pipe := func() (net.Conn, net.Conn) {
		a, b := net.Pipe()
		t.Cleanup(func() { a.Close(); b.Close() })
		return a, b
	}
	var mine, peers []net.Conn
	for range 3 {
		c, p := pipe()
		if !tr.admit(c) {
			t.Fatal("a connection under the bound refused")
		}
		tr.state(c, http.StateActive) // serving a request (a hook waiting for the person)
		mine, peers = append(mine, c), append(peers, p)
	}
	extra, extraPeer := pipe()
	if tr.admit(extra) {
		t.Fatal("a fourth connection admitted while three serve requests")
	}
	if !closedPeer(extraPeer) {
		t.Fatal("the refused connection is still open")
	}
	tr.state(mine[1], http.StateIdle)
	tr.state(mine[2], http.StateIdle)
	tr.state(mine[1], http.StateActive)
	tr.state(mine[1], http.StateIdle) // now mine[2] has waited longest
	next, _ := pipe()
	if !tr.admit(next) {
		t.Fatal("a new connection refused while others wait idle")
	}
	if !closedPeer(peers[2]) {
		t.Fatal("the longest-waiting connection was not closed to make room")
	}
	if n := tr.open("unknown"); n != 3 {
		t.Fatalf("%d connections count, want 3", n)
	}
	tr.state(mine[2], http.StateClosed) // the server's own close of the evicted one
	tr.state(mine[0], http.StateClosed)
	if n := tr.open("unknown"); n != 2 {
		t.Fatalf("%d connections count after closes, want 2", n)
	}
}

// closedPeer reports whether p's other end was closed: a read ends at once
// with an error other than a time-out (one read waits at most 5 s, so that
// a connection left open fails the test rather than hanging it).
func closedPeer(p net.Conn) bool {
	_ = p.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err := p.Read(make([]byte, 1))
	var ne net.Error
	return err != nil && (!errors.As(err, &ne) || !ne.Timeout())
}
