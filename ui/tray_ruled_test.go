package ui

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
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
	pol := tempPolicy(t)
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
		if it.Label == "Today: 1 allowed, 0 denied by rules" && it.ChildMenu != nil {
			for _, c := range it.ChildMenu.Items {
				recent = append(recent, c.Label)
			}
		}
	}
	if want := []string{"By rule: rule " + rule.ID + " 1", "Notify rule " + rule.ID + "'s decisions", stopRuleAction, "", "Allowed: npm test -- --ci (rule " + rule.ID + ")"}; !slices.Equal(recent, want) {
		t.Fatalf("the day's decisions in the menu: %q, want %q", recent, want)
	}
}

// TestTray_RuleDecisionsBatchedAndSummed is item 10 of issue 37: of 40
// requests a standing rule allows within a minute (and 2 another denies),
// the first is notified at once and the rest in one notification when the
// minute ends ("39 allowed and 2 denied by your rules in the last
// minute"), not 41 more bubbles; the tray menu sums up the day, a
// request an agent's own check blocked included, and starts again the
// next day.
func TestTray_RuleDecisionsBatchedAndSummed(t *testing.T) {
	addr := testkit.StartBus(t)
	fake := startFakeNotifications(t, addr)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	tr := newTray(test.NewTempApp(t), app.Env{Broker: b})
	now := time.Date(2026, 12, 5, 14, 0, 0, 0, time.Local)
	var flush []func()
	tr.clock = func() time.Time { return now }
	tr.after = func(d time.Duration, f func()) {
		if d == ruledWindow { // not the menu's rebuild, which tr.refresh below does
			flush = append(flush, f)
		}
	}
	n := newNotifier(slog.New(slog.DiscardHandler), nil, false)
	n.start()
	tr.note = n
	decide := func(i int, rule string, o question.Outcome) {
		q := question.Question{ID: fmt.Sprintf("q%d", i), Kind: question.KindApproval, Client: question.Client{Name: "claude-code"},
			Tool: "permission_request", Origin: question.OriginPermission, Action: "Bash", Message: "Bash",
			Input: json.RawMessage(fmt.Sprintf(`{"command":"npm test -- --shard=%d"}`, i))}
		tr.handle(question.Event{Type: question.EventEnded, Question: q,
			Result: &question.Result{Outcome: o, DecidedBy: question.ByRule, Reason: question.ReasonRule, RuleID: rule}})
	}
	for i := range 40 {
		decide(i, "r1", question.AutoApproved)
		now = now.Add(time.Second)
	}
	decide(40, "r2", question.AutoRejected)
	decide(41, "r2", question.AutoRejected)
	tr.handle(question.Event{Type: question.EventEnded, Question: question.Question{ID: "c1", Kind: question.KindApproval},
		Result: &question.Result{Outcome: question.AutoRejected, DecidedBy: question.ByAgent, Reason: question.ReasonAgentBlocked}})
	if len(flush) != 1 {
		t.Fatalf("%d windows opened, want 1", len(flush))
	}
	flush[0]()
	var shown []map[string]any
	for deadline := time.Now().Add(5 * time.Second); len(shown) < 2 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		fake.mu.Lock()
		shown = slices.Clone(fake.shown)
		fake.mu.Unlock()
	}
	n.close()
	fake.mu.Lock()
	shown = slices.Clone(fake.shown)
	fake.mu.Unlock()
	if len(shown) != 2 || shown[0]["summary"] != "Allowed by your rule" ||
		shown[1]["summary"] != "39 allowed and 2 denied by your rules in the last minute" ||
		!strings.Contains(shown[1]["body"].(string), "rule r1 39, rule r2 2") {
		t.Fatalf("notifications %v", shown)
	}
	tr.refresh()
	if it := findMenuItem(tr.menu, "Today: 40 allowed, 2 denied by rules · 1 blocked by agents' own checks"); it == nil ||
		it.ChildMenu == nil || it.ChildMenu.Items[0].Label != "By rule: rule r1 40, rule r2 2" {
		t.Fatalf("no day summary in the menu: %v", menuLabels(tr.menu))
	}
	now = now.Add(24 * time.Hour)
	decide(42, "r1", question.AutoApproved)
	tr.refresh()
	if findMenuItem(tr.menu, "Today: 1 allowed, 0 denied by rules") == nil {
		t.Fatalf("the next day does not start afresh: %v", menuLabels(tr.menu))
	}
}

func findMenuItem(m *fyne.Menu, label string) *fyne.MenuItem {
	for _, it := range m.Items {
		if it.Label == label {
			return it
		}
	}
	return nil
}

func menuLabels(m *fyne.Menu) []string {
	var out []string
	for _, it := range m.Items {
		out = append(out, it.Label)
	}
	return out
}

func TestNoteTextShowsInvisibleCharacters(t *testing.T) {
	q := question.Question{Kind: question.KindApproval, Client: question.Client{Name: "codex"}, Message: "ls \u202e; rm -rf ~ #\u202c"}
	if _, body := noteText(q); body != "ls ⟨U+202E⟩; rm -rf ~ #⟨U+202C⟩" {
		t.Fatalf("body %q", body)
	}
}

// TestTray_MuteARule is item 10's mute: the day's submenu ticks "Notify
// rule ID's decisions" for each rule that decided today; a click mutes it,
// saved with the rules, and its later decisions show no notification while
// the day's summary still counts them; another click unmutes it.
func TestTray_MuteARule(t *testing.T) {
	addr := testkit.StartBus(t)
	fake := startFakeNotifications(t, addr)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	path := filepath.Join(t.TempDir(), policy.File)
	pol, err := policy.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	rule, err := pol.Add(policy.Rule{Client: "claude-code", Action: "permission_request:Bash", Match: policy.MatchPrefix, Pattern: "npm test",
		Decision: policy.Allow, Scope: policy.ScopeAlways})
	if err != nil {
		t.Fatal(err)
	}
	b := question.NewBroker(question.Config{})
	defer b.Close()
	tr := newTray(test.NewTempApp(t), app.Env{Broker: b, Policy: pol})
	now := time.Date(2026, 12, 5, 14, 0, 0, 0, time.Local)
	tr.clock = func() time.Time { return now }
	tr.after = func(time.Duration, func()) {}
	n := newNotifier(slog.New(slog.DiscardHandler), nil, false)
	n.start()
	tr.note = n
	decide := func(i int) {
		q := question.Question{ID: fmt.Sprintf("q%d", i), Kind: question.KindApproval, Client: question.Client{Name: "claude-code"},
			Tool: "permission_request", Origin: question.OriginPermission, Action: "Bash", Message: "Bash",
			Input: json.RawMessage(fmt.Sprintf(`{"command":"npm test -- --run=%d"}`, i))}
		tr.handle(question.Event{Type: question.EventEnded, Question: q,
			Result: &question.Result{Outcome: question.AutoApproved, DecidedBy: question.ByRule, Reason: question.ReasonRule, RuleID: rule.ID}})
	}
	notify := func() *fyne.MenuItem {
		t.Helper()
		tr.refresh()
		for _, it := range tr.menu.Items {
			if it.ChildMenu == nil || !strings.HasPrefix(it.Label, "Today: ") {
				continue
			}
			for _, c := range it.ChildMenu.Items {
				if c.Label == "Notify rule "+rule.ID+"'s decisions" {
					return c
				}
			}
		}
		t.Fatalf("no mute item in the menu: %v", menuLabels(tr.menu))
		return nil
	}
	decide(1) // notified: the window opens
	if it := notify(); !it.Checked {
		t.Fatal("a rule's notifications start muted")
	} else {
		it.Action()
	}
	if r, _ := pol.Rule(rule.ID); !r.Quiet {
		t.Fatal("the rule is not muted")
	}
	if again, err := policy.Open(path); err != nil {
		t.Fatal(err)
	} else if r, _ := again.Rule(rule.ID); !r.Quiet {
		t.Fatal("the mute was not saved with the rules")
	}
	now = now.Add(2 * time.Minute) // a new window: it would notify at once
	decide(2)
	decide(3)
	if it := notify(); it.Checked {
		t.Fatal("a muted rule still ticked")
	}
	if findMenuItem(tr.menu, "Today: 3 allowed, 0 denied by rules") == nil {
		t.Fatalf("the day does not count a muted rule's decisions: %v", menuLabels(tr.menu))
	}
	notify().Action()
	now = now.Add(2 * time.Minute)
	decide(4)
	count := func() int { fake.mu.Lock(); defer fake.mu.Unlock(); return len(fake.shown) }
	for deadline := time.Now().Add(5 * time.Second); count() < 2 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
	}
	n.close() // joins the worker: nothing more is shown after
	fake.mu.Lock()
	shown := slices.Clone(fake.shown)
	fake.mu.Unlock()
	if len(shown) != 2 || !strings.Contains(shown[0]["body"].(string), "--run=1") || !strings.Contains(shown[1]["body"].(string), "--run=4") {
		t.Fatalf("notifications %v, want the decisions before the mute and after the unmute", shown)
	}
}

// TestTray_RuleDecisionsRebuildTheMenuOnceASecond is item 9 of issue 37
// for the tray menu: 30 rule decisions within a second rebuild it once
// (each rebuild sends the tray host about 60 D-Bus signals), and the
// rebuild that waited shows all 30; a new question within that second is
// in the menu at once.
func TestTray_RuleDecisionsRebuildTheMenuOnceASecond(t *testing.T) {
	b := question.NewBroker(question.Config{})
	defer b.Close()
	tr := newTray(test.NewTempApp(t), app.Env{Broker: b})
	now := time.Date(2026, 12, 5, 14, 0, 0, 0, time.Local)
	var due []func()
	var waits []time.Duration
	tr.clock = func() time.Time { return now }
	tr.after = func(d time.Duration, f func()) {
		if d != ruledWindow { // the batch's notification is another test's
			due, waits = append(due, f), append(waits, d)
		}
	}
	tr.refresh()
	built := tr.menuBuilds
	now = now.Add(time.Minute)
	for i := range 30 {
		q := question.Question{ID: fmt.Sprintf("q%d", i), Kind: question.KindApproval, Client: question.Client{Name: "busy-agent"},
			Tool: "request_approval", Action: "Run the tests", Message: "Run the tests"}
		tr.handle(question.Event{Type: question.EventEnded, Question: q,
			Result: &question.Result{Outcome: question.AutoApproved, DecidedBy: question.ByRule, Reason: question.ReasonRule, RuleID: "r1"}})
		now = now.Add(30 * time.Millisecond)
	}
	if got := tr.menuBuilds - built; got != 1 {
		t.Fatalf("30 rule decisions within a second rebuilt the menu %d times, want 1 (the first)", got)
	}
	if len(due) != 1 || waits[0] != menuEvery-30*time.Millisecond {
		t.Fatalf("%d rebuilds set to wait (%v), want 1 for the rest of the second", len(due), waits)
	}
	if findMenuItem(tr.menu, "Today: 1 allowed, 0 denied by rules") == nil {
		t.Fatalf("the first decision is not in the menu: %v", menuLabels(tr.menu))
	}

	// A question asked within the second is shown at once.
	if _, err := b.Ask(t.Context(), question.Question{Kind: question.KindApproval, Client: question.Client{Name: "codex"},
		Tool: "request_approval", Action: "Deploy", Message: "Deploy to production?"}); err != nil {
		t.Fatal(err)
	}
	tr.handle(question.Event{Type: question.EventAsked, Question: b.Pending()[0]})
	if got := tr.menuBuilds - built; got != 2 {
		t.Fatalf("a new question rebuilt the menu %d times in all, want 2", got)
	}
	if !slices.ContainsFunc(tr.menu.Items, func(it *fyne.MenuItem) bool { return strings.Contains(it.Label, "Deploy") }) {
		t.Fatalf("the new question is not in the menu: %v", menuLabels(tr.menu))
	}

	now = now.Add(time.Second)
	due[0]()
	if findMenuItem(tr.menu, "Today: 30 allowed, 0 denied by rules") == nil {
		t.Fatalf("the waiting rebuild does not show the 30 decisions: %v", menuLabels(tr.menu))
	}
	if len(due) != 1 {
		t.Fatalf("the waiting rebuild set %d more", len(due)-1)
	}
}
