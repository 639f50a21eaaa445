package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

func TestConnectWindow_ShowsSetupAndCopies(t *testing.T) {
	a := test.NewTempApp(t)
	tok := strings.Repeat("cd", 32)
	c := newConnectWindow(a, "/data", func() (string, string) { return "http://127.0.0.1:7931/mcp", tok })
	c.Show()
	if c.client.Selected != "claude-code" || !strings.Contains(c.text.Text, "claude mcp add") {
		t.Fatalf("first client %q: %q", c.client.Selected, c.text.Text)
	}
	test.Tap(c.copyCommand)
	if got := a.Clipboard().Content(); !strings.Contains(got, "Bearer "+tok) {
		t.Fatalf("copied command %q", got)
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
