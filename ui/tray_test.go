package ui

import (
	"context"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/question"
)

func TestTray_CountFollowsBroker(t *testing.T) {
	a := test.NewTempApp(t)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	tr := newTray(a, app.Env{Broker: b, URL: "http://127.0.0.1:7931/mcp", DataDir: "/data"})
	tr.install()
	if tr.count.Label != "No pending questions" {
		t.Fatalf("idle label %q", tr.count.Label)
	}
	for range 2 {
		if _, err := b.Ask(context.Background(), question.Question{Kind: question.KindConfirm, Message: "ok?"}); err != nil {
			t.Fatal(err)
		}
	}
	tr.refresh()
	if tr.count.Label != "2 pending questions" {
		t.Fatalf("label %q", tr.count.Label)
	}
	tr.showStatus()
	if tr.statusCount.Text != "2 pending questions" || !tr.status.Content().Visible() {
		t.Fatalf("status window shows %q", tr.statusCount.Text)
	}
	// Showing it again reuses the one window.
	w := tr.status
	tr.showStatus()
	if tr.status != w {
		t.Fatal("status window was rebuilt")
	}
}

func TestPendingLabel(t *testing.T) {
	for n, want := range map[int]string{0: "No pending questions", 1: "1 pending question", 7: "7 pending questions"} {
		if got := pendingLabel(n); got != want {
			t.Errorf("pendingLabel(%d) = %q, want %q", n, got, want)
		}
	}
}
