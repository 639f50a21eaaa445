package xvfbtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
)

// TestWaylandWithoutXWaylandRunsHeadless is item 7 of issue 37 on the real
// binary: a Wayland session without XWayland (WAYLAND_DISPLAY set, no
// DISPLAY). The X11 build cannot show a window there, and it panicked
// (GLFW NotInitialized, exit 2). Now it says what is missing, on stderr and
// in its log, and serves without windows: a question waits for an answer
// ('asktray pending' lists it), and 'asktray quit' ends it with status 0.
func TestWaylandWithoutXWaylandRunsHeadless(t *testing.T) {
	need(t, "dbus-daemon")
	d := &desktop{bin: testkit.Binary(t), dataDir: filepath.Join(t.TempDir(), "data")}
	d.env = append(withoutDisplay(os.Environ()), "WAYLAND_DISPLAY=wayland-asktray-test",
		"DBUS_SESSION_BUS_ADDRESS="+testkit.StartBus(t), "LANG=C.UTF-8")
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	s := d.client(t, "e2e-agent")
	res := testkit.CallToolAsync(s, "ask_confirm", map[string]any{"question": "Deploy now?"})
	deadline := time.Now().Add(20 * time.Second)
	for out, _ := d.cli("pending"); !strings.Contains(out, "Deploy now?"); out, _ = d.cli("pending") {
		if time.Now().After(deadline) {
			t.Fatalf("the question is not pending: %s", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if out, err := d.cli("quit"); err != nil {
		t.Fatalf("quit: %v\n%s", err, out)
	}
	exited := make(chan error, 1)
	go func() { exited <- d.app.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("the app ended with %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the app did not end after the quit")
	}
	if got := testkit.WaitToolResult(t, res, 10*time.Second); got["status"] == "answered" {
		t.Errorf("the question was answered without a person: %v", got)
	}
	stderr, _ := os.ReadFile(d.stderrPath)
	logged, _ := os.ReadFile(filepath.Join(d.dataDir, "log", "asktray.log"))
	if !strings.Contains(string(stderr), "no XWayland (DISPLAY is not set)") || strings.Contains(string(stderr), "panic") {
		t.Errorf("stderr does not say what is missing, or panicked:\n%s", stderr)
	}
	if !strings.Contains(string(logged), "no windows: this Wayland session has no XWayland") {
		t.Errorf("the log does not say what is missing:\n%s", logged)
	}
}
