package xvfbtest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// menuNode is one com.canonical.dbusmenu layout node: (ia{sv}av).
type menuNode struct {
	ID       int32
	Props    map[string]dbus.Variant
	Children []dbus.Variant
}

// labels returns the labels of n and of every node below it, depth first.
func (n menuNode) labels() []string {
	var out []string
	if l, ok := n.Props["label"].Value().(string); ok {
		out = append(out, l)
	}
	for _, c := range n.Children {
		var child menuNode
		if err := dbus.Store([]any{c.Value()}, &child); err == nil {
			out = append(out, child.labels()...)
		}
	}
	return out
}

// find returns the id of the first node labelled label, the node, and
// whether there is one.
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

// trayMenu is the menu of a registered tray item, driven over the session
// bus as a panel drives it.
type trayMenu struct{ obj dbus.BusObject }

// menuOf connects to d's session bus, closed when the test ends, and returns
// the menu of the tray item that sender registered.
func (d *desktop) menuOf(t testing.TB, sender string) trayMenu {
	t.Helper()
	conn, err := dbus.Connect(envValue(d.env, "DBUS_SESSION_BUS_ADDRESS"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return trayMenu{conn.Object(sender, "/StatusNotifierMenu")}
}

// until fetches the menu's layout until ok holds for it, as a tray host
// fetches it again on LayoutUpdated: the app builds its menu in steps, so a
// fetch just after registering can see part of it. It blocks, failing the
// test after 10 s with what and the labels it saw.
func (m trayMenu) until(t testing.TB, what string, ok func(menuNode) bool) menuNode {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		var rev uint32
		var root menuNode
		if err := m.obj.Call("com.canonical.dbusmenu.GetLayout", 0, int32(0), int32(-1), []string{"label"}).Store(&rev, &root); err != nil {
			t.Fatalf("tray menu: %v", err)
		}
		if ok(root) {
			return root
		}
		if time.Now().After(deadline) {
			t.Fatalf("tray menu %q: %s", root.labels(), what)
		}
	}
}

// with fetches the layout until it holds every label in want (see until).
func (m trayMenu) with(t testing.TB, want ...string) menuNode {
	t.Helper()
	return m.until(t, fmt.Sprintf("lacks one of %q", want), func(root menuNode) bool {
		labels := root.labels()
		return !slices.ContainsFunc(want, func(w string) bool { return !slices.Contains(labels, w) })
	})
}

// click sends the clicked event, as a panel does, to the first entry of
// root labelled label.
func (m trayMenu) click(t testing.TB, root menuNode, label string) {
	t.Helper()
	id, _, ok := root.find(label)
	if !ok {
		t.Fatalf("no %q in the tray menu %q", label, root.labels())
	}
	if call := m.obj.Call("com.canonical.dbusmenu.Event", 0, id, "clicked", dbus.MakeVariant(""), uint32(0)); call.Err != nil {
		t.Fatalf("click %q: %v", label, call.Err)
	}
}
