package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/ui/askdialog"
)

// TestTray_ClientFormHoldsDialog: a question open in the agent's own form
// opens no dialog; the tray lists it as answering there; when it comes back
// to the desktop its dialog opens.
func TestTray_ClientFormHoldsDialog(t *testing.T) {
	a := test.NewTempApp(t)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	tr := newTray(a, app.Env{Broker: b})
	tr.dialogs = askdialog.NewManager(a, b, askdialog.Options{ReuseWindows: true})
	tr.install()
	events := make(chan question.Event, 16)
	defer b.Subscribe(func(ev question.Event) { events <- ev })()

	q := ask(t, b, question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "claude-code"}, Message: "Deploy?", DeliverTo: question.DeliverClient})
	tr.handle(<-events)
	if !tr.dialogs.Idle() {
		t.Fatal("a dialog opened for a question in the client's form")
	}
	if item(tr, "claude-code: Deploy? (answering in claude-code)") == nil {
		t.Fatalf("menu %q", labels(tr))
	}
	tr.dialogs.Start()
	if !tr.dialogs.Idle() {
		t.Fatal("start opened a dialog for a question in the client's form")
	}
	if err := b.SetDeliverTo(q.ID, ""); err != nil {
		t.Fatal(err)
	}
	tr.handle(<-events)
	if !tr.dialogs.Has(q.ID) {
		t.Fatal("the question came back to the desktop but no dialog opened")
	}
	if item(tr, "claude-code: Deploy?") == nil {
		t.Fatalf("menu after coming back %q", labels(tr))
	}
	// End it, so that the dialog closes and its ticker stops before the next test.
	if err := b.Withdraw(q.ID); err != nil {
		t.Fatal(err)
	}
	tr.handle(<-events)
	if !tr.dialogs.Idle() {
		t.Fatal("the dialog stayed open after the question ended")
	}
}
