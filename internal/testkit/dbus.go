package testkit

import (
	"bufio"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// StartBus starts a D-Bus session bus of the test's own and returns its
// address; it is killed when the test ends. dbus-daemon comes with the
// dbus package (make deps installs it).
func StartBus(t testing.TB) string {
	t.Helper()
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("dbus-daemon (make deps installs the dbus package): %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(addr)
}

// Note is one notification the fake server was asked to show.
type Note struct {
	ID                 uint32
	App, Summary, Body string
	Actions            []string
}

// ServeNotifications connects to the bus at addr and serves server there as
// org.freedesktop.Notifications at /org/freedesktop/Notifications, until
// the test ends. server must have the interface's methods (Notify,
// CloseNotification, GetCapabilities, GetServerInformation; embed
// NotificationServerInfo for the last two). It returns the connection, to
// emit the server's signals on.
func ServeNotifications(t testing.TB, addr string, server any) *dbus.Conn {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := conn.Export(server, "/org/freedesktop/Notifications", "org.freedesktop.Notifications"); err != nil {
		t.Fatal(err)
	}
	if reply, err := conn.RequestName("org.freedesktop.Notifications", dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own org.freedesktop.Notifications: %v %v", reply, err)
	}
	return conn
}

// NotificationServerInfo answers the two informational methods of
// org.freedesktop.Notifications for a fake server that embeds it: it shows
// bodies and actions.
type NotificationServerInfo struct{}

// GetCapabilities says the server shows bodies and actions (D-Bus method).
func (NotificationServerInfo) GetCapabilities() ([]string, *dbus.Error) {
	return []string{"body", "actions"}, nil
}

// GetServerInformation names the fake (D-Bus method).
func (NotificationServerInfo) GetServerInformation() (string, string, string, string, *dbus.Error) {
	return "fake", "asktray-tests", "1", "1.2", nil
}

// FakeNotifications owns org.freedesktop.Notifications on a bus and records
// what it is asked to show and close. Safe for concurrent use.
type FakeNotifications struct {
	NotificationServerInfo
	conn   *dbus.Conn
	mu     sync.Mutex
	shown  []Note
	closed []uint32
	delay  time.Duration
}

// StartFakeNotifications connects to the bus at addr and serves
// org.freedesktop.Notifications there until the test ends.
func StartFakeNotifications(t testing.TB, addr string) *FakeNotifications {
	t.Helper()
	f := &FakeNotifications{}
	f.conn = ServeNotifications(t, addr, f)
	return f
}

// Notify records a notification and returns its id (D-Bus method).
func (f *FakeNotifications) Notify(app string, _ uint32, _, summary, body string, actions []string, _ map[string]dbus.Variant, _ int32) (uint32, *dbus.Error) {
	f.mu.Lock()
	delay := f.delay
	f.mu.Unlock()
	time.Sleep(delay)
	f.mu.Lock()
	defer f.mu.Unlock()
	id := uint32(len(f.shown) + 1) //nolint:gosec // a test server never shows 4 billion notifications
	f.shown = append(f.shown, Note{ID: id, App: app, Summary: summary, Body: body, Actions: actions})
	return id, nil
}

// CloseNotification records that id was closed (D-Bus method).
func (f *FakeNotifications) CloseNotification(id uint32) *dbus.Error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = append(f.closed, id)
	return nil
}

// SetDelay makes Notify take d, as a busy notification server may.
func (f *FakeNotifications) SetDelay(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.delay = d
}

// Shown returns the notifications shown so far, in order.
func (f *FakeNotifications) Shown() []Note {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Note(nil), f.shown...)
}

// Closed returns the ids closed so far, in order.
func (f *FakeNotifications) Closed() []uint32 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]uint32(nil), f.closed...)
}

// Invoke emits ActionInvoked for notification id, as a click on action does.
func (f *FakeNotifications) Invoke(id uint32, action string) error {
	return f.conn.Emit("/org/freedesktop/Notifications", "org.freedesktop.Notifications.ActionInvoked", id, action)
}
