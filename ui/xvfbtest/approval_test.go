package xvfbtest

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestApprovalDialogDeniesOnEnter: a real client calls request_approval
// with high risk; the real binary shows the dialog titled by the client;
// after arming, Enter takes the default, Deny, and the client gets deny.
func TestApprovalDialogDeniesOnEnter(t *testing.T) {
	d := newDesktop(t)
	s := d.client(t, "e2e-agent")
	res := callAsync(s, "request_approval", map[string]any{
		"action":  "Force-push main",
		"details": "```\ngit push --force-with-lease origin main\n```",
		"reason":  "The rebase dropped a commit with a leaked key.",
		"risk":    "high",
	})
	w := d.waitWindow(t, "e2e-agent asks", 20*time.Second)
	if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" {
		time.Sleep(time.Second)
		d.screenshot(t, dir+"/xvfb-approval.png")
	}
	// Focus starts the arming delay; after it, Enter takes the default.
	d.x(t, "xdotool", "windowfocus", "--sync", w)
	time.Sleep(900 * time.Millisecond)
	d.x(t, "xdotool", "windowfocus", "--sync", w)
	d.x(t, "xdotool", "key", "--clearmodifiers", "Return")
	got := waitResult(t, res)
	if got["decision"] != "deny" || got["via"] != "dialog" {
		t.Fatalf("client got %v", got)
	}
}

// TestAwayFromTheCLIHoldsDialogs: 'asktray away on' reaches the running
// app's tray, which then holds a new question silently (no dialog); 'asktray
// away off' brings the held dialog up.
func TestAwayFromTheCLIHoldsDialogs(t *testing.T) {
	d := newDesktop(t)
	if out, err := d.cli("away", "on"); err != nil {
		t.Fatalf("away on: %v\n%s", err, out)
	}
	s := d.client(t, "e2e-agent")
	res := callAsync(s, "ask_confirm", map[string]any{"question": "Run the migration?", "wait": false})
	if got := waitResult(t, res); got["status"] != "pending" {
		t.Fatalf("client got %v", got)
	}
	// The question is pending and its EventAsked has reached the UI; give
	// the UI's event loop a moment, then no dialog may be on screen.
	if out, _ := d.cli("pending"); !strings.Contains(out, "Run the migration?") {
		t.Fatalf("not pending:\n%s", out)
	}
	time.Sleep(time.Second)
	if !d.windowGone("e2e-agent asks") {
		t.Fatal("a dialog opened while away")
	}
	if out, err := d.cli("away", "off"); err != nil {
		t.Fatalf("away off: %v\n%s", err, out)
	}
	d.waitWindow(t, "e2e-agent asks", 20*time.Second)
}
