package ui

import (
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

// TestTray_RuleDecisionsAreShown: an approval a rule allowed with no dialog
// still shows a notification naming the rule and what it allowed, and the
// tray menu lists it under Recent rule decisions.
func TestTray_RuleDecisionsAreShown(t *testing.T) {
	addr := testkit.StartBus(t)
	fake := startFakeNotifications(t, addr)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	pol, err := policy.Open(filepath.Join(t.TempDir(), policy.File))
	if err != nil {
		t.Fatal(err)
	}
	rule, err := pol.Add(policy.Rule{Client: "claude-code", Action: "permission_request:Bash", Match: policy.MatchPrefix, Pattern: "npm test",
		Decision: policy.Allow, Scope: policy.ScopeAlways})
	if err != nil {
		t.Fatal(err)
	}
	b := question.NewBroker(question.Config{Gate: pol.Gate})
	defer b.Close()
	tr := newTray(test.NewTempApp(t), app.Env{Broker: b, Policy: pol})
	n := newNotifier(slog.New(slog.DiscardHandler), nil, false)
	n.start()
	tr.note = n
	q := question.Question{Kind: question.KindApproval, Client: question.Client{Name: "claude-code", SessionID: "s"}, Tool: "permission_request", Origin: question.OriginPermission,
		Action: "Bash", Message: "Bash", Input: json.RawMessage(`{"command":"npm test -- --ci"}`), Cwd: "/home/u/app"}
	asked, err := b.Ask(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	ended, res, _ := b.Get(asked.ID)
	if res == nil || res.Outcome != question.AutoApproved || res.RuleID != rule.ID {
		t.Fatalf("not decided by the rule: %+v", res)
	}
	// The broker's EventEnded, handed over as the UI's subscriber does
	// (on the Fyne goroutine: here, the test's).
	tr.handle(question.Event{Type: question.EventEnded, Question: ended, Result: res})
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
		t.Fatal("no notification of the rule's decision")
	}
	if shown["summary"] != "Allowed by your rule" || !strings.Contains(shown["body"].(string), "claude-code: npm test -- --ci") ||
		!strings.Contains(shown["body"].(string), "Rule "+rule.ID+": commands starting “npm test”") {
		t.Fatalf("notification %v", shown)
	}
	tr.refresh()
	var recent []string
	for _, it := range tr.menu.Items {
		if it.Label == "Recent rule decisions" && it.ChildMenu != nil {
			for _, c := range it.ChildMenu.Items {
				recent = append(recent, c.Label)
			}
		}
	}
	if len(recent) != 1 || recent[0] != "Allowed: npm test -- --ci (rule "+rule.ID+")" {
		t.Fatalf("recent decisions in the menu: %q", recent)
	}
}

func TestNoteTextShowsInvisibleCharacters(t *testing.T) {
	q := question.Question{Kind: question.KindApproval, Client: question.Client{Name: "codex"}, Message: "ls \u202e; rm -rf ~ #\u202c"}
	if _, body := noteText(q); body != "ls ⟨U+202E⟩; rm -rf ~ #⟨U+202C⟩" {
		t.Fatalf("body %q", body)
	}
}
