package app

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/settings"
)

// freePort returns a loopback port nobody listens on right now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// initStatus POSTs an MCP initialize to url with token and returns the
// HTTP status, or 0 when nothing answers.
func initStatus(t *testing.T, url, token string) int {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}
	resp, err := c.Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// runApp starts a headless app on dir and returns its Env; the app stops at
// the end of the test.
func runApp(t *testing.T, dir, addr string) Env {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan Env, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{DataDir: dir, Addr: addr, Headless: true, Version: "test",
			Ready: func(_ datadir.Instance, env Env) { ready <- env }})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run returned %v", err)
		}
	})
	select {
	case env := <-ready:
		return env
	case err := <-done:
		done <- err
		t.Fatalf("Run: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("not ready")
	}
	return Env{}
}

// TestMCPPortSettingMovesTheServer starts on the mcp_port setting, moves the
// server by applying another port, and checks that the old port is closed,
// the new one answers, and the instance file and control status follow.
func TestMCPPortSettingMovesTheServer(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if err := datadir.Ensure(dir); err != nil {
		t.Fatal(err)
	}
	first := freePort(t)
	if err := settings.Save(dir, settings.Settings{MCPPort: first}); err != nil {
		t.Fatal(err)
	}
	env := runApp(t, dir, "") // no --addr: the setting decides
	url, tok := env.Endpoint()
	if want := "http://127.0.0.1:" + strconv.Itoa(first) + "/mcp"; url != want || tok == "" {
		t.Fatalf("started at %s, want %s", url, want)
	}
	if got := initStatus(t, url, tok); got != http.StatusOK {
		t.Fatalf("initialize at start: %d", got)
	}

	// A port out of range, or one that is taken, is refused and nothing moves.
	if err := env.ApplySettings(settings.Settings{MCPPort: 80}); err == nil || !strings.Contains(err.Error(), "mcp_port: must be between 1024 and 65535") {
		t.Fatalf("port 80: %v", err)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	if err := env.ApplySettings(settings.Settings{MCPPort: busy.Addr().(*net.TCPAddr).Port}); err == nil || !strings.Contains(err.Error(), "mcp_port") {
		t.Fatalf("busy port: %v", err)
	}
	if now, _ := env.Endpoint(); now != url {
		t.Fatalf("moved to %s after a failed apply", now)
	}
	if st, _ := settings.Load(dir); st.MCPPort != first {
		t.Fatalf("failed apply saved port %d", st.MCPPort)
	}

	second := freePort(t)
	if err := env.ApplySettings(settings.Settings{MCPPort: second, DefaultTimeoutSeconds: 60}); err != nil {
		t.Fatal(err)
	}
	moved, _ := env.Endpoint()
	if want := "http://127.0.0.1:" + strconv.Itoa(second) + "/mcp"; moved != want {
		t.Fatalf("moved to %s, want %s", moved, want)
	}
	if got := initStatus(t, moved, tok); got != http.StatusOK {
		t.Fatalf("initialize on the new port: %d", got)
	}
	if got := initStatus(t, url, tok); got != 0 {
		t.Fatalf("old port still answers: %d", got)
	}
	if in, err := datadir.ReadInstance(dir); err != nil || in.URL != moved || in.Addr != "127.0.0.1:"+strconv.Itoa(second) {
		t.Fatalf("instance %+v %v", in, err)
	}
	st, err := control.NewClient(filepath.Join(dir, datadir.SocketFile)).Status(context.Background())
	if err != nil || st.URL != moved {
		t.Fatalf("control status %+v %v", st, err)
	}
	q, err := env.Broker.Ask(context.Background(), question.Question{Kind: question.KindConfirm, Message: "ok?"})
	if err != nil {
		t.Fatal(err)
	}
	if link := env.WebURL(q.ID); !strings.HasPrefix(link, "http://127.0.0.1:"+strconv.Itoa(second)+"/q/") {
		t.Fatalf("question page link %q does not follow the move", link)
	}
	if s, _ := settings.Load(dir); s.MCPPort != second || s.DefaultTimeoutSeconds != 60 {
		t.Fatalf("saved %+v", s)
	}
	// Saving other settings with the same port leaves the server where it is.
	if err := env.ApplySettings(settings.Settings{MCPPort: second}); err != nil {
		t.Fatal(err)
	}
	if got := initStatus(t, moved, tok); got != http.StatusOK {
		t.Fatalf("after a save without a port change: %d", got)
	}
}

// TestRegenerateTokenTakesEffectAtOnce regenerates the token of a running
// app: the old token gets 401 from the next request on, the new one works,
// and the token file holds it with mode 0600.
func TestRegenerateTokenTakesEffectAtOnce(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	env := runApp(t, dir, "127.0.0.1:0")
	url, old := env.Endpoint()
	if got := initStatus(t, url, old); got != http.StatusOK {
		t.Fatalf("initialize with the first token: %d", got)
	}
	tok, err := env.RegenerateToken()
	if err != nil || len(tok) != 64 || tok == old {
		t.Fatalf("regenerate gave %q %v", tok, err)
	}
	if got := initStatus(t, url, old); got != http.StatusUnauthorized {
		t.Fatalf("old token after regeneration: %d, want 401", got)
	}
	if got := initStatus(t, url, tok); got != http.StatusOK {
		t.Fatalf("new token: %d", got)
	}
	if _, now := env.Endpoint(); now != tok {
		t.Fatalf("Endpoint token %q, want the new one", now)
	}
	b, err := os.ReadFile(filepath.Join(dir, datadir.TokenFile))
	if err != nil || strings.TrimSpace(string(b)) != tok {
		t.Fatalf("token file %q %v", b, err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, datadir.TokenFile)); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v", fi.Mode().Perm())
	}
}
