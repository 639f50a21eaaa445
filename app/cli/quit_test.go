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

// TestWaitGone: quit's wait ends when the app removes its instance file
// (clean), and also when the app's process ends without removing it, as
// when Xlib or a signal killed it: the lock is then free, and the stale
// file is removed. While the app holds its lock and keeps the file, the
// wait runs to its limit.
func TestWaitGone(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	hold := func(dir string) *os.File {
		t.Helper()
		if err := datadir.WriteInstance(dir, datadir.Instance{PID: 1}); err != nil {
			t.Fatal(err)
		}
		lock, err := datadir.Lock(dir)
		if err != nil {
			t.Fatal(err)
		}
		return lock
	}

	dir := t.TempDir()
	lock := hold(dir)
	if clean, err := waitGone(ctx, dir, 200*time.Millisecond); err == nil || clean {
		t.Fatalf("an app that keeps running: clean %v, err %v; want the limit's error", clean, err)
	}

	time.AfterFunc(100*time.Millisecond, func() { lock.Close() }) // the app dies
	if clean, err := waitGone(ctx, dir, 10*time.Second); err != nil || clean {
		t.Fatalf("an app that died: clean %v, err %v; want not clean, no error", clean, err)
	}
	if _, err := os.Stat(filepath.Join(dir, datadir.InstanceFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the stale instance file is still there: %v", err)
	}

	running := t.TempDir()
	defer hold(running).Close()
	time.AfterFunc(100*time.Millisecond, func() { os.Remove(filepath.Join(running, datadir.InstanceFile)) })
	if clean, err := waitGone(ctx, running, 10*time.Second); err != nil || !clean {
		t.Fatalf("an app that shut down: clean %v, err %v; want clean", clean, err)
	}
}
