package ui

import (
	"encoding/json"
	"slices"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/question"
)

// TestTray_NamesWhatItWouldDo: the tray menu names a hook approval by what
// it would do ("claude-code: npm test in ~/src/shop", not "claude-code:
// Bash"), and shows a header's Markdown as plain text.
func TestTray_NamesWhatItWouldDo(t *testing.T) {
	a := test.NewTempApp(t)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	old := userHome
	userHome = "/home/ada"
	t.Cleanup(func() { userHome = old })
	tr := newTray(a, app.Env{Broker: b, Endpoint: func() (string, string) { return "http://127.0.0.1:7931/mcp", "" }, DataDir: "/data"})
	tr.install()
	ask(t, b, question.Question{Kind: question.KindApproval, Tool: "permission_request", Origin: question.OriginPermission, Action: "Bash", Message: "Bash",
		Risk: question.RiskMedium, Client: question.Client{Name: "claude-code"}, Input: json.RawMessage(`{"command":"npm test"}`),
		Cwd: "/home/ada/src/shop"})
	ask(t, b, question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "cursor"}, Header: "Run the **database migration**?", Message: "On staging."})
	tr.refresh()
	got := labels(tr)
	for _, want := range []string{"claude-code: npm test in ~/src/shop", "cursor: Run the database migration?"} {
		if !slices.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
}
