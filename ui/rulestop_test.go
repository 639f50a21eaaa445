package ui

import (
	"encoding/json"
	"fmt"
	"image/png"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

// TestTray_StopARuleFromItsNotification: a notification of rule decisions,
// the first at once and the minute's batch, offers "Stop a rule…"; the
// click (from the notification server) opens a window listing the rules
// behind it with how often each decided today and what Undo cannot mean;
// "Stop this rule" removes the rule, saved, so the next such request is
// no longer decided by it; Undo puts the same rule back (its id, its
// Created time) and it decides again. The day's submenu opens the same
// window (issue 38 item 12). docs/screenshots/rule-stop.png with
// ASKTRAY_SCREENSHOTS=1.
func TestTray_StopARuleFromItsNotification(t *testing.T) {
	addr := testkit.StartBus(t)
	fake := startFakeNotifications(t, addr)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	path := filepath.Join(t.TempDir(), policy.File)
	pol, err := policy.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	npm, err := pol.Add(policy.Rule{Client: "claude-code", Action: "permission_request:Bash", Match: policy.MatchPrefix, Pattern: "npm test",
		Decision: policy.Allow, Scope: policy.ScopeAlways})
	if err != nil {
		t.Fatal(err)
	}
	rm, err := pol.Add(policy.Rule{Client: "*", Action: "permission_request:Bash", Match: policy.MatchPrefix, Pattern: "rm -rf",
		Decision: policy.Deny, Scope: policy.ScopeAlways})
	if err != nil {
		t.Fatal(err)
	}
	b := question.NewBroker(question.Config{})
	defer b.Close()
	a := test.NewTempApp(t)
	useAppTheme(a) // its screenshot in the app's theme
	tr := newTray(a, app.Env{Broker: b, Policy: pol, Log: slog.New(slog.DiscardHandler)})
	tr.clock = func() time.Time { return time.Date(2026, 12, 5, 14, 0, 0, 0, time.Local) }
	var flush func()
	tr.after = func(d time.Duration, f func()) {
		if d == ruledWindow { // not the menu's rebuild, which tr.refresh below does
			flush = f
		}
	}
	clicked := make(chan []string, 1)
	n := newNotifier(slog.New(slog.DiscardHandler), nil, false)
	n.onRules = func(ids []string) { clicked <- ids }
	n.start()
	defer n.close()
	tr.note = n
	bash := func(i int, command string) question.Question {
		return question.Question{ID: fmt.Sprintf("q%d", i), Kind: question.KindApproval, Client: question.Client{Name: "claude-code"},
			Tool: "permission_request", Origin: question.OriginPermission, Action: "Bash", Message: "Bash",
			Input: json.RawMessage(fmt.Sprintf(`{"command":%q}`, command))}
	}
	decide := func(q question.Question) {
		r := pol.Judge(q)
		if !r.Decided {
			t.Fatalf("%s: no rule decided", q.Input)
		}
		tr.handle(question.Event{Type: question.EventEnded, Question: q, Result: &r.Result})
	}
	shown := func(want int) map[string]any {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			fake.mu.Lock()
			got := slices.Clone(fake.shown)
			fake.mu.Unlock()
			if len(got) >= want {
				return got[want-1]
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d notifications shown, want %d", len(got), want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}

	decide(bash(1, "npm test -- --run=1")) // notified at once
	first := shown(1)
	if acts := first["actions"].([]string); !slices.Equal(acts, []string{"default", stopRuleAction, "rules", stopRuleAction}) {
		t.Fatalf("the first notification's actions %q", acts)
	}
	decide(bash(2, "npm test -- --run=2"))
	decide(bash(3, "rm -rf build"))
	flush() // the minute ends: one notification for both rules
	batch := shown(2)
	if !strings.HasPrefix(batch["summary"].(string), "1 allowed and 1 denied by your rules") || len(batch["actions"].([]string)) != 4 {
		t.Fatalf("the batch's notification %v", batch)
	}
	if err := fake.conn.Emit("/org/freedesktop/Notifications", "org.freedesktop.Notifications.ActionInvoked", batch["id"].(uint32), "rules"); err != nil {
		t.Fatal(err)
	}
	var ids []string
	select {
	case ids = <-clicked:
	case <-time.After(10 * time.Second):
		t.Fatal("the click on the batch's notification offered no rules")
	}
	if !slices.Equal(ids, slices.Sorted(slices.Values([]string{npm.ID, rm.ID}))) {
		t.Fatalf("the click offers rules %q", ids)
	}
	tr.showRuleStop(ids) // what onRules does on the Fyne goroutine
	s := tr.ruleStop
	row := func(id string) ruleStopRow {
		i := slices.IndexFunc(s.shown, func(r ruleStopRow) bool { return r.id == id })
		if i < 0 {
			t.Fatalf("no row for rule %s", id)
		}
		return s.shown[i]
	}
	if got, want := row(npm.ID).text.Text, "Allows “Bash” requests from claude-code, commands starting “npm test” (rule "+npm.ID+", 2 decisions today)"; got != want {
		t.Fatalf("the rule's line %q, want %q", got, want)
	}
	if !strings.HasPrefix(row(rm.ID).text.Text, "Denies “Bash” requests from any agent, commands starting “rm -rf”") {
		t.Fatalf("the deny rule's line %q", row(rm.ID).text.Text)
	}
	if !hasLabel(s.win.Content(), ruleStopTruth) {
		t.Fatal("the window does not say what Undo cannot mean")
	}

	// Stop: removed and saved; the next such request is no rule's.
	test.Tap(row(npm.ID).button)
	if _, ok := pol.Rule(npm.ID); ok || pol.Judge(bash(4, "npm test")).Decided {
		t.Fatal("the stopped rule still decides")
	}
	if again, err := policy.Open(path); err != nil || len(again.Rules()) != 1 {
		t.Fatalf("after stopping, the rules file holds %v (%v)", again.Rules(), err)
	}
	if r := row(npm.ID); r.button.Text != "Undo" || !strings.HasPrefix(r.text.Text, stoppedLead+"Allows") {
		t.Fatalf("after stopping: %q, %q", r.button.Text, r.text.Text)
	}
	if os.Getenv("ASKTRAY_SCREENSHOTS") == "1" {
		captureWindow(t, s.win, filepath.Join("..", "docs", "screenshots", "rule-stop.png"))
	}
	// Undo: the same rule back, deciding again.
	test.Tap(row(npm.ID).button)
	if back, ok := pol.Rule(npm.ID); !ok || back != npm {
		t.Fatalf("after Undo the rule is %+v (%v), want %+v", back, ok, npm)
	}
	if r := pol.Judge(bash(5, "npm test")); !r.Decided || r.Result.RuleID != npm.ID {
		t.Fatalf("the restored rule does not decide: %+v", r)
	}
	if row(npm.ID).button.Text != "Stop this rule" {
		t.Fatalf("after Undo the button says %q", row(npm.ID).button.Text)
	}

	// The day's submenu opens the same window with the day's rules.
	s.win.Hide()
	tr.refresh()
	var stop *fyne.MenuItem
	for _, it := range tr.menu.Items {
		if it.ChildMenu != nil && strings.HasPrefix(it.Label, "Today: ") {
			for _, c := range it.ChildMenu.Items {
				if c.Label == stopRuleAction {
					stop = c
				}
			}
		}
	}
	if stop == nil {
		t.Fatalf("no %q under the day's summary: %v", stopRuleAction, menuLabels(tr.menu))
	}
	stop.Action()
	if len(s.shown) != 2 {
		t.Fatalf("the day's item lists %d rules", len(s.shown))
	}
}

// hasLabel reports whether a label laid out under o reads text.
func hasLabel(o fyne.CanvasObject, text string) bool {
	for _, c := range test.LaidOutObjects(o) {
		if l, ok := c.(*widget.Label); ok && l.Text == text {
			return true
		}
	}
	return false
}

// captureWindow writes w's canvas to path as a PNG.
func captureWindow(t *testing.T, w fyne.Window, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, w.Canvas().Capture()); err != nil {
		t.Fatal(err)
	}
}
