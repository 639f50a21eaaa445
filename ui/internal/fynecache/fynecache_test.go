package fynecache_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
	_ "unsafe" // for go:linkname

	_ "fyne.io/fyne/v2/app"

	_ "github.com/asktray/asktray/ui/internal/fynecache"
)

// validDuration is Fyne's internal cache.ValidDuration (v2.7.1), read once
// from FYNE_CACHE when that package is initialized.
//
//go:linkname validDuration fyne.io/fyne/v2/internal/cache.ValidDuration
var validDuration time.Duration

func TestFyneReadsTheShorterCache(t *testing.T) {
	// FYNE_CACHE is this package's Expiry unless the environment set its own.
	want, err := time.ParseDuration(os.Getenv("FYNE_CACHE"))
	if err != nil {
		t.Fatalf("FYNE_CACHE=%q: %v", os.Getenv("FYNE_CACHE"), err)
	}
	if validDuration != want {
		t.Fatalf("Fyne keeps widgets %v, not %v: fyne.io/fyne/v2/internal/cache was initialized before this package", validDuration, want)
	}
}

// TestImportsOnlyOS keeps the package initialized early: Go initializes a
// package once its imports are, so any import that waits for more than os
// could let Fyne read FYNE_CACHE first.
func TestImportsOnlyOS(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \" \"}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "os" {
		t.Fatalf("ui/internal/fynecache imports %q; it may import only os", got)
	}
}
