package ui

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
	"github.com/asktray/asktray/ui/askdialog"
)

// TestTray_QuestionsDoNotNeedNotifications is Windows under Wine, where
// every toast fails (no WinRT XML), or a desktop with no notification
// server: the tray's notifier fails every time, logs it once, and each
// question still opens its dialog, stays in the tray's menu and is
// answered; nothing waits for the notification.
func TestTray_QuestionsDoNotNeedNotifications(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", testkit.StartBus(t)) // a bus with no notification server on it
	t.Setenv("DISPLAY", "")
	a := test.NewTempApp(t)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	tr := newTray(a, app.Env{Broker: b})
	tr.dialogs = askdialog.NewManager(a, b, askdialog.Options{ReuseWindows: true})
	tr.install()
	var logs testkit.SyncBuffer
	n := newNotifier(slog.New(slog.NewTextHandler(&logs, nil)), nil, false)
	n.start()
	defer n.close()
	tr.note = n
	events := make(chan question.Event, 16)
	defer b.Subscribe(func(ev question.Event) { events <- ev })()

	for i, msg := range []string{"Deploy to staging?", "Tag the release?"} {
		q := ask(t, b, question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "codex"}, Message: msg})
		tr.handle(<-events)
		for deadline := time.Now().Add(5 * time.Second); !strings.Contains(logs.String(), "cannot show notifications"); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the notifier did not fail (so this test proves nothing): %s", logs.String())
			}
		}
		if !tr.dialogs.Has(q.ID) || item(tr, "codex: "+msg) == nil {
			t.Fatalf("question %d: dialog %v, menu %q", i, tr.dialogs.Has(q.ID), labels(tr))
		}
		if err := b.Answer(q.ID, question.Response{Action: question.Accept, Value: []byte(`"yes"`), Via: question.ViaDialog}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		res, err := b.Wait(ctx, q.ID)
		cancel()
		if err != nil || res.Outcome != question.Answered {
			t.Fatalf("question %d: %+v %v", i, res, err)
		}
		tr.handle(<-events) // ended: its notification is dismissed, which fails quietly too
		if item(tr, "codex: "+msg) != nil {
			t.Fatalf("question %d stays in the menu after its answer: %q", i, labels(tr))
		}
	}
	if c := strings.Count(logs.String(), "cannot show notifications"); c != 1 {
		t.Errorf("%d warnings, want one for the whole run:\n%s", c, logs.String())
	}
}
