//go:build unix

package control

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/question"
)

// serveBounded serves a broker on a socket with the given bounds and
// returns the socket's path.
func serveBounded(t *testing.T, idle time.Duration, maxConns int) (string, *Server) {
	t.Helper()
	b := question.NewBroker(question.Config{Journal: historytest.New(t)})
	s := &Server{Broker: b, Status: func() Status { return Status{} }, IdleTimeout: idle, MaxConnsPerUser: maxConns}
	sock := filepath.Join(t.TempDir(), "c.sock")
	if err := s.Listen(sock); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = s.Shutdown(context.Background())
		_ = b.Close()
	})
	return sock, s
}

// callAndWait dials sock, makes one call and returns the connection, now
// waiting for its next request.
func callAndWait(t *testing.T, sock string) net.Conn {
	t.Helper()
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprint(c, "GET /v1/status HTTP/1.1\r\nHost: asktray\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return c
}

// closedWithin reports whether the app closes c within d: a read ends.
func closedWithin(c net.Conn, d time.Duration) bool {
	_ = c.SetReadDeadline(time.Now().Add(d))
	_, err := c.Read(make([]byte, 1))
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false
	}
	return err != nil
}

// TestServer_ClosesIdleConnections (issue 33 item 1): a connection that
// made a call and then waits, as the agent's 1,500 did, is closed after the
// idle timeout. On f02af39 it stayed open for good (no IdleTimeout: the
// server waited for its next request without a deadline).
func TestServer_ClosesIdleConnections(t *testing.T) {
	t.Parallel()
	sock, _ := serveBounded(t, 300*time.Millisecond, 0)
	c := callAndWait(t, sock)
	if !closedWithin(c, 10*time.Second) {
		t.Fatal("an idle connection still open 10 s after a 300 ms idle timeout")
	}
}

// TestServer_BoundsConnectionsPerUser (issue 33 item 1): one user holding
// as many connections as the bound allows, each waiting, gets its oldest
// one closed for each new connection, and every new one is served.
func TestServer_BoundsConnectionsPerUser(t *testing.T) {
	t.Parallel()
	sock, s := serveBounded(t, time.Hour, 2)
	user := uidUser(os.Getuid())
	// Each waits once the server has marked it idle, so that which one
	// waited longest is the order they were made in.
	waitIdle := func(n int) {
		for deadline := time.Now().Add(10 * time.Second); s.conns.waiting(user) != n; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d connections waiting, want %d", s.conns.waiting(user), n)
			}
		}
	}
	first := callAndWait(t, sock)
	waitIdle(1)
	second := callAndWait(t, sock)
	waitIdle(2)
	third := callAndWait(t, sock) // served: the oldest made room
	if !closedWithin(first, 10*time.Second) {
		t.Fatal("the oldest waiting connection is still open past the bound of 2")
	}
	if closedWithin(second, 200*time.Millisecond) || closedWithin(third, 200*time.Millisecond) {
		t.Fatal("a connection within the bound was closed")
	}
}
