package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

func TestConnectWindow_ShowsSetupAndCopies(t *testing.T) {
	a := test.NewTempApp(t)
	tok := strings.Repeat("cd", 32)
	c := newConnectWindow(a, "/data", func() (string, string) { return "http://127.0.0.1:7931/mcp", tok })
	c.Show()
	// No command line carries the token (issue 33 item 7): the file write does.
	if c.client.Selected != "claude-code" || !strings.Contains(c.text.Text, "asktray config claude-code --write") ||
		strings.Contains(c.text.Text, "claude mcp add --") || !c.copyCommand.Hidden {
		t.Fatalf("first client %q: %q (command button hidden: %v)", c.client.Selected, c.text.Text, c.copyCommand.Hidden)
	}
	c.client.SetSelected("cursor")
	if !c.copyCommand.Hidden || !strings.Contains(c.text.Text, ".cursor/mcp.json") {
		t.Fatalf("cursor setup: %q (command button hidden: %v)", c.text.Text, c.copyCommand.Hidden)
	}
	test.Tap(c.copySnippet)
	if got := a.Clipboard().Content(); !strings.Contains(got, `"mcpServers"`) || !strings.Contains(got, tok) {
		t.Fatalf("copied snippet %q", got)
	}
}

// TestConnectWindow_OffersHooks taps through an agent's hooks: the choice
// shows only for agents with hooks, Copy hooks copies them, Install hooks
// writes them into the agent's file and Remove hooks takes them out.
func TestConnectWindow_OffersHooks(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CODEX_HOME", "")
	a := test.NewTempApp(t)
	c := newConnectWindow(a, "/data", func() (string, string) { return "http://127.0.0.1:7931/mcp", strings.Repeat("cd", 32) })
	c.deadline = func() time.Duration { return 100 * time.Second }
	c.Show()
	c.client.SetSelected("cursor")
	if !c.kind.Hidden || !c.install.Hidden {
		t.Fatal("hooks offered for cursor")
	}
	c.client.SetSelected("codex")
	if c.kind.Hidden {
		t.Fatal("no hooks offered for codex")
	}
	c.kind.SetSelected(setupHooks)
	if c.install.Hidden || !strings.Contains(c.text.Text, "/hooks") || !strings.Contains(c.text.Text, "(now 100 s)") {
		t.Fatalf("hooks setup: %q", c.text.Text)
	}
	test.Tap(c.copySnippet)
	if got := a.Clipboard().Content(); !strings.Contains(got, `hook codex --data-dir /data"`) {
		t.Fatalf("copied %q", got)
	}
	path := filepath.Join(home, ".codex", "hooks.json")
	test.Tap(c.install)
	if b, err := os.ReadFile(path); err != nil || !strings.Contains(string(b), "hook codex") || !strings.Contains(c.text.Text, "Created "+path) {
		t.Fatalf("install: %v %q; shown %q", err, b, c.text.Text)
	}
	test.Tap(c.remove)
	if b, _ := os.ReadFile(path); strings.Contains(string(b), "hook codex") || !strings.Contains(c.text.Text, "Removed") {
		t.Fatalf("remove: %q; shown %q", b, c.text.Text)
	}
	c.kind.SetSelected(setupMCP)
	if !c.install.Hidden || !strings.Contains(c.text.Text, "[mcp_servers.asktray]") {
		t.Fatalf("back to the MCP server: %q", c.text.Text)
	}
}
