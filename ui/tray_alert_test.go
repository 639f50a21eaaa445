package ui

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/personcheck"
	"github.com/asktray/asktray/internal/testkit"
)

// TestTray_PasswordGuessingIsShown: the warning the app raises when wrong
// passwords lock approving outside the dialog (issue 33 item 4: someone may
// be guessing) reaches the person as a critical notification that says
// what happened and that the dialog still works.
func TestTray_PasswordGuessingIsShown(t *testing.T) {
	addr := testkit.StartBus(t)
	fake := startFakeNotifications(t, addr)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	n := newNotifier(slog.New(slog.DiscardHandler), nil, false)
	n.start()
	n.queueAlert(personcheck.Alert{Failures: 3, Last: personcheck.Terminal("tty=1"), LockedFor: personcheck.LockFor}.Text())
	var shown map[string]any
	for deadline := time.Now().Add(5 * time.Second); shown == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		fake.mu.Lock()
		if len(fake.shown) > 0 {
			shown = fake.shown[0]
		}
		fake.mu.Unlock()
	}
	n.close()
	if shown == nil {
		t.Fatal("no notification of the lock")
	}
	body, _ := shown["body"].(string)
	if !strings.Contains(shown["summary"].(string), "guessing your password") || !strings.Contains(body, "3 wrong login passwords") ||
		!strings.Contains(body, "dialog still works") || shown["urgency"] != byte(2) {
		t.Fatalf("notification %v", shown)
	}
}
