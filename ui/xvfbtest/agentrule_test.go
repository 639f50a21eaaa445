package xvfbtest

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestAgentRuleAnswersTheHook: Claude Code's permission request comes
// through the real 'asktray hook claude-code' with its suggestion; in the
// real dialog, with the mouse, Always… › "Allow, and let claude-code keep
// a rule…" opens the panel that shows the suggestion in full, and its
// button allows: the hook prints the allow with the suggestion as
// updatedPermissions, as Claude Code sent it, for Claude Code to keep.
// ASKTRAY_SCREENSHOTS=DIR keeps the panel as xvfb-agent-rules.png.
func TestAgentRuleAnswersTheHook(t *testing.T) {
	d := newDesktop(t)
	b, err := os.ReadFile(filepath.Join("..", "..", "app", "hook", "testdata", "claude-code", "PermissionRequest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	suggestion := map[string]any{"type": "addRules", "rules": []any{map[string]any{"toolName": "Bash", "ruleContent": "npm run lint:*"}},
		"behavior": "allow", "destination": "localSettings"}
	p["tool_input"] = map[string]any{"command": "npm run lint -- --fix", "description": "Fix lint errors"}
	p["permission_suggestions"] = []any{suggestion}
	payload, _ := json.Marshal(p)
	hook := exec.Command(d.bin, "hook", "claude-code", "--data-dir", d.dataDir)
	hook.Env, hook.Stdin = d.env, bytes.NewReader(payload)
	var out, errOut bytes.Buffer
	hook.Stdout, hook.Stderr = &out, &errOut
	if err := hook.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- hook.Wait() }()
	t.Cleanup(func() {
		if hook.ProcessState == nil {
			_ = hook.Process.Kill()
			t.Logf("hook stopped: %v", <-done)
		}
	})

	w := d.waitWindow(t, "claude-code asks", 20*time.Second)
	waitFocus(t, d, w)
	time.Sleep(1500 * time.Millisecond) // laid out, and past the arm delay
	x, y, width, h := d.geometry(t, w)
	// Always… is the third button from the right of the bar.
	d.click(t, x+width-268, y+h-27)
	time.Sleep(500 * time.Millisecond)
	// Its menu (Always allow…, Always deny…, a separator, the agent's
	// rules) is moved up into the window, its last item at the bottom.
	d.click(t, x+width-176, y+h-18)
	time.Sleep(1500 * time.Millisecond) // the panel restarts the arm delay
	if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" {
		d.screenshot(t, filepath.Join(dir, "xvfb-agent-rules.png"))
	}
	// The panel focuses Cancel; Shift+Tab goes back to the rule's button,
	// and Space presses it (a key pressed before the buttons unlock starts
	// the arm delay again, so the press waits for it).
	d.x(t, "xdotool", "key", "--clearmodifiers", "shift+Tab")
	time.Sleep(1500 * time.Millisecond)
	d.x(t, "xdotool", "key", "--clearmodifiers", "space")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("hook: %v\n%s", err, errOut.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the rule's button left the question pending")
	}
	var reply struct {
		HookSpecificOutput struct {
			Decision struct {
				Behavior           string
				UpdatedPermissions []map[string]any
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &reply); err != nil {
		t.Fatalf("hook printed %q: %v", out.String(), err)
	}
	dec := reply.HookSpecificOutput.Decision
	if want, _ := json.Marshal([]any{suggestion}); dec.Behavior != "allow" || len(dec.UpdatedPermissions) != 1 || !jsonEqual(t, dec.UpdatedPermissions, want) {
		t.Fatalf("hook printed %s", out.String())
	}
}

// jsonEqual reports whether v marshals to the same JSON as want.
func jsonEqual(t *testing.T, v any, want []byte) bool {
	t.Helper()
	var a, b any
	got, _ := json.Marshal(v)
	if json.Unmarshal(got, &a) != nil || json.Unmarshal(want, &b) != nil {
		t.Fatal("not JSON")
	}
	ga, _ := json.Marshal(a)
	gb, _ := json.Marshal(b)
	return string(ga) == string(gb)
}

// click moves the pointer to x, y on the desktop and clicks there.
func (d *desktop) click(t *testing.T, x, y int) {
	t.Helper()
	d.x(t, "xdotool", "mousemove", "--sync", strconv.Itoa(x), strconv.Itoa(y), "click", "1")
}
