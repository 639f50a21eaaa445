package portalkey

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImports keeps the binding a leaf: the standard library and godbus.
func TestImports(t *testing.T) {
	t.Parallel()
	testkit.ImportsOnly(t, ".", "github.com/godbus/dbus/v5")
}

// fakePortal is GlobalShortcuts as xdg-desktop-portal serves it: each call
// returns a Request path and answers on it with a Response signal.
type fakePortal struct {
	conn     *dbus.Conn
	decline  bool
	bound    chan string // the preferred trigger of each BindShortcuts
	sessions chan dbus.ObjectPath
}

func (p *fakePortal) respond(sender dbus.Sender, opts map[string]dbus.Variant, code uint32, res map[string]dbus.Variant) dbus.ObjectPath {
	tok, _ := opts["handle_token"].Value().(string)
	path := dbus.ObjectPath("/org/freedesktop/portal/desktop/request/" + strings.ReplaceAll(strings.TrimPrefix(string(sender), ":"), ".", "_") + "/" + tok)
	go func() { _ = p.conn.Emit(path, requestIfc+".Response", code, res) }()
	return path
}

func (p *fakePortal) CreateSession(sender dbus.Sender, opts map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	stok, _ := opts["session_handle_token"].Value().(string)
	s := "/org/freedesktop/portal/desktop/session/x/" + stok
	p.sessions <- dbus.ObjectPath(s)
	return p.respond(sender, opts, 0, map[string]dbus.Variant{"session_handle": dbus.MakeVariant(s)}), nil
}

func (p *fakePortal) BindShortcuts(sender dbus.Sender, session dbus.ObjectPath, shortcuts []struct {
	ID   string
	Opts map[string]dbus.Variant
}, parent string, opts map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	trig, _ := shortcuts[0].Opts["preferred_trigger"].Value().(string)
	p.bound <- trig
	if p.decline {
		return p.respond(sender, opts, 1, map[string]dbus.Variant{}), nil
	}
	out := []struct {
		ID   string
		Opts map[string]dbus.Variant
	}{{shortcuts[0].ID, map[string]dbus.Variant{"trigger_description": dbus.MakeVariant("Ctrl+Alt+Q")}}}
	return p.respond(sender, opts, 0, map[string]dbus.Variant{"shortcuts": dbus.MakeVariant(out)}), nil
}

func startFake(t *testing.T, p *fakePortal) string {
	t.Helper()
	addr := testkit.StartBus(t)
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	p.conn, p.bound, p.sessions = conn, make(chan string, 4), make(chan dbus.ObjectPath, 4)
	if err := conn.Export(p, portalPath, shortcutsIfc); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.RequestName(portalName, dbus.NameFlagDoNotQueue); err != nil {
		t.Fatal(err)
	}
	return addr
}

func connect(t *testing.T, addr string) *dbus.Conn {
	t.Helper()
	c, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestBind: the binding asks for the preferred trigger, takes the bound
// one's description, and calls fn for its own shortcut's activations only
// (not another id's, not another session's), until Close.
func TestBind(t *testing.T) {
	p := &fakePortal{}
	conn := connect(t, startFake(t, p))
	var n atomic.Int32
	b, err := Bind(conn, "question", "Bring the question to the front", "CTRL+ALT+q", func() { n.Add(1) }, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if got := <-p.bound; got != "CTRL+ALT+q" || b.Trigger != "Ctrl+Alt+Q" {
		t.Fatalf("preferred %q, bound %q", got, b.Trigger)
	}
	session := <-p.sessions
	emit := func(s dbus.ObjectPath, id string) {
		if err := p.conn.Emit(portalPath, shortcutsIfc+".Activated", s, id, uint64(0), map[string]dbus.Variant{}); err != nil {
			t.Fatal(err)
		}
	}
	emit(session, "other")
	emit("/org/freedesktop/portal/desktop/session/x/else", "question")
	emit(session, "question")
	for deadline := time.Now().Add(10 * time.Second); n.Load() != 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d activations seen, want 1", n.Load())
		}
	}
	b.Close() // returns once listen has: no call can come after it
	emit(session, "question")
	if n.Load() != 1 {
		t.Fatalf("%d activations after Close", n.Load())
	}
}

// TestBind_DeclinedOrNoPortal: a binding the person declines, and a
// session bus with no portal, are errors that say so.
func TestBind_DeclinedOrNoPortal(t *testing.T) {
	p := &fakePortal{decline: true}
	conn := connect(t, startFake(t, p))
	if _, err := Bind(conn, "question", "d", "CTRL+ALT+q", func() {}, 10*time.Second); err == nil || !strings.Contains(err.Error(), "declined") {
		t.Fatalf("declined: %v", err)
	}
	bare := connect(t, testkit.StartBus(t))
	if _, err := Bind(bare, "question", "d", "CTRL+ALT+q", func() {}, 10*time.Second); !errors.Is(err, ErrNoPortal) {
		t.Fatalf("no portal: %v", err)
	}
}
