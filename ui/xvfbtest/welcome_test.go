package xvfbtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/settings"
)

// TestFirstRunWindow runs the real binary on a fresh data dir with a
// scratch home where Claude Code has its folder: the first-run window
// comes up by itself, Tab and Space on its first Connect write Claude
// Code's MCP entry and hooks into the home, and its Send a test question
// (three Shift+Tabs back, wrapping round) sends the doctor's test request
// through the installed hook, which the desktop shows as a notification.
// Started again on the same data dir, the app shows no such window.
// ASKTRAY_SCREENSHOTS=DIR keeps the window, after the test, as
// xvfb-welcome.png.
func TestFirstRunWindow(t *testing.T) {
	d := newSession(t)
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	d.env = append(d.env, "HOME="+home, "PATH=/usr/bin:/bin", "CLAUDE_CONFIG_DIR=", "CODEX_HOME=", "COPILOT_HOME=", "XDG_CONFIG_HOME=", "QWEN_HOME=")
	d.firstRun = true
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	win := d.waitWindow(t, "Welcome to Asktray", 30*time.Second)
	if !settings.Welcomed(d.dataDir) {
		t.Fatal("the first-run window is up and the data dir has no mark")
	}
	d.x(t, "xdotool", "windowfocus", "--sync", win)
	d.waitFocused(t, "Welcome to Asktray")

	// Claude Code is the table's first agent, so its Connect is the first
	// control Tab reaches.
	d.x(t, "xdotool", "key", "--clearmodifiers", "Tab", "space")
	mcp := filepath.Join(home, ".claude.json")
	hooks := filepath.Join(home, ".claude", "settings.json")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		b, _ := os.ReadFile(mcp)
		h, _ := os.ReadFile(hooks)
		if strings.Contains(string(b), `"asktray"`) && strings.Contains(string(b), "Bearer "+d.token) &&
			strings.Contains(string(h), "hook claude-code --data-dir "+d.dataDir) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Connect wrote nothing in 20 s:\n%s: %s\n%s: %s", mcp, b, hooks, h)
		}
	}

	d.x(t, "xdotool", "key", "--clearmodifiers", "shift+Tab", "shift+Tab", "shift+Tab", "space")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		out, err := d.cli("pending", "--json")
		var qs []struct{ Kind, Header, Message string }
		if err == nil && json.Unmarshal([]byte(out), &qs) == nil && len(qs) > 0 {
			if len(qs) != 1 || qs[0].Kind != "notice" || !strings.Contains(qs[0].Header, "Claude Code hook works") || !strings.Contains(qs[0].Message, hooks) {
				t.Fatalf("pending after the test: %s", out)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Send a test question sent nothing in 30 s: %v %s", err, out)
		}
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if shown := d.notes.notes(); len(shown) > 0 && strings.Contains(shown[len(shown)-1].Summary+shown[len(shown)-1].Body, "Claude Code hook works") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no desktop notification for the test: %+v", d.notes.notes())
		}
	}

	if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" {
		time.Sleep(700 * time.Millisecond) // the window's result line is set just after the notice is shown
		d.screenshot(t, filepath.Join(dir, "xvfb-welcome.png"))
	}

	// The second start: the app says it shows no first-run window, and none is up.
	if out, err := d.cli("quit"); err != nil {
		t.Fatalf("quit: %v\n%s", err, out)
	}
	_ = d.app.Wait()
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	logPath := filepath.Join(d.dataDir, datadir.LogDir, datadir.LogFile)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		b, _ := os.ReadFile(logPath)
		if strings.Count(string(b), `msg="first-run window" shown=false`) == 1 && strings.Count(string(b), `msg="first-run window" shown=true`) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the second start did not say whether it shows the first-run window:\n%s", b)
		}
	}
	if !d.windowGone("Welcome to Asktray") {
		t.Fatal("the first-run window came again on the second start")
	}
}
