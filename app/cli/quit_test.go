package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/datadir"
)

// TestCLI_Quit asks a running app to quit over its control socket: the
// command returns once the app has removed its instance file, the app exits
// 0 on its own, and a second quit finds no app.
func TestCLI_Quit(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	p := startApp(t, dir, confirm)
	p.askedIDs(t, 1)
	if _, err := os.Stat(filepath.Join(dir, datadir.InstanceFile)); err != nil {
		t.Fatalf("no instance file while the app runs: %v", err)
	}
	if r := run(t, dir, "quit", "now"); r.code != ExitUsage || !strings.Contains(r.stderr, `unexpected argument "now"`) {
		t.Fatalf("quit now: %+v", r)
	}
	r := run(t, dir, "quit")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "Asktray quit." {
		t.Fatalf("quit: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, datadir.InstanceFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("quit returned while the instance file is still there: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- p.cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("the app exited with %v after quit, want 0", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the app still runs 10 s after quit")
	}
	if r := run(t, dir, "quit"); r.code != ExitNoApp || !strings.Contains(r.stderr, "no running app") {
		t.Fatalf("quit with no app: %+v", r)
	}
}
