package control

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestCheckPeer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		p    *peer
		ok   bool
	}{
		{"same uid", &peer{uid: 1000}, true},
		{"other uid", &peer{uid: 1001}, false},
		{"root is another user too", &peer{uid: 0}, false},
		{"unknown peer", nil, false},
		{"uid unreadable", &peer{uid: 1000, err: errors.New("no SO_PEERCRED")}, false},
	}
	for _, tc := range cases {
		err := checkPeer(tc.p, 1000)
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, errOtherUser)) {
			t.Errorf("%s: checkPeer = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

// The helper process calls the socket named by peerHelperEnv: POST with
// peerBodyEnv to the path in peerPathEnv if both are set, GET that path if
// only it is, else GET /v1/status.
const (
	peerHelperEnv = "ASKTRAY_TEST_PEER_SOCKET"
	peerPathEnv   = "ASKTRAY_TEST_PEER_PATH"
	peerBodyEnv   = "ASKTRAY_TEST_PEER_BODY"
)

// TestPeerHelperProcess is not a test: other tests run the test binary as
// another user, without a terminal or on a pseudo-terminal, with
// peerHelperEnv set, and this makes one raw call on the socket and prints
// the status code and body.
func TestPeerHelperProcess(t *testing.T) {
	sock := os.Getenv(peerHelperEnv)
	if sock == "" {
		return
	}
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	var resp *http.Response
	var err error
	if path, body := os.Getenv(peerPathEnv), os.Getenv(peerBodyEnv); path != "" && body == "" {
		resp, err = hc.Get("http://asktray" + path)
	} else if path != "" {
		resp, err = hc.Post("http://asktray"+path, "application/json", strings.NewReader(os.Getenv(peerBodyEnv)))
	} else {
		resp, err = hc.Get("http://asktray/v1/status")
	}
	if err != nil {
		os.Stdout.WriteString("error: " + err.Error())
		os.Exit(0)
	}
	b, _ := io.ReadAll(resp.Body)
	os.Stdout.WriteString(resp.Status + " " + string(b))
	os.Exit(0)
}

// TestServer_RefusesOtherUser opens the socket's mode to everyone and calls
// it as user nobody: the uid check alone must refuse. CI runs as root.
func TestServer_RefusesOtherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run a process as another user (CI runs as root)")
	}
	dir, err := os.MkdirTemp("", "asktray-peer")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	// The test binary may sit in a 0700 build dir; give nobody a copy.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "control.test")
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	c, _ := newServerIn(t, dir)
	if _, err := c.Status(context.Background()); err != nil {
		t.Fatalf("the app's own user is refused: %v", err)
	}
	sock := filepath.Join(dir, "c.sock")
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(sock, 0o666); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestPeerHelperProcess$")
	cmd.Env = []string{peerHelperEnv + "=" + sock}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper as nobody: %v\n%s", err, out)
	}
	if !strings.HasPrefix(string(out), "403 ") || !strings.Contains(string(out), `"code":"other_user"`) {
		t.Fatalf("a call from uid 65534 got %q, want 403 other_user", out)
	}
}
