//go:build unix

package control

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestServer_RefusesOtherUser opens the socket's mode to everyone and calls
// it as user nobody: the uid check alone must refuse. CI runs as root.
func TestServer_RefusesOtherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run a process as another user (CI runs as root)")
	}
	// Not t.TempDir: user nobody must reach the socket, and t.TempDir's
	// parent is 0700.
	dir, err := os.MkdirTemp("", "asktray-peer") //nolint:usetesting // see above
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
