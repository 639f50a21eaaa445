package xvfbtest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// startI3 runs the i3 tiling window manager on the desktop's display and
// waits until it manages the screen. Like sway, i3 tiles a normal window
// and floats a dialog (by its window type, or size hints that fix its
// size) when it maps it.
func startI3(t *testing.T, d *desktop) {
	t.Helper()
	need(t, "i3", "i3-msg", "xprop")
	conf := filepath.Join(t.TempDir(), "i3.conf")
	if err := os.WriteFile(conf, []byte("# i3 config file (v4)\nfont pango:monospace 8\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	wm := exec.Command("i3", "-c", conf)
	wm.Env = d.env
	wm.Stdout, wm.Stderr = &log, &log
	if err := wm.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- wm.Wait() }()
	t.Cleanup(func() { _ = wm.Process.Kill(); t.Logf("i3 ended: %v", <-exited) })
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		cmd := exec.Command("i3-msg", "-t", "get_version")
		cmd.Env = d.env
		if cmd.Run() == nil {
			return
		}
		select {
		case err := <-exited:
			exited <- err // for the cleanup, which waits for it
			t.Fatalf("i3 exited: %v\n%s", err, log.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("i3 did not start:\n%s", log.String())
		}
	}
}

// i3Node is the part of i3's layout tree the test reads.
type i3Node struct {
	Window   int64    `json:"window"`
	Rect     i3Rect   `json:"rect"`
	Nodes    []i3Node `json:"nodes"`
	Floating []i3Node `json:"floating_nodes"`
}

type i3Rect struct{ Width, Height int }

// i3Window reports whether i3 holds X window id, whether it floats, and
// its size.
func i3Window(t *testing.T, d *desktop, id string) (found, floating bool, rect i3Rect) {
	t.Helper()
	want, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	var root i3Node
	if err := json.Unmarshal([]byte(d.x(t, "i3-msg", "-t", "get_tree")), &root); err != nil {
		t.Fatal(err)
	}
	var walk func(n i3Node, inFloat bool)
	walk = func(n i3Node, inFloat bool) {
		if n.Window == want {
			found, floating, rect = true, inFloat, n.Rect
		}
		for _, c := range n.Nodes {
			walk(c, inFloat)
		}
		for _, c := range n.Floating {
			walk(c, true)
		}
	}
	walk(root, false)
	return found, floating, rect
}

// TestDialogFloatsUnderTilingWM: under i3, a tiling window manager, the
// real binary's dialog floats at its own size instead of taking half the
// screen (issue 37 item 3), in a new window and in a reused one; it is
// typed _NET_WM_WINDOW_TYPE_DIALOG, and once the window manager gave it
// focus its size is no longer fixed. ASKTRAY_SCREENSHOTS=DIR keeps a
// screenshot.
func TestDialogFloatsUnderTilingWM(t *testing.T) {
	d := newSession(t)
	startI3(t, d)
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	s := d.client(t, "claude-code")
	for round := range 2 {
		r, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: "ask_confirm",
			Arguments: map[string]any{"question": "Delete the build directory? (" + strconv.Itoa(round) + ")", "wait": false}})
		if err != nil {
			t.Fatal(err)
		}
		w := d.waitWindow(t, "claude-code asks", 20*time.Second)
		var found, floating bool
		var rect i3Rect
		for deadline := time.Now().Add(30 * time.Second); !found; time.Sleep(50 * time.Millisecond) {
			if found, floating, rect = i3Window(t, d, w); !found && time.Now().After(deadline) {
				t.Fatalf("round %d: i3 does not hold the dialog %s", round, w)
			}
		}
		if !floating || rect.Width >= 1000 {
			t.Fatalf("round %d: i3 tiled the dialog (floating %v, %dx%d)", round, floating, rect.Width, rect.Height)
		}
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			typ := d.x(t, "xprop", "-id", w, "_NET_WM_WINDOW_TYPE")
			if strings.Contains(typ, "_NET_WM_WINDOW_TYPE_DIALOG") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d: window %s type %q", round, w, typ)
			}
		}
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			hints := d.x(t, "xprop", "-id", w, "WM_NORMAL_HINTS")
			if !strings.Contains(hints, "maximum size") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d: the dialog's size stayed fixed after it was shown: %s", round, hints)
			}
		}
		if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" && round == 0 {
			time.Sleep(time.Second) // let it paint
			d.screenshot(t, filepath.Join(dir, "xvfb-i3-dialog.png"))
		}
		id, _ := r.StructuredContent.(map[string]any)["question_id"].(string)
		if _, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: "cancel_question", Arguments: map[string]any{"question_id": id}}); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(30 * time.Second); !d.windowGone("claude-code asks"); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("a withdrawn question's dialog stayed open")
			}
		}
	}
}
