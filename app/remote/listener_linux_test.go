package remote

import (
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
	for _, p := range [][2]string{{"GET", "/v1/pending"}, {"POST", "/v1/questions/x/answer"}, {"POST", "/v1/hook"}, {"GET", "/v1/rules"}, {"POST", "/v1/quit"}} {
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
