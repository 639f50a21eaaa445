package xvfbtest

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
)

// TestApprovalDialogDeniesOnEnter: a real client calls request_approval
// with high risk; the real binary shows the dialog titled by the client;
// after arming, Enter takes the default, Deny, and the client gets deny.
func TestApprovalDialogDeniesOnEnter(t *testing.T) {
	d := newDesktop(t)
	s := d.client(t, "e2e-agent")
	res := testkit.CallToolAsync(s, "request_approval", map[string]any{
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
	// Focus starts the arming delay; once the log says the dialog armed,
	// Enter takes the default (a key before that restarts the delay and is
	// dropped, which a fixed 900 ms wait met under load).
	d.x(t, "xdotool", "windowfocus", "--sync", w)
	d.waitArmedLine(t, 1)
	d.x(t, "xdotool", "windowfocus", "--sync", w)
	d.x(t, "xdotool", "key", "--clearmodifiers", "Return")
	got := testkit.WaitToolResult(t, res, 30*time.Second)
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
	res := testkit.CallToolAsync(s, "ask_confirm", map[string]any{"question": "Run the migration?", "wait": false})
	if got := testkit.WaitToolResult(t, res, 30*time.Second); got["status"] != "pending" {
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

// TestAlwaysAllowHighRisk walks the Always… path on the real binary: a
// click on Always… and on "Always allow…" (the test driver cannot check
// where Fyne really draws them), then keys only: the confirmation box, the
// panel's button once armed. The client is allowed, the rule is listed by
// 'asktray rules --json' as high risk, and the same request is then
// approved by the rule without a dialog.
func TestAlwaysAllowHighRisk(t *testing.T) {
	d := newDesktop(t)
	s := d.client(t, "e2e-agent")
	args := map[string]any{"action": "Force-push main", "details": "```\ngit push --force-with-lease origin main\n```", "risk": "high"}
	res := testkit.CallToolAsync(s, "request_approval", args)
	w := d.waitWindow(t, "e2e-agent asks", 20*time.Second)
	d.x(t, "xdotool", "windowfocus", "--sync", w)
	time.Sleep(900 * time.Millisecond)
	x, y, _, h := d.geometry(t, w)
	// Always… is left of Deny at the bottom right; its menu opens over it.
	d.x(t, "xdotool", "mousemove", "--sync", strconv.Itoa(x+252), strconv.Itoa(y+h-26), "click", "1")
	time.Sleep(500 * time.Millisecond)
	d.x(t, "xdotool", "mousemove", "--sync", strconv.Itoa(x+262), strconv.Itoa(y+h-56), "click", "1")
	time.Sleep(900 * time.Millisecond) // the panel restarts the arming delay
	if _, _, _, grown := d.geometry(t, w); grown <= h {
		t.Fatalf("the Always allow panel did not open (window height %d)", grown)
	}
	// Focus is on Cancel: Shift+Tab reaches the box, Space ticks it, two
	// Tabs reach "Add rule and allow", Space presses it.
	for _, k := range []string{"shift+Tab", "space", "Tab", "Tab", "space"} {
		d.x(t, "xdotool", "key", "--clearmodifiers", k)
		time.Sleep(100 * time.Millisecond)
	}
	if got := testkit.WaitToolResult(t, res, 30*time.Second); got["decision"] != "allow" || got["via"] != "dialog" {
		t.Fatalf("client got %v", got)
	}
	out, err := d.cli("rules", "--json")
	if err != nil || !strings.Contains(out, `"high_risk": true`) || !strings.Contains(out, `"action": "request_approval:Force-push main"`) {
		t.Fatalf("rules: %v\n%s", err, out)
	}
	if got := testkit.WaitToolResult(t, testkit.CallToolAsync(s, "request_approval", args), 30*time.Second); got["status"] != "auto_approved" || got["rule_id"] == nil {
		t.Fatalf("second request got %v", got)
	}
}

// geometry returns window w's position and size.
func (d *desktop) geometry(t *testing.T, w string) (x, y, width, height int) {
	t.Helper()
	for l := range strings.SplitSeq(d.x(t, "xdotool", "getwindowgeometry", w), "\n") {
		l = strings.TrimSpace(l)
		if v, ok := strings.CutPrefix(l, "Position: "); ok {
			v, _, _ = strings.Cut(v, " ")
			a, b, _ := strings.Cut(v, ",")
			x, _ = strconv.Atoi(a)
			y, _ = strconv.Atoi(b)
		}
		if v, ok := strings.CutPrefix(l, "Geometry: "); ok {
			a, b, _ := strings.Cut(v, "x")
			width, _ = strconv.Atoi(a)
			height, _ = strconv.Atoi(b)
		}
	}
	return x, y, width, height
}
