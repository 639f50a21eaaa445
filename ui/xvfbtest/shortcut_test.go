package xvfbtest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/settings"
	"github.com/asktray/asktray/internal/testkit"
)

// TestGlobalShortcutBringsTheQuestion runs the real binary with
// global_shortcut set to Ctrl+Alt+Q under the openbox window manager: a
// question's dialog is up, another program (xmessage) takes the keyboard,
// and Ctrl+Alt+Q pressed there (xdotool, through XTEST, as a keyboard
// would) gives the dialog the focus again.
func TestGlobalShortcutBringsTheQuestion(t *testing.T) {
	need(t, "xmessage")
	d := newSession(t)
	startOpenbox(t, d)
	if err := os.MkdirAll(d.dataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := settings.Save(d.dataDir, settings.Settings{GlobalShortcut: "Ctrl+Alt+Q"}); err != nil {
		t.Fatal(err)
	}
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	logPath := filepath.Join(d.dataDir, datadir.LogDir, datadir.LogFile)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if b, _ := os.ReadFile(logPath); strings.Contains(string(b), `msg="global shortcut held" chord=Ctrl+Alt+Q`) {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("the app holds no shortcut:\n%s", b)
		}
	}
	claude := d.client(t, "claude-code")
	call := testkit.CallToolAsync(claude, "ask_text", map[string]any{"question": "Name the release branch"})
	t.Cleanup(func() { d.dismissAll(t); testkit.WaitToolResult(t, call, 30*time.Second) })
	dialog := d.waitWindow(t, "claude-code asks", 20*time.Second)
	waitFocus(t, d, dialog)

	other := exec.Command("xmessage", "-title", "Another program", "typing here")
	other.Env = d.env
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Process.Kill(); _ = other.Wait() })
	elsewhere := d.waitWindow(t, "Another program", 20*time.Second)
	d.x(t, "xdotool", "windowactivate", "--sync", elsewhere)
	waitFocus(t, d, elsewhere)

	d.x(t, "xdotool", "key", "--clearmodifiers", "ctrl+alt+q")
	waitFocus(t, d, dialog)
	if a := d.x(t, "xdotool", "getactivewindow"); a != dialog {
		t.Fatalf("the window manager's active window is %s, not the dialog %s", a, dialog)
	}
	select {
	case got := <-call:
		t.Fatalf("the question ended: %v", got)
	default:
	}
}

// dismissAll cancels every pending question, so that the agents' calls end
// with the test rather than at their deadline.
func (d *desktop) dismissAll(t *testing.T) {
	t.Helper()
	out, err := d.cli("pending", "--json")
	var qs []struct{ ID string }
	if err != nil || json.Unmarshal([]byte(out), &qs) != nil {
		t.Errorf("pending: %v %s", err, out)
		return
	}
	for _, q := range qs {
		if out, err := d.cli("answer", q.ID, "--cancel"); err != nil {
			t.Errorf("answer %s --cancel: %v %s", q.ID, err, out)
		}
	}
}
