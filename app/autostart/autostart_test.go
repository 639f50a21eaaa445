package autostart

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImports: start at login is a leaf; it knows nothing of the app.
func TestImports(t *testing.T) {
	t.Parallel()
	testkit.ImportsOnly(t, ".", "github.com/asktray/asktray/app/atomicfile", "golang.org/x/sys")
}

func TestLoginExecutable_PrefersTheLinkOnPath(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "opt", "asktray-0.1", "asktray")
	link := filepath.Join(dir, "bin", "asktray")
	for _, d := range []string{filepath.Dir(real), filepath.Dir(link)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(real, []byte("#!/bin/sh\n"), 0o755); err != nil { //nolint:gosec // an executable stand-in
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	// Not on PATH: the resolved file.
	t.Setenv("PATH", filepath.Join(dir, "elsewhere"))
	if got, err := loginExecutable(link, "asktray"); err != nil || got != real {
		t.Fatalf("got %q %v, want %q", got, err, real)
	}
	// On PATH as a link to the same file: the link, which survives upgrades.
	t.Setenv("PATH", filepath.Dir(link))
	if got, err := loginExecutable(real, "asktray"); err != nil || got != link {
		t.Fatalf("got %q %v, want %q", got, err, link)
	}
	// A go run build is refused with what to do instead.
	tmp := filepath.Join(dir, "go-build123", "b001", "exe", "asktray")
	if err := os.MkdirAll(filepath.Dir(tmp), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tmp, nil, 0o755); err != nil { //nolint:gosec // an executable stand-in
		t.Fatal(err)
	}
	if _, err := loginExecutable(tmp, "asktray"); err == nil || !strings.Contains(err.Error(), "make install") {
		t.Fatalf("go run build: %v", err)
	}
}
