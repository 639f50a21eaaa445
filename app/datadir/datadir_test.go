package datadir

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImports: the data dir is a leaf every layer may use.
func TestImports(t *testing.T) {
	t.Parallel()
	testkit.ImportsOnly(t, ".", "github.com/asktray/asktray/app/atomicfile", "golang.org/x/sys")
}

// TestTokenInstanceAndLock: the token is made once (0600) and kept, the
// instance file reads back what was written, and a second Lock of the same
// dir is refused with ErrLocked until the first is released.
func TestTokenInstanceAndLock(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "d")
	if err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o700) {
		t.Fatalf("data dir %v %v", fi.Mode(), err)
	}
	tok, err := LoadOrCreateToken(dir)
	if err != nil || len(tok) != 64 {
		t.Fatalf("token %q %v", tok, err)
	}
	if again, err := LoadOrCreateToken(dir); err != nil || again != tok {
		t.Fatalf("token changed: %q %v", again, err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, TokenFile)); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v", fi.Mode())
	}
	in := Instance{PID: 42, Version: "1.2.3", URL: "http://127.0.0.1:7931/mcp", DataDir: dir, GUI: true}
	if err := WriteInstance(dir, in); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadInstance(dir); err != nil || got != in {
		t.Fatalf("instance %+v %v", got, err)
	}
	l, err := Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(dir); !errors.Is(err, ErrLocked) {
		t.Fatalf("second lock: %v", err)
	}
	_ = l.Close()
	l2, err := Lock(dir)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	_ = l2.Close()
}
