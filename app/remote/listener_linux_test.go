package remote

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
)

type fakeAsker struct{ got chan hook.Request }

func (f fakeAsker) Handle(_ context.Context, req hook.Request, registered func()) hook.Reply {
	registered()
	f.got <- req
	return hook.Reply{Behavior: hook.Deny, Message: "no"}
}

// TestListener: the app's socket for a host serves only the process that
// carries the host's connection (another process of the same user gets
// 403), only with the host's key (401), and only the hook call (404); a
// call names the host and keeps the host's sessions apart from this
// machine's.
func TestListener(t *testing.T) {
	t.Parallel()
	var carrier atomic.Int64
	asker := fakeAsker{got: make(chan hook.Request, 1)}
	h := Host{Name: "build-01", Key: NewKey()}
	l := &listener{host: h, asker: asker, carrier: func() int { return int(carrier.Load()) }, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	sock := filepath.Join(t.TempDir(), "h.sock")
	if err := l.listen(sock); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.close)
	if fi, err := os.Stat(sock); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode %v %v", fi.Mode(), err)
	}
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	call := func(method, path, key, body string) int {
		req, _ := http.NewRequest(method, "http://asktray"+path, strings.NewReader(body))
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		res, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	body := `{"agent":"claude-code","hook_event_name":"PermissionRequest","session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"}}`
	if got := call("POST", "/v2/hook", h.Key, body); got != http.StatusForbidden {
		t.Fatalf("with no connection up: %d, want 403", got)
	}
	carrier.Store(1) // init carries it: this process is not its child
	if got := call("POST", "/v2/hook", h.Key, body); got != http.StatusForbidden {
		t.Fatalf("a process that is not the host's ssh: %d, want 403", got)
	}
	carrier.Store(int64(os.Getpid()))
	for _, key := range []string{"", NewKey(), h.Key + "0", strings.ToUpper(h.Key)} {
		if got := call("POST", "/v2/hook", key, body); got != http.StatusUnauthorized {
			t.Fatalf("key %q: %d, want 401", key, got)
		}
	}
	for _, p := range [][2]string{{"GET", "/v1/pending"}, {"POST", "/v1/questions/x/answer"}, {"POST", "/v1/hook"}, {"GET", "/v1/rules"}, {"POST", "/v1/rules"}, {"POST", "/v1/quit"}} {
		if got := call(p[0], p[1], h.Key, "{}"); got != http.StatusNotFound {
			t.Fatalf("%s %s with the key: %d, want 404", p[0], p[1], got)
		}
	}
	if got := call("POST", "/v2/hook", h.Key, body); got != http.StatusOK {
		t.Fatalf("the hook call: %d", got)
	}
	req := <-asker.got
	if req.Host != "build-01" || req.SessionID != "build-01/s1" {
		t.Fatalf("the asker got host %q session %q", req.Host, req.SessionID)
	}
}

// TestListener_BoundsConnections: a host that opens more than MaxConns
// connections at once gets the extra ones closed at once, and a closed
// connection frees its place.
func TestListener_BoundsConnections(t *testing.T) {
	t.Parallel()
	h := Host{Name: "build-01", Key: NewKey()}
	l := &listener{host: h, asker: fakeAsker{got: make(chan hook.Request, 1)}, carrier: os.Getpid, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	sock := filepath.Join(t.TempDir(), "h.sock")
	if err := l.listen(sock); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.close)
	var conns []net.Conn
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	for range MaxConns {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	// Every slot is taken once each connection has been accepted: a request
	// on the last one is served (404 with the key) only when it was, and
	// the connection stays open (HTTP/1.1).
	last := conns[MaxConns-1]
	if _, err := last.Write([]byte("GET /x HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer " + h.Key + "\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(last), nil)
	if err != nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("the %dth connection was not served: %v %v", MaxConns, res, err)
	}
	res.Body.Close()
	extra, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	_ = extra.SetReadDeadline(time.Now().Add(5 * time.Second))
	if b, err := io.ReadAll(extra); len(b) != 0 || err != nil {
		t.Fatalf("a connection past the bound read %q, %v; want it closed at once", b, err)
	}
	conns[0].Close()
	waitFor(t, 10*time.Second, "a freed place", func() bool {
		c, err := net.Dial("unix", sock)
		if err != nil {
			return false
		}
		defer c.Close()
		_, _ = c.Write([]byte("GET /x HTTP/1.0\r\nAuthorization: Bearer " + h.Key + "\r\n\r\n"))
		b, _ := io.ReadAll(c)
		return strings.Contains(string(b), "404")
	})
}
