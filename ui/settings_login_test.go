package ui

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/settings"
)

// TestSettingsWindow_StartAtLogin: the checkbox shows the setting, a tap
// and Save apply it, and a refusal (here: a platform the app cannot do it
// on) is shown and leaves the saved settings as they were.
func TestSettingsWindow_StartAtLogin(t *testing.T) {
	a := test.NewTempApp(t)
	var saved []settings.Settings
	refuse := false
	env := app.Env{Settings: settings.Settings{StartAtLogin: true}, ApplySettings: func(s settings.Settings) error {
		if refuse && s.StartAtLogin {
			return errors.New("start_at_login: not supported here yet: see the README")
		}
		saved = append(saved, s)
		return nil
	}}
	s := newSettingsWindow(a, env, nil)
	s.Show()
	if !s.startAtLogin.Checked {
		t.Fatal("checkbox does not show start_at_login")
	}
	test.Tap(s.startAtLogin)
	test.Tap(s.save)
	if len(saved) != 1 || saved[0].StartAtLogin {
		t.Fatalf("saved %+v (status %q)", saved, s.status.Text)
	}
	refuse = true
	test.Tap(s.startAtLogin)
	test.Tap(s.save)
	if len(saved) != 1 || !strings.Contains(s.status.Text, "Not saved: start_at_login: not supported here yet") {
		t.Fatalf("saved %d, status %q", len(saved), s.status.Text)
	}
	// Reopening shows what was saved last, not the refused choice.
	s.win.Hide()
	s.Show()
	if s.startAtLogin.Checked {
		t.Fatal("reopened window shows the refused choice")
	}
}
