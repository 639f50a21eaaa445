package xvfbtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// TestNoTrayHostTellsOnce: on a desktop with no tray host (sway without a
// bar), the real binary shows its status window by itself and a
// notification saying how to get a tray icon there (issue 37 item 1).
// ASKTRAY_SCREENSHOTS=DIR keeps a screenshot.
func TestNoTrayHostTellsOnce(t *testing.T) {
	d := newBareSession(t)
	d.env = append(d.env, "XDG_CURRENT_DESKTOP=sway")
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	d.waitWindow(t, "Asktray", 30*time.Second)
	var told []string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		told = told[:0]
		for _, n := range d.notes.notes() {
			if n.Summary == "Asktray has no tray icon here" {
				told = append(told, n.Body)
			}
		}
		if len(told) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no notification of the missing tray: %+v", d.notes.notes())
		}
	}
	if len(told) != 1 || !strings.Contains(told[0], "waybar") || !strings.Contains(told[0], "swaybar") {
		t.Fatalf("told %q", told)
	}
	if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" {
		time.Sleep(time.Second) // let it paint
		d.screenshot(t, filepath.Join(dir, "xvfb-no-tray.png"))
	}
}

// TestTrayClickOpensStatus: swaybar's click calls the tray item's
// ContextMenu (right button) or Activate (left); either opens the status
// window of the real binary (issue 37 item 2: fyne.io/systray answered
// "unknown method" and nothing happened).
func TestTrayClickOpensStatus(t *testing.T) {
	d := newDesktop(t)
	reg := d.watcher.wait(t, 20*time.Second)
	conn, err := dbus.Connect(envValue(d.env, "DBUS_SESSION_BUS_ADDRESS"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	item := conn.Object(reg.sender, dbus.ObjectPath(reg.path))
	var isMenu bool
	if err := item.StoreProperty("org.kde.StatusNotifierItem.ItemIsMenu", &isMenu); err != nil || isMenu {
		t.Fatalf("ItemIsMenu %v (%v): a host would not call Activate", isMenu, err)
	}
	for _, method := range []string{"ContextMenu", "Activate"} {
		if call := item.Call("org.kde.StatusNotifierItem."+method, 0, int32(10), int32(10)); call.Err != nil {
			t.Fatalf("%s: %v", method, call.Err)
		}
		w := d.waitWindow(t, "Asktray", 20*time.Second)
		d.x(t, "xdotool", "windowunmap", "--sync", w) // as Hide would; the next click must map it again
	}
}
