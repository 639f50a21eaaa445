package xvfbtest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// find returns the id of the first node labelled label, and whether there
// is one.
func (n menuNode) find(label string) (int32, *menuNode, bool) {
	if l, ok := n.Props["label"].Value().(string); ok && l == label {
		return n.ID, &n, true
	}
	for _, c := range n.Children {
		var child menuNode
		if err := dbus.Store([]any{c.Value()}, &child); err == nil {
			if id, node, ok := child.find(label); ok {
				return id, node, true
			}
		}
	}
	return 0, nil, false
}

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

	conn, err := dbus.Connect(envValue(d.env, "DBUS_SESSION_BUS_ADDRESS"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	menu := conn.Object(reg.sender, "/StatusNotifierMenu")
	var root menuNode
	deadline := time.Now().Add(10 * time.Second)
	for {
		var rev uint32
		if err := menu.Call("com.canonical.dbusmenu.GetLayout", 0, int32(0), int32(-1), []string{"label"}).Store(&rev, &root); err != nil {
			t.Fatalf("tray menu: %v", err)
		}
		if _, web, ok := root.find("Open in browser"); ok && len(web.labels()) == 2 {
			if web.labels()[1] != "claude-code: Delete the build directory?" {
				t.Fatalf("Open in browser lists %q", web.labels())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no Open in browser submenu naming the question in %q", root.labels())
		}
		time.Sleep(100 * time.Millisecond)
	}
	id, _, ok := root.find("Settings…")
	if !ok {
		t.Fatalf("no Settings… in %q", root.labels())
	}
	if call := menu.Call("com.canonical.dbusmenu.Event", 0, id, "clicked", dbus.MakeVariant(""), uint32(0)); call.Err != nil {
		t.Fatalf("click Settings…: %v", call.Err)
	}
	d.waitWindow(t, "Asktray settings", 20*time.Second)
	if dir := os.Getenv("ASKTRAY_SHOTS"); dir != "" {
		time.Sleep(500 * time.Millisecond) // let it paint
		d.screenshot(t, filepath.Join(dir, "xvfb-settings.png"))
	}
}
