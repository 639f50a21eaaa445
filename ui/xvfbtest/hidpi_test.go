package xvfbtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
)

// TestDialogFitsAShortScreenAt150 is item 5 of issue 37 on the real
// binary: a 1280×720 screen under openbox whose desktop says 150 % (Xft.dpi
// 144 in the root window's resources, as KDE Plasma and xrdb set it). The
// app draws at 1.5 (a dialog 520 units wide is 780 px), and a long
// approval, 1077 px tall at this scale before, fits the screen with its
// frame; after arming, Enter denies it.
func TestDialogFitsAShortScreenAt150(t *testing.T) {
	// -noreset: the resources xprop sets must outlive its connection.
	d := newBareSessionOn(t, "1280x720x24", "-noreset")
	d.watcher = startFakeWatcher(t, d.env)
	d.x(t, "xprop", "-root", "-f", "RESOURCE_MANAGER", "8s", "-set", "RESOURCE_MANAGER", "Xft.dpi:\t144\n")
	startOpenbox(t, d)
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	s := d.client(t, "e2e-agent")
	res := testkit.CallToolAsync(s, "request_approval", map[string]any{
		"action":  "Run the integration suite",
		"details": "```sh\n" + strings.Repeat("make -C services/payments test-integration SHARD=$i\n", 40) + "```",
		"reason":  strings.Repeat("The integration suite must pass before the release branch is cut. ", 5),
		"risk":    "high",
	})
	w := d.waitFocused(t, "e2e-agent asks")
	d.waitArmedLine(t, 1)
	x, y, width, height := d.geometry(t, w)
	if width < 760 || width > 800 {
		t.Errorf("the dialog is %d px wide, want 780 (520 units at 150 %%)", width)
	}
	if y < 0 || y+height > 720 || x < 0 || x+width > 1280 {
		t.Errorf("the dialog (%d,%d %d×%d) does not fit the 1280×720 screen", x, y, width, height)
	}
	if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" {
		d.screenshot(t, filepath.Join(dir, "xvfb-720-at-150.png"))
	}
	if b, _ := os.ReadFile(filepath.Join(d.dataDir, "log", "asktray.log")); !strings.Contains(string(b), `msg="desktop scale" scale=1.5 source=Xft.dpi`) {
		t.Errorf("the app did not log the desktop's scale:\n%s", b)
	}
	d.x(t, "xdotool", "key", "--clearmodifiers", "Return")
	if got := testkit.WaitToolResult(t, res, 30*time.Second); got["decision"] != "deny" || got["via"] != "dialog" {
		t.Fatalf("client got %v", got)
	}
}
