package xvfbtest

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestConnectCheckSetup runs the real binary with Claude Code's hooks
// installed in a scratch home, opens Connect a client… from the tray menu
// over dbusmenu and clicks Check setup: the check sends its test request
// through the installed hook command line, and the app shows it as a
// notice, on the desktop and in 'asktray pending'; nothing asks to be
// approved.
func TestConnectCheckSetup(t *testing.T) {
	d := newSession(t)
	home := t.TempDir()
	d.env = append(d.env, "HOME="+home, "CLAUDE_CONFIG_DIR=", "CODEX_HOME=", "COPILOT_HOME=", "XDG_CONFIG_HOME=")
	w := d.watcher
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	if out, err := d.cli("config", "claude-code", "--hooks", "--write"); err != nil {
		t.Fatalf("config: %v\n%s", err, out)
	}
	reg := w.wait(t, 20*time.Second)
	menu := d.menuOf(t, reg.sender)
	menu.click(t, menu.with(t, "Connect a client…"), "Connect a client…")
	win := d.waitWindow(t, "Connect a client", 20*time.Second)
	d.x(t, "xdotool", "windowfocus", "--sync", win)
	time.Sleep(700 * time.Millisecond) // let it lay out
	x, y, width, h := d.geometry(t, win)
	// Check setup is the last button of the bottom row, at the right edge.
	d.x(t, "xdotool", "mousemove", "--sync", strconv.Itoa(x+width-45), strconv.Itoa(y+h-22), "click", "1")

	settings := filepath.Join(home, ".claude", "settings.json")
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, err := d.cli("pending", "--json")
		var qs []struct{ ID, Kind, Header, Message string }
		if err == nil && json.Unmarshal([]byte(out), &qs) == nil && len(qs) > 0 {
			q := qs[0]
			if len(qs) != 1 || q.Kind != "notice" || !strings.Contains(q.Header, "Asktray doctor") || !strings.Contains(q.Message, "Claude Code hook in "+settings) {
				t.Fatalf("pending after Check setup: %s", out)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Check setup sent no test request: %v %s", err, out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if shown := d.notes.notes(); len(shown) > 0 {
			if !strings.Contains(shown[len(shown)-1].Summary+shown[len(shown)-1].Body, "Asktray doctor") {
				t.Fatalf("desktop notification %+v", shown)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no desktop notification for the test request")
		}
	}
}
