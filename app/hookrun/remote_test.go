//go:build linux

package hookrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/datadir"
)

// TestRemoteChannel: a machine without a remote key is no remote host; a
// remote host's channel is used only when its dir is 0700 and its key
// 0600, and holds a key as 'asktray remote add' writes it.
func TestRemoteChannel(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if ch, err := RemoteChannel(dir); err != nil || ch.Key != "" {
		t.Fatalf("no key file: %+v, %v", ch, err)
	}
	rdir := filepath.Join(dir, datadir.RemoteDir)
	key := strings.Repeat("ab", 32)
	kpath := filepath.Join(rdir, datadir.RemoteKeyFile)
	if err := os.MkdirAll(rdir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kpath, []byte(key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ch, err := RemoteChannel(dir)
	if err != nil || ch.Key != key || ch.Socket != filepath.Join(rdir, datadir.RemoteSocket) {
		t.Fatalf("a good channel: %+v, %v", ch, err)
	}
	for _, c := range []struct {
		name  string
		setup func() error
		want  string
	}{
		{"dir open to others", func() error { return os.Chmod(rdir, 0o755) }, "0700"},
		{"key readable by others", func() error { return os.Chmod(kpath, 0o644) }, "0600"},
		{"key not hex", func() error { return os.WriteFile(kpath, []byte("x\r\nInjected: 1"), 0o600) }, "64 hex"},
		{"key a symlink", func() error {
			other := filepath.Join(dir, "elsewhere")
			if err := os.WriteFile(other, []byte(key), 0o600); err != nil {
				return err
			}
			os.Remove(kpath)
			return os.Symlink(other, kpath)
		}, "regular"},
	} {
		if err := c.setup(); err != nil {
			t.Fatal(err)
		}
		if _, err := RemoteChannel(dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
		_ = os.Chmod(rdir, 0o700)
		_ = os.Remove(kpath)
		_ = os.WriteFile(kpath, []byte(key), 0o600)
	}
}

// TestSSHServes: the channel's socket must be served by sshd; this test
// process is not.
func TestSSHServes(t *testing.T) {
	t.Parallel()
	if err := SSHServes(os.Getpid()); err == nil || !strings.Contains(err.Error(), "not by sshd") {
		t.Fatalf("SSHServes(self) = %v", err)
	}
}
