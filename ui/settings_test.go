package ui

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app"
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
	if s.ask.Selected != "desktop" {
		t.Fatalf("ask mode shows %q", s.ask.Selected)
	}
	s.ask.SetSelected("auto")
	test.Tap(s.save)
	if len(saved) != 1 || len(applied) != 1 {
		t.Fatalf("saved %d applied %d: %s", len(saved), len(applied), s.status.Text)
	}
	got := saved[0]
	if got.AskMode != "auto" {
		t.Fatalf("saved ask_mode %q", got.AskMode)
	}
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
