//go:build unix

package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestModes_RealStart starts the real app with umask 0, so nothing is private
// by accident, and checks what it made: the data dir and its directories
// 0700, every file 0600 (token, history, log, instance, lock), the control
// socket reachable only by its owner. Not parallel: umask is per process.
func TestModes_RealStart(t *testing.T) {
	dir := shortTempDir(t)
	old := syscall.Umask(0)
	p := startApp(t, dir)
	syscall.Umask(old)
	if r := run(t, dir, "url"); r.code != 0 {
		t.Fatalf("url: %+v", r)
	}
	seen := map[string]bool{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		seen[rel] = true
		mode := fi.Mode()
		switch {
		case mode.IsDir():
			if mode.Perm() != 0o700 {
				t.Errorf("dir %s: mode %v, want 0700", rel, mode.Perm())
			}
		case mode&fs.ModeSocket != 0:
			if mode.Perm()&0o077 != 0 {
				t.Errorf("socket %s: mode %v, open to others", rel, mode.Perm())
			}
		case mode.IsRegular():
			if mode.Perm() != 0o600 {
				t.Errorf("file %s: mode %v, want 0600", rel, mode.Perm())
			}
		default:
			t.Errorf("%s: unexpected %v", rel, mode)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".", "token", "history.db", "log/asktray.log", "instance.json", "control.sock"} {
		if !seen[want] {
			t.Errorf("%s missing after start (saw %v)", want, seen)
		}
	}
	p.stop(t)
}
