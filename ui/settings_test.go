package ui

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/question"
)

func TestSettingsWindow_SaveAppliesAndRefusesBadInput(t *testing.T) {
	a := test.NewTempApp(t)
	var saved []app.Settings
	var applied []app.Settings
	env := app.Env{Settings: app.Settings{DefaultTimeoutSeconds: 600}, ApplySettings: func(s app.Settings) error {
		if err := s.Validate(); err != nil {
			return err
		}
		saved = append(saved, s)
		return nil
	}}
	s := newSettingsWindow(a, env, func(st app.Settings) { applied = append(applied, st) })
	s.Show()
	if s.timeout.Text != "600" || s.armDelay.Text != "500" || s.retention.Text != "0" {
		t.Fatalf("loaded %q %q %q", s.timeout.Text, s.armDelay.Text, s.retention.Text)
	}
	s.timeout.SetText("")
	test.Type(s.timeout, "120")
	s.windows.SetText("cursor = 240\n\nclaude-code=900")
	s.armDelay.SetText("800")
	test.Tap(s.sound)
	s.retention.SetText("30")
	test.Tap(s.save)
	if len(saved) != 1 || len(applied) != 1 {
		t.Fatalf("saved %d applied %d: %s", len(saved), len(applied), s.status.Text)
	}
	got := saved[0]
	if got.DefaultTimeoutSeconds != 120 || got.ArmDelayMS != 800 || !got.NotificationSound || got.HistoryRetentionDays != 30 ||
		len(got.BlockingWindows) != 2 || got.BlockingWindows[1] != (app.BlockingWindow{Match: "claude-code", Seconds: 900}) {
		t.Fatalf("saved %+v", got)
	}
	// Bad input is refused with the field and the limit, and nothing is saved.
	for _, tc := range []struct {
		set  func()
		want string
	}{
		{func() { s.armDelay.SetText("100") }, "arm_delay_ms: must be between 300 and 5000"},
		{func() { s.armDelay.SetText("800"); s.timeout.SetText("ten") }, `Default deadline: "ten" is not a whole number`},
		{func() { s.timeout.SetText("120"); s.windows.SetText("cursor 240") }, "Per-client windows, line 1"},
	} {
		tc.set()
		test.Tap(s.save)
		if !strings.Contains(s.status.Text, tc.want) || len(saved) != 1 {
			t.Errorf("status %q, want %q (saved %d)", s.status.Text, tc.want, len(saved))
		}
	}
	// A failing save says so.
	s.windows.SetText("")
	s.env.ApplySettings = func(app.Settings) error { return errors.New("disk full") }
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
	var saved []app.Settings
	regenerated := 0
	env := app.Env{Broker: b, DataDir: "/data",
		Endpoint: func() (string, string) { return url, tok },
		ApplySettings: func(s app.Settings) error {
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
	for name, got := range map[string]string{"status": s.status.Text, "info": s.info.Text, "status window": tr.statusURL.Text, "connect": tr.connect.text.Text} {
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
	if !strings.Contains(tr.connect.text.Text, tok) || strings.Contains(tr.connect.text.Text, strings.Repeat("a", 64)) {
		t.Fatalf("connect window still shows the old token: %q", tr.connect.text.Text)
	}
}
