package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/settings"
)

// TestSettingsWindow_RulesTabAddsARule: the Rules tab's Add rule… opens
// the rule dialog with the client and action to write (deny chosen until
// the person picks otherwise); a bad field is refused naming it, and a
// good rule goes into the policy and the list (issue 38 item 8: the tab
// could not add a rule).
func TestSettingsWindow_RulesTabAddsARule(t *testing.T) {
	a := test.NewTempApp(t)
	pol := tempPolicy(t)
	b := question.NewBroker(question.Config{Gate: pol.Gate})
	defer b.Close()
	tr := newTray(a, app.Env{Broker: b, Policy: pol})
	defer tr.followPolicy()()
	s := tr.settings
	s.Show()
	r := &s.rules
	if r.add == nil || r.add.Text != "Add rule…" {
		t.Fatal("no Add rule… button")
	}
	test.Tap(r.add)
	if r.editClient == nil || r.editAction == nil || r.editClient.Text != "*" || r.editDecision.Selected != string(policy.Deny) {
		t.Fatalf("new rule dialog: client %v action %v decision %q", r.editClient, r.editAction, r.editDecision.Selected)
	}
	test.Tap(r.editSave) // no action yet
	if !r.editErr.Visible() || !strings.Contains(strings.ToLower(r.editErr.Text), "action") || len(pol.Rules()) != 0 {
		t.Fatalf("an empty action: error %q, %d rules", r.editErr.Text, len(pol.Rules()))
	}
	r.editClient.SetText("claude-code")
	r.editAction.SetText("*:Bash")
	r.editMatch.SetSelected("command prefix")
	r.editPattern.SetText("npm test")
	r.editDecision.SetSelected(string(policy.Allow))
	r.editNote.SetText("tests are fine")
	test.Tap(r.editSave)
	rules := pol.Rules()
	if len(rules) != 1 {
		t.Fatalf("%d rules after Save: %q", len(rules), r.editErr.Text)
	}
	got := rules[0]
	if got.Client != "claude-code" || got.Action != "*:Bash" || got.Decision != policy.Allow || got.Match != policy.MatchPrefix ||
		got.Pattern != "npm test" || got.Scope != policy.ScopeAlways || got.Note != "tests are fine" {
		t.Fatalf("rule %+v", got)
	}
	if len(r.rows) != 1 || r.rows[0].rule.ID != got.ID {
		t.Fatalf("the list shows %d rows", len(r.rows))
	}
	// The rule decides: npm test in Claude Code's shell is allowed unasked.
	q := question.Question{Kind: question.KindApproval, Tool: "permission_request", Origin: question.OriginPermission,
		Client: question.Client{Name: "claude-code"}, Action: "Bash", Message: "Bash", Input: []byte(`{"command":"npm test"}`)}
	if ruling := pol.Judge(q); !ruling.Decided || ruling.Result.Outcome != question.AutoApproved {
		t.Fatalf("the added rule does not decide npm test: %+v", ruling)
	}
}

// TestParseAmount: the duration fields take a time in words as well as a
// number in their unit (issue 38 item 8: everything was in seconds or
// milliseconds); other fields a whole number only.
func TestParseAmount(t *testing.T) {
	for _, c := range []struct {
		text string
		unit time.Duration
		want int
	}{
		{"600", time.Second, 600}, {"10 min", time.Second, 600}, {"1h30m", time.Second, 5400},
		{"2 hours", time.Second, 7200}, {" 90 s ", time.Second, 90}, {"4 minutes", time.Second, 240},
		{"1.5 s", time.Millisecond, 1500}, {"500 ms", time.Millisecond, 500}, {"800", time.Millisecond, 800},
		{"30", 0, 30},
	} {
		if got, err := parseAmount(c.text, c.unit); err != nil || got != c.want {
			t.Errorf("parseAmount(%q, %v) = %d, %v; want %d", c.text, c.unit, got, err, c.want)
		}
	}
	for _, c := range []struct {
		text string
		unit time.Duration
	}{{"ten", time.Second}, {"10 min", 0}, {"", time.Second}} {
		if _, err := parseAmount(c.text, c.unit); err == nil {
			t.Errorf("parseAmount(%q, %v) took it", c.text, c.unit)
		}
	}
}

// TestSettingsWindow_RulesTabAddsAHostRule: Add rule… has a Host field
// (empty: any host); a bad host is refused naming the field, a good one
// scopes the rule to that remote host's agents, the row says so, and the
// Edit… dialog shows it (issue 36: a host rule could be made only from the
// dialog's Always… panel).
func TestSettingsWindow_RulesTabAddsAHostRule(t *testing.T) {
	a := test.NewTempApp(t)
	pol := tempPolicy(t)
	b := question.NewBroker(question.Config{Gate: pol.Gate})
	defer b.Close()
	tr := newTray(a, app.Env{Broker: b, Policy: pol})
	defer tr.followPolicy()()
	s := tr.settings
	s.Show()
	r := &s.rules
	test.Tap(r.add)
	if r.editHost == nil || r.editHost.Text != "" {
		t.Fatalf("no empty Host field in the new rule dialog: %v", r.editHost)
	}
	r.editAction.SetText("*:Bash")
	r.editDecision.SetSelected(string(policy.Allow))
	r.editHost.SetText(strings.Repeat("h", policy.MaxPattern+1))
	test.Tap(r.editSave)
	if !r.editErr.Visible() || !strings.Contains(strings.ToLower(r.editErr.Text), "host") || len(pol.Rules()) != 0 {
		t.Fatalf("an overlong host: error %q, %d rules", r.editErr.Text, len(pol.Rules()))
	}
	r.editHost.SetText(" build-01 ")
	test.Tap(r.editSave)
	rules := pol.Rules()
	if len(rules) != 1 || rules[0].Host != "build-01" {
		t.Fatalf("rules after Save: %+v (%q)", rules, r.editErr.Text)
	}
	if len(r.rows) != 1 || !strings.Contains(r.rows[0].matches.Text, "on build-01") {
		t.Fatalf("the row does not name the host: %+v", r.rows)
	}
	q := question.Question{Kind: question.KindApproval, Tool: "permission_request", Origin: question.OriginPermission,
		Client: question.Client{Name: "claude-code"}, Action: "Bash", Message: "Bash", Input: []byte(`{"command":"ls"}`)}
	if ruling := pol.Judge(q); ruling.Decided {
		t.Fatalf("a host rule decided a local question: %+v", ruling)
	}
	q.Host = "build-01"
	if ruling := pol.Judge(q); !ruling.Decided || ruling.Result.Outcome != question.AutoApproved {
		t.Fatalf("the host rule does not decide build-01's question: %+v", ruling)
	}
	test.Tap(r.rows[0].edit)
	if r.editHost.Text != "build-01" {
		t.Fatalf("Edit… shows host %q", r.editHost.Text)
	}
}

// TestSettingsWindow_WaitPerAgentRows: "Wait per agent" is a list a person
// edits row by row, not a "name = seconds" text area (issue 38 item 8):
// each saved agent a row with its time in words, Remove takes one out, Add
// agent adds an empty row, a row with a time but no name is refused naming
// the row, and Save keeps the rows in order.
func TestSettingsWindow_WaitPerAgentRows(t *testing.T) {
	a := test.NewTempApp(t)
	var saved []settings.Settings
	env := app.Env{Settings: settings.Settings{BlockingWindows: []settings.BlockingWindow{{Match: "cursor", Seconds: 240}, {Match: "claude-code", Seconds: 5400}}},
		ApplySettings: func(st settings.Settings) error { saved = append(saved, st); return st.Validate() }}
	s := newSettingsWindow(a, env, nil)
	s.Show()
	w := s.waits
	if len(w.rows) != 2 || w.rows[0].name.Text != "cursor" || w.rows[0].wait.Text != "4 min" || w.rows[1].wait.Text != "1 h 30 min" {
		t.Fatalf("loaded rows: %d", len(w.rows))
	}
	for _, l := range []string{labelTimeout, labelWindow, labelWindows, labelArmDelay} {
		if strings.Contains(l, "(") {
			t.Errorf("label %q still names a unit, though the field takes words", l)
		}
	}
	test.Tap(w.rows[0].remove)
	if len(w.rows) != 1 || w.rows[0].name.Text != "claude-code" || len(w.box.Objects) != 1 {
		t.Fatalf("after Remove: %d rows, %d shown", len(w.rows), len(w.box.Objects))
	}
	test.Tap(w.add)
	if len(w.rows) != 2 || w.rows[1].name.Text != "" || len(w.box.Objects) != 2 {
		t.Fatalf("after Add agent: %d rows", len(w.rows))
	}
	w.rows[1].wait.SetText("90 s")
	test.Tap(s.save)
	if len(saved) != 0 || !strings.Contains(s.status.Text, "Wait per agent, row 2") || !strings.Contains(s.status.Text, "name") {
		t.Fatalf("a row without a name: status %q, saved %d", s.status.Text, len(saved))
	}
	test.Type(w.rows[1].name, "codex")
	test.Tap(s.save)
	if len(saved) != 1 {
		t.Fatalf("not saved: %q", s.status.Text)
	}
	want := []settings.BlockingWindow{{Match: "claude-code", Seconds: 5400}, {Match: "codex", Seconds: 90}}
	if got := saved[0].BlockingWindows; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("saved %+v, want %+v", got, want)
	}
}

// TestAmountWords: a saved duration shows in the words its field takes,
// and reads back to the same amount.
func TestAmountWords(t *testing.T) {
	for _, c := range []struct {
		n    int
		unit time.Duration
		want string
	}{
		{600, time.Second, "10 min"}, {5400, time.Second, "1 h 30 min"}, {270, time.Second, "4 min 30 s"}, {55, time.Second, "55 s"},
		{86400, time.Second, "24 h"}, {500, time.Millisecond, "500 ms"}, {1500, time.Millisecond, "1500 ms"}, {2000, time.Millisecond, "2 s"},
	} {
		got := amountWords(c.n, c.unit)
		if got != c.want {
			t.Errorf("amountWords(%d, %v) = %q, want %q", c.n, c.unit, got, c.want)
		}
		if back, err := parseAmount(got, c.unit); err != nil || back != c.n {
			t.Errorf("parseAmount(%q) = %d, %v; want %d", got, back, err, c.n)
		}
	}
}
