package xvfbtest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/internal/testkit"
)

// startOpenbox runs the openbox window manager on the desktop's display,
// as a person's desktop would have one, and waits until it manages the
// screen. Openbox gives every new window focus (focusNew), so a dialog that
// opened for a queued question would take the keyboard.
func startOpenbox(t *testing.T, d *desktop) {
	t.Helper()
	need(t, "openbox", "xprop")
	var log strings.Builder
	wm := exec.Command("openbox", "--sm-disable")
	wm.Env = d.env
	wm.Stdout, wm.Stderr = &log, &log
	if err := wm.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- wm.Wait() }()
	t.Cleanup(func() { _ = wm.Process.Kill(); t.Logf("openbox ended: %v", <-exited) })
	deadline := time.Now().Add(60 * time.Second)
	for {
		out, _ := exec.Command("xprop", "-display", displayOf(d), "-root", "_NET_SUPPORTING_WM_CHECK").CombinedOutput()
		if strings.Contains(string(out), "window id") {
			return
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("openbox exited: %v\n%s", err, log.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("openbox did not start: %s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// displayOf returns the desktop's DISPLAY.
func displayOf(d *desktop) string {
	for _, kv := range d.env {
		if v, ok := strings.CutPrefix(kv, "DISPLAY="); ok {
			return v
		}
	}
	return ""
}

// TestQueueNeverTakesFocus: under a window manager that focuses every new
// window, a person typing into an open dialog is never interrupted by the
// questions of another agent: they make no window, the open dialog keeps
// the keyboard and what was typed, and says "1 of 3". Answering it opens
// the next one (the approval, asked last but first in the queue), in the
// reused window with the new client's window class.
func TestQueueNeverTakesFocus(t *testing.T) {
	d := newSession(t)
	startOpenbox(t, d)
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	claude, cursor := d.client(t, "claude-code"), d.client(t, "cursor")
	first := testkit.CallToolAsync(claude, "ask_text", map[string]any{"question": "Name the branch for the dialog work"})
	w := d.waitWindow(t, "claude-code asks", 20*time.Second)
	waitFocus(t, d, w)
	// What is typed before the dialog arms is dropped (docs/arming.md).
	d.waitArmedLine(t, 1)
	d.x(t, "xdotool", "type", "--delay", "40", "feature/q")

	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"ask_confirm", map[string]any{"question": "Run the linters too?", "wait": false}},
		{"request_approval", map[string]any{"action": "Restart the API", "details": "`kubectl rollout restart deploy/api -n prod`", "wait": false}},
	} {
		if _, err := cursor.CallTool(context.Background(), &sdk.CallToolParams{Name: call.tool, Arguments: call.args}); err != nil {
			t.Fatal(err)
		}
	}
	// Longer than a new window takes to appear and be focused here.
	time.Sleep(1500 * time.Millisecond)
	if !d.windowGone("cursor asks") {
		t.Fatal("a queued question opened a window")
	}
	if f := d.x(t, "xdotool", "getwindowfocus"); f != w {
		t.Fatalf("keyboard focus moved to %s from the open dialog %s", f, w)
	}
	if a := d.x(t, "xdotool", "getactivewindow"); a != w {
		t.Fatalf("the window manager's active window is %s, not the open dialog %s", a, w)
	}
	if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" {
		d.screenshot(t, dir+"/xvfb-queue.png")
	}
	// Typing went on into the open dialog; Enter (armed long ago) answers it.
	d.x(t, "xdotool", "type", "--delay", "40", "_42")
	time.Sleep(700 * time.Millisecond)
	d.x(t, "xdotool", "key", "--clearmodifiers", "Return")
	if got := testkit.WaitToolResult(t, first, 30*time.Second); got["status"] != "answered" || got["answer"] != "feature/q_42" {
		t.Fatalf("first question got %v", got)
	}
	next := d.waitWindow(t, "cursor asks", 20*time.Second)
	waitFocus(t, d, next)
	if class := d.x(t, "xprop", "-id", next, "WM_CLASS"); !strings.Contains(class, `"cursor asks"`) {
		t.Fatalf("the next dialog's window class: %s", class)
	}
	if out, _ := d.cli("pending"); !strings.Contains(out, "Restart the API") || !strings.Contains(out, "linters") {
		t.Fatalf("pending:\n%s", out)
	}
}

// waitFocus waits until window w has the keyboard focus.
func waitFocus(t *testing.T, d *desktop, w string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for d.x(t, "xdotool", "getwindowfocus") != w {
		if time.Now().After(deadline) {
			t.Fatalf("window %s did not get the keyboard focus", w)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
