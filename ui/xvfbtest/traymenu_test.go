package xvfbtest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestTrayMenuOverDBus drives the real binary's tray menu as a panel does,
// over com.canonical.dbusmenu: with a question pending the menu has an
// "Open in browser" submenu naming it, and clicking Settings… maps the
// settings window. ASKTRAY_SHOTS=DIR keeps a screenshot of it.
func TestTrayMenuOverDBus(t *testing.T) {
	d := newDesktop(t)
	w := d.watcher
	reg := w.wait(t, 20*time.Second)
	s := d.client(t, "claude-code")
	if _, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: "ask_confirm",
		Arguments: map[string]any{"question": "Delete the build directory?", "wait": false}}); err != nil {
		t.Fatal(err)
	}
	d.waitWindow(t, "claude-code asks", 20*time.Second)

	menu := d.menuOf(t, reg.sender)
	root := menu.until(t, "no Open in browser submenu naming the question", func(root menuNode) bool {
		_, web, ok := root.find("Open in browser")
		return ok && slices.Equal(web.labels(), []string{"Open in browser", "claude-code: Delete the build directory?"})
	})
	menu.click(t, root, "Settings…")
	d.waitWindow(t, "Asktray settings", 20*time.Second)
	if dir := os.Getenv("ASKTRAY_SHOTS"); dir != "" {
		time.Sleep(500 * time.Millisecond) // let it paint
		d.screenshot(t, filepath.Join(dir, "xvfb-settings.png"))
	}
}
