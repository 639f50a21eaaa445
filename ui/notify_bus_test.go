package ui

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

// TestNotifier_ForgedSignalsIgnored: another connection on the session bus
// (any process of the user) emits ActionInvoked for a question's
// notification, "Open in browser" and the default click, and
// NotificationClosed for it: none opens anything or forgets the
// notification, and the log names the forger. The notification server's
// own click still opens the page, and its close still forgets it.
func TestNotifier_ForgedSignalsIgnored(t *testing.T) {
	addr := testkit.StartBus(t)
	fake := startFakeNotifications(t, addr)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	var logs testkit.SyncBuffer
	opened, browsed := make(chan string, 4), make(chan string, 4)
	n := newNotifier(slog.New(slog.NewTextHandler(&logs, nil)), func(id string) { opened <- id }, false)
	defer n.close()
	n.webURL = func(string) string { return "http://127.0.0.1:7931/q/q1" }
	n.onBrowser = func(id string) { browsed <- id }
	n.show(question.Question{ID: "q1", Kind: question.KindApproval, Client: question.Client{Name: "claude-code"}, Action: "Bash", Message: "rm -rf ~"}, false)
	fake.mu.Lock()
	nid := fake.shown[0]["id"].(uint32)
	fake.mu.Unlock()

	forger, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer forger.Close()
	for _, key := range []string{"browser", "default"} {
		if err := forger.Emit(notesPath, notesClick, nid, key); err != nil {
			t.Fatal(err)
		}
	}
	if err := forger.Emit(notesPath, notesGone, nid, uint32(2)); err != nil {
		t.Fatal(err)
	}
	// Wait until the notifier has refused all three, failing at once if
	// one of them opened anything.
	for deadline := time.Now().Add(5 * time.Second); strings.Count(logs.String(), "not sent by the notification server") < 3; {
		select {
		case id := <-browsed:
			t.Fatalf("a forged ActionInvoked opened the page of %s", id)
		case id := <-opened:
			t.Fatalf("a forged ActionInvoked opened the dialog of %s", id)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the forged signals were not all seen and refused; log:\n%s", logs.String())
		}
	}
	if !strings.Contains(logs.String(), "sender="+forger.Names()[0]) {
		t.Fatalf("the log does not name the forger %s:\n%s", forger.Names()[0], logs.String())
	}

	// The server's own click still works: the forged close forgot nothing.
	if err := fake.conn.Emit(notesPath, notesClick, nid, "browser"); err != nil {
		t.Fatal(err)
	}
	select {
	case id := <-browsed:
		if id != "q1" {
			t.Fatalf("browsed %q", id)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the notification server's click did nothing")
	}
	if err := fake.conn.Emit(notesPath, notesGone, nid, uint32(2)); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		n.mu.Lock()
		_, still := n.byQ["q1"]
		n.mu.Unlock()
		if !still {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server's NotificationClosed did not forget the notification")
		}
	}
}

// TestNotifier_SignalsFromTheServerThatShowedIt: when another process takes
// org.freedesktop.Notifications over after a notification was shown, its
// click on that notification is ignored: only the unique name that showed
// it counts.
func TestNotifier_SignalsFromTheServerThatShowedIt(t *testing.T) {
	addr := testkit.StartBus(t)
	fake := startFakeNotifications(t, addr)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	var logs testkit.SyncBuffer
	opened := make(chan string, 2)
	n := newNotifier(slog.New(slog.NewTextHandler(&logs, nil)), func(id string) { opened <- id }, false)
	defer n.close()
	n.show(question.Question{ID: "q1", Kind: question.KindConfirm, Client: question.Client{Name: "codex"}, Message: "Push?"}, false)
	fake.mu.Lock()
	nid := fake.shown[0]["id"].(uint32)
	fake.mu.Unlock()
	if _, err := fake.conn.ReleaseName(notesName); err != nil {
		t.Fatal(err)
	}
	usurper := startFakeNotifications(t, addr) // now owns the well-known name
	if err := usurper.conn.Emit(notesPath, notesClick, nid, "default"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(logs.String(), "sender="+usurper.conn.Names()[0]); {
		select {
		case id := <-opened:
			t.Fatalf("the new owner's click opened %q", id)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the new owner's click was not refused; log:\n%s", logs.String())
		}
	}
	if err := fake.conn.Emit(notesPath, notesClick, nid, "default"); err != nil {
		t.Fatal(err)
	}
	select {
	case id := <-opened:
		if id != "q1" {
			t.Fatalf("opened %q", id)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the original server's click did nothing")
	}
}
