package ui

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"github.com/godbus/dbus/v5"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

// fakeNotifications is a small org.freedesktop.Notifications server that
// records what it is asked to show, in the shape these tests read.
type fakeNotifications struct {
	testkit.NotificationServerInfo
	conn   *dbus.Conn
	mu     sync.Mutex
	shown  []map[string]any
	closed []uint32
	next   uint32
	delay  time.Duration // how long Notify takes, as a busy notification server may
}

func (f *fakeNotifications) Notify(app string, replaces uint32, icon, summary, body string, actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	time.Sleep(f.delay)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next++
	var urgency byte
	_ = hints["urgency"].Store(&urgency)
	soundName, sound := hints["sound-name"]
	name, _ := soundName.Value().(string)
	f.shown = append(f.shown, map[string]any{"app": app, "summary": summary, "body": body, "actions": actions, "id": f.next,
		"urgency": urgency, "sound": sound, "sound-name": name})
	return f.next, nil
}

func (f *fakeNotifications) CloseNotification(id uint32) *dbus.Error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = append(f.closed, id)
	return nil
}

func startFakeNotifications(t *testing.T, addr string) *fakeNotifications {
	t.Helper()
	f := &fakeNotifications{}
	f.conn = testkit.ServeNotifications(t, addr, f)
	return f
}

func TestNotifier_ShowClickDismiss(t *testing.T) {
	addr := testkit.StartBus(t)
	fake := startFakeNotifications(t, addr)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	opened := make(chan string, 1)
	n := newNotifier(slog.New(slog.DiscardHandler), func(id string) { opened <- id }, false)
	defer n.close()
	if n.backend != "dbus" {
		t.Fatalf("backend %s", n.backend)
	}
	q := question.Question{ID: "q1", Kind: question.KindConfirm, Client: question.Client{Name: "claude-code"}, Message: "Delete the build directory\n(3.2 GB)?"}
	n.show(q, false)
	fake.mu.Lock()
	if len(fake.shown) != 1 {
		t.Fatalf("shown %v", fake.shown)
	}
	got := fake.shown[0]
	fake.mu.Unlock()
	if got["summary"] != "claude-code asks" || got["body"] != "Delete the build directory (3.2 GB)?" || got["app"] != "Asktray" {
		t.Fatalf("notification %v", got)
	}
	// Clicking it (the default action) opens the question's dialog.
	if err := fake.conn.Emit("/org/freedesktop/Notifications", "org.freedesktop.Notifications.ActionInvoked", got["id"].(uint32), "default"); err != nil {
		t.Fatal(err)
	}
	select {
	case id := <-opened:
		if id != "q1" {
			t.Fatalf("opened %q", id)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("click did not open the question")
	}
	n.dismiss("q1")
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if len(fake.closed) != 1 || fake.closed[0] != got["id"].(uint32) {
		t.Fatalf("closed %v", fake.closed)
	}
}

// TestNotifier_OpenInBrowser: a question with a page gets an "Open in
// browser" action, and choosing it asks for that question's page.
func TestNotifier_OpenInBrowser(t *testing.T) {
	addr := testkit.StartBus(t)
	fake := startFakeNotifications(t, addr)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	opened, browsed := make(chan string, 1), make(chan string, 1)
	n := newNotifier(slog.New(slog.DiscardHandler), func(id string) { opened <- id }, false)
	defer n.close()
	n.webURL = func(id string) string {
		if id == "q1" {
			return "http://127.0.0.1:7931/q/q1?k=secret"
		}
		return ""
	}
	n.onBrowser = func(id string) { browsed <- id }
	n.show(question.Question{ID: "q1", Kind: question.KindConfirm, Client: question.Client{Name: "codex"}, Message: "Push?"}, false)
	n.show(question.Question{ID: "q2", Kind: question.KindConfirm, Client: question.Client{Name: "codex"}, Message: "Ended?"}, false)
	fake.mu.Lock()
	first, second := fake.shown[0], fake.shown[1]
	fake.mu.Unlock()
	if a := strings.Join(first["actions"].([]string), ","); a != "default,Open,open,Open,browser,Open in browser" {
		t.Fatalf("actions %q", a)
	}
	if a := strings.Join(second["actions"].([]string), ","); strings.Contains(a, "browser") {
		t.Fatalf("actions without a page %q", a)
	}
	if err := fake.conn.Emit("/org/freedesktop/Notifications", "org.freedesktop.Notifications.ActionInvoked", first["id"].(uint32), "browser"); err != nil {
		t.Fatal(err)
	}
	select {
	case id := <-browsed:
		if id != "q1" {
			t.Fatalf("browsed %q", id)
		}
	case id := <-opened:
		t.Fatalf("Open in browser opened the dialog of %q", id)
	case <-time.After(5 * time.Second):
		t.Fatal("Open in browser did nothing")
	}
}

// TestNotifier_FailingDaemonLogsOnce: with no notification server the app
// carries on and logs one warning, however many questions come.
func TestNotifier_FailingDaemonLogsOnce(t *testing.T) {
	addr := testkit.StartBus(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	t.Setenv("DISPLAY", "")
	var buf testkit.SyncBuffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	n := newNotifier(log, nil, false)
	defer n.close()
	for range 3 {
		n.show(question.Question{ID: "x", Kind: question.KindText, Message: "m", Client: question.Client{Name: "c"}}, false)
	}
	if c := strings.Count(buf.String(), "cannot show notifications"); c != 1 {
		t.Fatalf("%d warnings:\n%s", c, buf.String())
	}
}

func TestNoteText(t *testing.T) {
	q := question.Question{Kind: question.KindNotice, Client: question.Client{Name: "cursor", Title: "Cursor"}, Header: "Deploy", Message: strings.Repeat("word ", 60)}
	title, body := noteText(q)
	if title != "Cursor says" || !strings.HasPrefix(body, "Deploy: word") || len([]rune(body)) != 140 || !strings.HasSuffix(body, "…") {
		t.Fatalf("%q %q (%d)", title, body, len([]rune(body)))
	}
}

// TestTray_NotificationsInOrder: a question that ends right after it was
// asked, on a notification server slow to answer, leaves no notification
// behind: the tray queues show and dismiss for the notifier's one worker,
// which runs them in order; closing the notifier joins it and refuses
// later calls. Showing
// and dismissing from goroutines of their own, the dismiss ran before the
// show had recorded the notification's id, and the notification stayed.
func TestTray_NotificationsInOrder(t *testing.T) {
	addr := testkit.StartBus(t)
	fake := startFakeNotifications(t, addr)
	fake.delay = 150 * time.Millisecond
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	tr := newTray(test.NewTempApp(t), app.Env{Broker: b})
	n := newNotifier(slog.New(slog.DiscardHandler), nil, false)
	n.start()
	tr.note = n
	who := question.Client{Name: "codex"}
	q1 := question.Question{ID: "q1", Kind: question.KindConfirm, Client: who, Message: "Withdrawn at once?"}
	q2 := question.Question{ID: "q2", Kind: question.KindConfirm, Client: who, Message: "Still waiting?"}
	q3 := question.Question{ID: "q3", Kind: question.KindConfirm, Client: who, Message: "Ended later?"}
	start := time.Now()
	for _, ev := range []question.Event{
		{Type: question.EventAsked, Question: q1}, {Type: question.EventEnded, Question: q1},
		{Type: question.EventAsked, Question: q2}, {Type: question.EventAsked, Question: q3},
		{Type: question.EventEnded, Question: q3},
	} {
		tr.handle(ev)
	}
	if took := time.Since(start); took > fake.delay {
		t.Errorf("handling the events waited %v for the notification server", took)
	}
	// The worker is done once q3's dismiss has run; close then joins it.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		fake.mu.Lock()
		done := len(fake.shown) == 3 && len(fake.closed) == 2
		fake.mu.Unlock()
		if done || time.Now().After(deadline) {
			break
		}
	}
	n.close()
	fake.mu.Lock()
	defer fake.mu.Unlock()
	var bodies []string
	for _, s := range fake.shown {
		bodies = append(bodies, s["body"].(string))
	}
	if strings.Join(bodies, "|") != "Withdrawn at once?|Still waiting?|Ended later?" {
		t.Fatalf("shown out of order: %q", bodies)
	}
	if len(fake.closed) != 2 || fake.closed[0] != fake.shown[0]["id"] || fake.closed[1] != fake.shown[2]["id"] {
		t.Fatalf("closed %v; want the notifications of q1 and q3, in order", fake.closed)
	}
	if len(n.byQ) != 1 || n.byQ["q2"] != fake.shown[1]["id"] {
		t.Fatalf("notifications still recorded: %v", n.byQ)
	}
	n.queueShow(q1) // after close: refused, not run
	if len(fake.shown) != 3 {
		t.Fatalf("a show queued after close ran: %d shown", len(fake.shown))
	}
}

// TestNotifier_QuietForAQueuedQuestion: a question that waits behind an
// open dialog is notified at low urgency and without the sound; one that
// opens its dialog at normal urgency, with the sound when it is on.
func TestNotifier_QuietForAQueuedQuestion(t *testing.T) {
	addr := testkit.StartBus(t)
	fake := startFakeNotifications(t, addr)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	n := newNotifier(slog.New(slog.DiscardHandler), nil, true)
	defer n.close()
	q := question.Question{ID: "q1", Kind: question.KindConfirm, Client: question.Client{Name: "cursor"}, Message: "Push?"}
	n.show(q, false)
	q.ID = "q2"
	n.show(q, true)
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if len(fake.shown) != 2 {
		t.Fatalf("shown %v", fake.shown)
	}
	if loud, quiet := fake.shown[0], fake.shown[1]; loud["urgency"] != byte(1) || loud["sound"] != true || quiet["urgency"] != byte(0) || quiet["sound"] != false {
		t.Fatalf("loud %v, quiet %v", loud, quiet)
	}
}

// TestNotifier_ASoundPerKind: a question, an approval and a high-risk (or
// destructive) approval each play their own sound from the desktop's sound
// theme, so the person hears which it is (issue 38 item 12).
func TestNotifier_ASoundPerKind(t *testing.T) {
	addr := testkit.StartBus(t)
	fake := startFakeNotifications(t, addr)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	n := newNotifier(slog.New(slog.DiscardHandler), nil, true)
	defer n.close()
	client := question.Client{Name: "claude-code"}
	for i, q := range []question.Question{
		{Kind: question.KindConfirm, Client: client, Message: "Push?"},
		{Kind: question.KindApproval, Client: client, Action: "npm test", Risk: question.RiskLow},
		{Kind: question.KindApproval, Client: client, Action: "git push --force", Risk: question.RiskHigh},
		{Kind: question.KindApproval, Client: client, Action: "Drop the table", Destructive: true},
	} {
		q.ID = fmt.Sprintf("q%d", i)
		n.show(q, false)
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	want := []string{"message-new-instant", "dialog-question", "dialog-warning", "dialog-warning"}
	if len(fake.shown) != len(want) {
		t.Fatalf("shown %v", fake.shown)
	}
	for i, w := range want {
		if got := fake.shown[i]["sound-name"]; got != w {
			t.Errorf("notification %d plays %q, want %q", i, got, w)
		}
	}
}
