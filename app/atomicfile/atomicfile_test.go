package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestWrite: the file gets its content and mode, replaces an older one, and
// no temporary file is left behind.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "secret.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("new\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "new\n" {
		t.Fatalf("content %q, %v", b, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", fi.Mode(), err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 {
		t.Fatalf("dir holds %v, %v; want only the file", entries, err)
	}
}

// TestWriteMissingDir: a dir that does not exist is an error, and nothing is written.
func TestWriteMissingDir(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope", "f")
	if err := Write(path, []byte("x"), 0o600); err == nil {
		t.Fatal("no error for a missing dir")
	}
}

// TestWriteSyncsDir: once the file has its new content under its own name,
// Write syncs the directory that holds it, and a failing sync is an error.
func TestWriteSyncsDir(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "policy.json")
	orig := syncDir
	t.Cleanup(func() { syncDir = orig })
	var synced []string
	syncDir = func(d string) error {
		if b, err := os.ReadFile(path); err != nil || string(b) != "new" {
			t.Errorf("dir synced before the rename: %q, %v", b, err)
		}
		synced = append(synced, d)
		return orig(d)
	}
	if err := Write(path, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if len(synced) != 1 || synced[0] != dir {
		t.Fatalf("synced %v, want [%s]", synced, dir)
	}
	syncDir = func(string) error { return errors.New("disk gone") }
	if err := Write(path, []byte("newer"), 0o600); err == nil || !strings.Contains(err.Error(), "disk gone") {
		t.Fatalf("a failed dir sync gave %v", err)
	}
}

// TestSyncDirMissing: syncing a dir that is not there names the problem.
func TestSyncDirMissing(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows does not sync directories")
	}
	if err := syncDir(filepath.Join(t.TempDir(), "nope")); err == nil || !strings.Contains(err.Error(), "sync dir") {
		t.Fatalf("got %v", err)
	}
}
