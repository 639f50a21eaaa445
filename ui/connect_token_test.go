package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestConnectWindow_TokenMaskedUntilShown: the token row and the setup
// text show dots, never the token, until Show; Hide masks both again; Copy
// token copies the real token either way; a window shown again is masked.
func TestConnectWindow_TokenMaskedUntilShown(t *testing.T) {
	a := test.NewTempApp(t)
	tok := strings.Repeat("ef", 32)
	c := newConnectWindow(a, "/data", func() (string, string) { return "http://127.0.0.1:7931/mcp", tok })
	c.Show()
	masked := func(when string) {
		t.Helper()
		if c.token.Text != tokenMask || strings.Contains(c.text.Text, tok) || !strings.Contains(c.text.Text, tokenMask) || c.showToken.Text != "Show" {
			t.Fatalf("%s: token %q, button %q, setup %q", when, c.token.Text, c.showToken.Text, c.text.Text)
		}
	}
	masked("at first")
	test.Tap(c.copyToken)
	if got := a.Clipboard().Content(); got != tok {
		t.Fatalf("Copy token while masked copied %q", got)
	}
	test.Tap(c.showToken)
	if c.token.Text != tok || !strings.Contains(c.text.Text, tok) || c.showToken.Text != "Hide" {
		t.Fatalf("after Show: token %q, button %q, setup %q", c.token.Text, c.showToken.Text, c.text.Text)
	}
	test.Tap(c.showToken)
	masked("after Hide")
	test.Tap(c.showToken)
	c.win.Close()
	c.Show()
	masked("shown again")
}

// TestConnectWindow_InstallHooksFirstWithInstalledLine: Install hooks comes
// before Remove hooks and is the primary button, and the line above them
// says whether the agent's hooks are installed, before and after each.
func TestConnectWindow_InstallHooksFirstWithInstalledLine(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CODEX_HOME", "")
	a := test.NewTempApp(t)
	c := newConnectWindow(a, "/data", func() (string, string) { return "http://127.0.0.1:7931/mcp", strings.Repeat("cd", 32) })
	c.deadline = func() time.Duration { return 100 * time.Second }
	c.Show()
	c.client.SetSelected("codex")
	c.kind.SetSelected(setupHooks)
	install, remove := -1, -1
	for i, o := range c.buttons.Objects {
		switch o {
		case c.install:
			install = i
		case c.remove:
			remove = i
		}
	}
	if install < 0 || remove < 0 || install > remove {
		t.Fatalf("buttons: install at %d, remove at %d", install, remove)
	}
	if last := c.buttons.Objects[len(c.buttons.Objects)-1]; last != c.check {
		t.Fatalf("the row ends with %T, not Check setup", last) // the Xvfb test clicks it at the right edge
	}
	if c.install.Importance != widget.HighImportance || c.remove.Importance == widget.HighImportance {
		t.Fatalf("importance: install %v, remove %v", c.install.Importance, c.remove.Importance)
	}
	if c.installed.Hidden || !strings.HasPrefix(c.installed.Text, "Not installed") {
		t.Fatalf("before install: %q (hidden %v)", c.installed.Text, c.installed.Hidden)
	}
	test.Tap(c.install)
	path := filepath.Join(home, ".codex", "hooks.json")
	if !strings.HasPrefix(c.installed.Text, "Hooks installed in") || !strings.Contains(c.installed.Text, ".codex") {
		t.Fatalf("after install (%s): %q", path, c.installed.Text)
	}
	test.Tap(c.remove)
	if !strings.HasPrefix(c.installed.Text, "Not installed") {
		t.Fatalf("after remove: %q", c.installed.Text)
	}
}
