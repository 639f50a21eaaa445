package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/settings"
)

func TestSettingsWindow_SaveAppliesAndRefusesBadInput(t *testing.T) {
	a := test.NewTempApp(t)
	var saved []settings.Settings
	var applied []settings.Settings
	env := app.Env{Settings: settings.Settings{DefaultTimeoutSeconds: 600}, ApplySettings: func(s settings.Settings) error {
		if err := s.Validate(); err != nil {
			return err
		}
		saved = append(saved, s)
		return nil
	}}
	s := newSettingsWindow(a, env, func(st settings.Settings) error { applied = append(applied, st); return nil })
	s.Show()
	if s.timeout.Text != "10 min" || s.armDelay.Text != "500 ms" || s.retention.Text != "0" {
		t.Fatalf("loaded %q %q %q", s.timeout.Text, s.armDelay.Text, s.retention.Text)
	}
	s.timeout.SetText("")
	test.Type(s.timeout, "120")
	s.waits.addRow("cursor", "240")
	s.waits.addRow("", "") // an empty row is dropped
	s.waits.addRow("claude-code", "15 min")
	s.armDelay.SetText("800")
	test.Tap(s.sound)
	test.Tap(s.askUserQuestion)
	s.retention.SetText("30")
	if s.askIn.Selected != askModeLabel("desktop") {
		t.Fatalf("ask mode shows %q", s.askIn.Selected)
	}
	s.askIn.SetSelected(askModeLabel("auto"))
	test.Tap(s.save)
	if len(saved) != 1 || len(applied) != 1 {
		t.Fatalf("saved %d applied %d: %s", len(saved), len(applied), s.status.Text)
	}
	got := saved[0]
	if got.AskMode != "auto" {
		t.Fatalf("saved ask_mode %q", got.AskMode)
	}
	if got.DefaultTimeoutSeconds != 120 || got.ArmDelayMS != 800 || !got.NotificationSound || got.AskUserQuestionOn() || // on by default: the tap turned it off
		got.HistoryRetentionDays != 30 ||
		len(got.BlockingWindows) != 2 || got.BlockingWindows[1] != (settings.BlockingWindow{Match: "claude-code", Seconds: 900}) {
		t.Fatalf("saved %+v", got)
	}
	// Bad input is refused with the field and the limit, and nothing is saved.
	for _, tc := range []struct {
		set  func()
		want string
	}{
		{func() { s.armDelay.SetText("100") }, "arm_delay_ms: must be between 300 and 5000"},
		{func() { s.armDelay.SetText("800"); s.timeout.SetText("ten") }, `Time to answer: "ten" is neither a number of seconds nor a time such as 10 min, 1 h or 90 s`},
		{func() { s.timeout.SetText("120"); s.waits.rows[0].wait.SetText("soon") }, `Wait per agent, row 1 (cursor): "soon" is neither`},
	} {
		tc.set()
		test.Tap(s.save)
		if !strings.Contains(s.status.Text, tc.want) || len(saved) != 1 {
			t.Errorf("status %q, want %q (saved %d)", s.status.Text, tc.want, len(saved))
		}
	}
	// A failing save says so.
	s.waits.load(nil)
	s.env.ApplySettings = func(settings.Settings) error { return errors.New("disk full") }
	test.Tap(s.save)
	if !strings.Contains(s.status.Text, "disk full") {
		t.Fatalf("status %q", s.status.Text)
	}
}

// TestSettingsWindow_PortMoveAndTokenRegeneration taps through moving the
// MCP port and regenerating the token: each asks first (Cancel does
// nothing), and after confirming, the settings window, the Connect window
// and the status window show the new URL and token.
func TestSettingsWindow_PortMoveAndTokenRegeneration(t *testing.T) {
	a := test.NewTempApp(t)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	url, tok := "http://127.0.0.1:7931/mcp", strings.Repeat("a", 64)
	var saved []settings.Settings
	regenerated := 0
	env := app.Env{Broker: b, DataDir: "/data",
		Endpoint: func() (string, string) { return url, tok },
		ApplySettings: func(s settings.Settings) error {
			if err := s.Validate(); err != nil {
				return err
			}
			saved = append(saved, s)
			url = "http://" + s.MCPAddr() + "/mcp"
			return nil
		},
		RegenerateToken: func() (string, error) {
			regenerated++
			tok = strings.Repeat("b", 64)
			return tok, nil
		}}
	tr := newTray(a, env)
	tr.connect.Show()
	tr.showStatus()
	s := tr.settings
	s.Show()
	if s.port.Text != "7931" || !strings.Contains(s.info.Text, "127.0.0.1:7931") {
		t.Fatalf("port %q info %q", s.port.Text, s.info.Text)
	}

	// Saving with the port unchanged saves at once and stores the default as 0.
	test.Tap(s.save)
	if len(saved) != 1 || saved[0].MCPPort != 0 || s.confirm != nil {
		t.Fatalf("saved %+v, confirm %v", saved, s.confirm)
	}
	s.port.SetText("80")
	test.Tap(s.save)
	if !strings.Contains(s.status.Text, "mcp_port: must be between 1024 and 65535") || len(saved) != 1 {
		t.Fatalf("port 80: %q", s.status.Text)
	}

	// A new port asks first; Cancel leaves everything as it was.
	s.port.SetText("8123")
	test.Tap(s.save)
	if s.confirm == nil || !strings.Contains(s.confirmText.Text, "moves to port 8123") || !strings.Contains(s.confirmText.Text, "asktray config CLIENT --write") {
		t.Fatalf("no confirmation for the move: %v", s.confirmText)
	}
	test.Tap(s.confirmCancel)
	if len(saved) != 1 {
		t.Fatalf("cancelled move saved %+v", saved)
	}
	test.Tap(s.save)
	test.Tap(s.confirmOK)
	if len(saved) != 2 || saved[1].MCPPort != 8123 {
		t.Fatalf("saved %+v", saved)
	}
	for name, got := range map[string]string{"status": s.status.Text, "info": s.info.Text, "status window": tr.status.url.Text, "connect": tr.connect.text.Text} {
		if !strings.Contains(got, "127.0.0.1:8123") {
			t.Errorf("%s shows %q, want the new port", name, got)
		}
	}

	// Regenerating the token asks first and warns that clients must be set up again.
	test.Tap(s.regenerate)
	if !strings.Contains(s.confirmText.Text, "asktray config CLIENT --write") || !strings.Contains(s.confirmText.Text, "refused") {
		t.Fatalf("confirmation %q", s.confirmText.Text)
	}
	test.Tap(s.confirmCancel)
	if regenerated != 0 {
		t.Fatal("cancel regenerated the token")
	}
	test.Tap(s.regenerate)
	test.Tap(s.confirmOK)
	if regenerated != 1 || !strings.Contains(s.status.Text, "New token in use") {
		t.Fatalf("regenerated %d, status %q", regenerated, s.status.Text)
	}
	if !strings.Contains(tr.connect.shown, tok) || strings.Contains(tr.connect.shown, strings.Repeat("a", 64)) {
		t.Fatalf("connect window still has the old token: %q", tr.connect.shown)
	}
	if strings.Contains(tr.connect.text.Text, tok) {
		t.Fatalf("connect window shows the new token in clear: %q", tr.connect.text.Text)
	}
}

// TestSettingsWindow_RulesTabAndAwayMode lists the policy's rules, follows
// changes made elsewhere (a dialog, 'asktray rules rm'), edits and removes
// a rule by tapping, and saves the away behaviour.
func TestSettingsWindow_RulesTabAndAwayMode(t *testing.T) {
	a := test.NewTempApp(t)
	pol := tempPolicy(t)
	b := question.NewBroker(question.Config{Gate: pol.Gate})
	defer b.Close()
	var saved []settings.Settings
	env := app.Env{Broker: b, Policy: pol, Settings: settings.Settings{AwayMode: policy.AwayReject},
		ApplySettings: func(s settings.Settings) error { saved = append(saved, s); return nil }}
	tr := newTray(a, env)
	defer tr.followPolicy()()
	expires := time.Now().Add(48 * time.Hour).Truncate(time.Minute)
	first, err := pol.Add(policy.Rule{Client: "claude-code", Action: "request_approval:Deploy to staging", Decision: policy.Allow,
		Scope: policy.ScopeSession, SessionID: "4f2a9c1e-77b0-4d55-9a1c-0c5e7d2f1b3a", Expires: expires})
	if err != nil {
		t.Fatal(err)
	}
	s := tr.settings
	s.Show()
	if s.awayMode.Selected != awayReject {
		t.Fatalf("away mode shows %q", s.awayMode.Selected)
	}
	rows := s.rules.rows
	if len(rows) != 1 || rows[0].title.Text != "Allow  ·  approval requests “Deploy to staging” from claude-code" ||
		!strings.Contains(rows[0].facts.Text, "action request_approval:Deploy to staging") ||
		!strings.Contains(rows[0].facts.Text, "this session only (session 4f2a9c1e…)") ||
		!strings.Contains(rows[0].facts.Text, "expires "+expires.Format(expiresLayout)) || !s.rules.empty.Hidden {
		t.Fatalf("rows: %q / %q / empty hidden %v", rows[0].title.Text, rows[0].facts.Text, s.rules.empty.Hidden)
	}
	// A rule made elsewhere shows at once; one removed elsewhere goes.
	second, err := pol.Add(policy.Rule{Client: "*", Action: "permission_prompt:Bash", Decision: policy.Deny, Scope: policy.ScopeAlways, Note: "no shell"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.rules.rows) != 2 || !strings.Contains(s.rules.rows[1].facts.Text, "note: no shell") || s.rules.rows[1].title.Importance != widget.DangerImportance {
		t.Fatalf("after Add: %d rows", len(s.rules.rows))
	}
	if err := pol.Remove(first.ID); err != nil {
		t.Fatal(err)
	}
	if len(s.rules.rows) != 1 || s.rules.rows[0].rule.ID != second.ID {
		t.Fatalf("after Remove: %d rows", len(s.rules.rows))
	}

	// Edit: a bad expiry is refused, then decision, expiry and note change.
	test.Tap(s.rules.rows[0].edit)
	s.rules.editExpires.SetText("tomorrow")
	test.Tap(s.rules.editSave)
	if !strings.Contains(s.rules.editErr.Text, "Expires: write 2006-01-02 15:04") {
		t.Fatalf("bad expiry: %q", s.rules.editErr.Text)
	}
	// The rule for every Bash command is flagged; the edit narrows it to a
	// command prefix in one project.
	if m := s.rules.rows[0].matches; m.Text != "Matches ⚠ every Bash command" || m.Importance != widget.WarningImportance {
		t.Fatalf("whole-tool rule shown as %q (%v)", m.Text, m.Importance)
	}
	s.rules.editDecision.SetSelected("allow")
	s.rules.editExpires.SetText("2030-01-02 03:04")
	s.rules.editNote.SetText("read-only commands are fine")
	s.rules.editMatch.SetSelected("command prefix")
	s.rules.editPattern.SetText("git status")
	s.rules.editCwd.SetText("/home/u/app")
	test.Tap(s.rules.editSave)
	got, _ := pol.Rule(second.ID)
	if got.Decision != policy.Allow || got.Note != "read-only commands are fine" ||
		!got.Expires.Equal(time.Date(2030, 1, 2, 3, 4, 0, 0, time.Local)) || got.Match != policy.MatchPrefix || got.Pattern != "git status" || got.Cwd != "/home/u/app" {
		t.Fatalf("edited %+v (%s)", got, s.rules.editErr.Text)
	}
	if m := s.rules.rows[0].matches; m.Text != "Matches commands starting “git status” in /home/u/app" || m.Importance == widget.WarningImportance {
		t.Fatalf("narrowed rule shown as %q", m.Text)
	}
	if !strings.Contains(s.rules.rows[0].facts.Text, "expires 2030-01-02 03:04") {
		t.Fatalf("row after edit %q", s.rules.rows[0].facts.Text)
	}
	test.Tap(s.rules.rows[0].remove)
	if len(pol.Rules()) != 0 || len(s.rules.rows) != 0 || s.rules.empty.Hidden {
		t.Fatalf("after remove: %d rules, %d rows", len(pol.Rules()), len(s.rules.rows))
	}

	// The away behaviour is saved as away_mode.
	s.awayMode.SetSelected(awayHold)
	test.Tap(s.save)
	if len(saved) != 1 || saved[0].AwayMode != "" {
		t.Fatalf("saved %+v", saved)
	}
	s.awayMode.SetSelected(awayReject)
	test.Tap(s.save)
	if len(saved) != 2 || saved[1].AwayMode != policy.AwayReject {
		t.Fatalf("saved %+v", saved)
	}
	s.awayMode.SetSelected(awayHandback)
	test.Tap(s.save)
	if len(saved) != 3 || saved[2].AwayMode != policy.AwayHandback {
		t.Fatalf("saved %+v", saved)
	}
}

// TestSettingsWindow_AddrOverrideExplained: started with --addr, the
// server listens on another port than the saved one. The port field shows
// the port it listens on, with "configured 7931, listening on 41234" next
// to it and the reason under the form; saving the field as it is keeps the
// saved port (nothing moves), and a port typed in moves the server.
func TestSettingsWindow_AddrOverrideExplained(t *testing.T) {
	a := test.NewTempApp(t)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	url := "http://127.0.0.1:41234/mcp"
	var saved []settings.Settings
	env := app.Env{Broker: b, DataDir: "/data", Endpoint: func() (string, string) { return url, "t" },
		ApplySettings: func(s settings.Settings) error {
			saved = append(saved, s)
			if s.MCPPort != 0 {
				url = "http://" + s.MCPAddr() + "/mcp"
			}
			return nil
		}}
	s := newTray(a, env).settings
	s.Show()
	if s.port.Text != "41234" || s.portNote.Hidden || s.portNote.Text != "configured 7931, listening on 41234" ||
		!strings.Contains(s.info.Text, "listens on port 41234 because asktray was started with --addr") ||
		!strings.Contains(s.info.Text, "127.0.0.1:41234") {
		t.Fatalf("port %q, note %q (hidden %v), info %q", s.port.Text, s.portNote.Text, s.portNote.Hidden, s.info.Text)
	}
	// Saved as shown, the port setting stays as it was and nothing asks to move.
	test.Tap(s.save)
	if s.confirm != nil || len(saved) != 1 || saved[0].MCPPort != 0 || s.port.Text != "41234" {
		t.Fatalf("saved %+v, confirm %v, port %q", saved, s.confirm, s.port.Text)
	}
	// A port typed in is a move from where the server listens.
	s.port.SetText("8123")
	test.Tap(s.save)
	if s.confirm == nil || !strings.Contains(s.confirmText.Text, "moves to port 8123") || !strings.Contains(s.confirmText.Text, "set up for port 41234") {
		t.Fatalf("move confirmation %v", s.confirmText)
	}
	test.Tap(s.confirmOK)
	if len(saved) != 2 || saved[1].MCPPort != 8123 || s.port.Text != "8123" || !s.portNote.Hidden || strings.Contains(s.info.Text, "--addr") {
		t.Fatalf("after the move: saved %+v, port %q, note %q (hidden %v), info %q", saved, s.port.Text, s.portNote.Text, s.portNote.Hidden, s.info.Text)
	}
}
