package xvfbtest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asktray/asktray/app/datadir"
)

// withoutDisplay is env with no DISPLAY or WAYLAND_DISPLAY: a start from
// an SSH session or a service.
func withoutDisplay(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			out = append(out, kv)
		}
	}
	return out
}

// TestStaleInstanceNeverBlocks: an app killed outright leaves its instance
// file and socket behind; the next start runs all the same (issue 37 item
// 12).
func TestStaleInstanceNeverBlocks(t *testing.T) {
	d := newSession(t)
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	old := d.app
	if err := old.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = old.Wait()
	if _, err := os.Stat(filepath.Join(d.dataDir, datadir.InstanceFile)); err != nil {
		t.Fatalf("the killed app left no instance file, so this test proves nothing: %v", err)
	}
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	// The app writes its instance file a moment after its socket serves,
	// which is what start waits for.
	var in datadir.Instance
	var err error
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		in, err = datadir.ReadInstance(d.dataDir)
		if err == nil && in.PID == d.app.Process.Pid {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("instance file %+v (%v) 10 s after the start, want pid %d", in, err, d.app.Process.Pid)
		}
	}
}

// TestSecondStartWithoutDisplay: a second start with no display, while the
// app runs and while it quits, never panics: it says the app runs (exit 1),
// and the running app shows its window or, quitting, says nothing was
// shown; the app itself ends cleanly (issue 37 item 12: a second start
// asking a quitting app to show its status crashed it with GLFW's
// NotInitialized).
func TestSecondStartWithoutDisplay(t *testing.T) {
	d := newBareSession(t)
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	// Once the app has gone, a second start is the app: it serves
	// (headless) until the time-out ends it.
	second := func() (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
		cmd.Env = withoutDisplay(d.env)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := second()
	if err == nil || !strings.Contains(out, "already running") || strings.Contains(out, "panic") {
		t.Fatalf("second start: %v\n%s", err, out)
	}
	d.waitWindow(t, "Asktray", 20*time.Second)

	// Quit, and start again and again while the app goes.
	if out, err := d.cli("quit"); err != nil {
		t.Fatalf("quit: %v\n%s", err, out)
	}
	exited := make(chan error, 1)
	go func() { exited <- d.app.Wait() }()
	for deadline := time.Now().Add(20 * time.Second); ; {
		select {
		case err := <-exited:
			if err != nil {
				t.Fatalf("the app ended with %v after the quit", err)
			}
			d.app = exec.Command("true") // the harness's cleanup has nothing left to stop
			_ = d.app.Run()
			return
		default:
		}
		if out, _ := second(); strings.Contains(out, "panic") || strings.Contains(out, "goroutine ") {
			t.Fatalf("a second start during the quit panicked:\n%s", out)
		}
		if time.Now().After(deadline) {
			t.Fatal("the app did not end within 20 s of the quit")
		}
	}
}
