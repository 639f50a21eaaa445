package xvfbtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
)

// TestAlwaysPanelInWords: a real client's request_approval, whose details
// are a Markdown code block, in the real dialog; with the mouse, Always… ›
// Always allow… opens the panel, which leads with what the rule will
// match in words and shows the details whole; Add rule and allow answers
// the client and the rule is listed by 'asktray rules'.
// ASKTRAY_SCREENSHOTS=DIR keeps the panel as xvfb-always-request.png.
func TestAlwaysPanelInWords(t *testing.T) {
	d := newDesktop(t)
	s := d.client(t, "e2e-agent")
	res := testkit.CallToolAsync(s, "request_approval", map[string]any{
		"action":  "Run the database migration",
		"details": "```sh\nbin/rails db:migrate RAILS_ENV=staging\n```",
	})
	w := d.waitWindow(t, "e2e-agent asks", 20*time.Second)
	waitFocus(t, d, w)
	time.Sleep(1500 * time.Millisecond) // laid out, and past the arm delay
	x, y, width, h := d.geometry(t, w)
	// Always… is the third button from the right of the bar; its menu is
	// moved up into the window, Always allow… its first item.
	d.click(t, x+width-268, y+h-27)
	time.Sleep(500 * time.Millisecond)
	d.click(t, x+width-257, y+h-62)
	time.Sleep(1500 * time.Millisecond) // the panel restarts the arm delay
	if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" {
		d.screenshot(t, filepath.Join(dir, "xvfb-always-request.png"))
	}
	// The panel focuses Cancel; Tab moves on to Add rule and allow.
	d.x(t, "xdotool", "key", "--clearmodifiers", "Tab")
	time.Sleep(1500 * time.Millisecond)
	d.x(t, "xdotool", "key", "--clearmodifiers", "space")
	got := testkit.WaitToolResult(t, res, 30*time.Second)
	if got["decision"] != "allow" {
		t.Fatalf("client got %v", got)
	}
	out, err := d.cli("rules")
	if err != nil || !strings.Contains(out, "Run the database migration") {
		t.Fatalf("rules: %v\n%s", err, out)
	}
}
