package history

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestUnreadableAndSetAside(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	s, err := Open(good)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	whole, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"garbage":   []byte(strings.Repeat("not a database ", 300)),
		"truncated": whole[:len(whole)/2],
	} {
		p := filepath.Join(dir, name+".db")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Open(p)
		if !Unreadable(err) {
			t.Errorf("%s: Open = %v, want an error Unreadable reports", name, err)
		}
	}
	if Unreadable(errors.New("database is locked")) || Unreadable(nil) || Unreadable(os.ErrPermission) {
		t.Error("Unreadable reports an error that is not about a damaged file")
	}

	p := filepath.Join(dir, "garbage.db")
	for _, ext := range []string{"-wal", "-shm"} {
		if err := os.WriteFile(p+ext, []byte(ext), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Date(2026, 12, 5, 0, 15, 0, 0, time.UTC)
	aside, err := SetAside(p, now)
	if err != nil || aside != p+".unreadable-20261205T001500Z" {
		t.Fatalf("SetAside = %q, %v", aside, err)
	}
	for _, ext := range []string{"", "-wal", "-shm"} {
		if _, err := os.Stat(p + ext); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s%s is still there: %v", p, ext, err)
		}
		if _, err := os.Stat(aside + ext); err != nil {
			t.Errorf("%s%s: %v", aside, ext, err)
		}
	}
	// A second file set aside in the same second gets its own name.
	if err := os.WriteFile(p, []byte("again"), 0o600); err != nil {
		t.Fatal(err)
	}
	if again, err := SetAside(p, now); err != nil || again == aside || !strings.HasPrefix(again, aside) {
		t.Errorf("second SetAside = %q, %v", again, err)
	}
	if _, err := SetAside(filepath.Join(dir, "none.db"), now); err == nil || !strings.Contains(err.Error(), "none.db") {
		t.Errorf("SetAside of a missing file: %v", err)
	}
}
