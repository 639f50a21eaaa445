package atomicfile

import (
	"os"
	"path/filepath"
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
