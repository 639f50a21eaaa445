package ui

import (
	"image/png"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/settings"
)

// TestSettingsWindow_AwayEveryWeek: the weekly away schedule is typed in a
// person's words under "Away every week", read back as the app
// understands it while typing; words it cannot read are refused on Save
// naming the field, nothing saved; a good one is saved as written
// (away_schedule) and applied to the policy, whose away the tray follows:
// "every day" is away now, and removing it brings the tray back
// (issue 38 item 8). docs/screenshots/settings-away.png with
// ASKTRAY_SCREENSHOTS=1.
func TestSettingsWindow_AwayEveryWeek(t *testing.T) {
	a := test.NewTempApp(t)
	useAppTheme(a) // its screenshot in the app's theme
	pol := tempPolicy(t)
	b := question.NewBroker(question.Config{Gate: pol.Gate})
	defer b.Close()
	var saved []settings.Settings
	env := app.Env{Broker: b, Policy: pol, Log: slog.New(slog.DiscardHandler), Settings: settings.Settings{AwaySchedule: "weekends"},
		Endpoint: func() (string, string) { return "http://127.0.0.1:7931/mcp", "" },
		ApplySettings: func(st settings.Settings) error {
			saved = append(saved, st)
			pol.SetAwaySchedule(st.Schedule())
			return nil
		}}
	tr := newTray(a, env)
	defer tr.followPolicy()()
	s := tr.settings
	s.Show()
	w := s.awayWeekly
	if w.entry.Text != "weekends" || w.reads.Text != "Away every week: Sat, Sun all day." {
		t.Fatalf("loaded %q, reads %q", w.entry.Text, w.reads.Text)
	}

	w.entry.SetText("")
	test.Type(w.entry, "weekdays after 18:00, weekends")
	if w.reads.Text != "Away every week: Mon–Fri 18:00–24:00; Sat, Sun all day." || w.reads.Importance == widget.DangerImportance {
		t.Fatalf("typed, reads %q", w.reads.Text)
	}
	test.Type(w.entry, ", mon at 6")
	if !strings.HasPrefix(w.reads.Text, `Not understood: "mon at 6": "at 6" is not a time of day`) || w.reads.Importance != widget.DangerImportance {
		t.Fatalf("bad words read %q (%v)", w.reads.Text, w.reads.Importance)
	}
	test.Tap(s.save)
	if len(saved) != 0 || !strings.HasPrefix(s.status.Text, `Not saved: Away every week: "mon at 6"`) {
		t.Fatalf("saved %d, status %q", len(saved), s.status.Text)
	}

	w.entry.SetText("weekdays after 18:00, weekends")
	test.Tap(s.save)
	if len(saved) != 1 || saved[0].AwaySchedule != "weekdays after 18:00, weekends" ||
		pol.AwaySchedule().Describe() != "Mon–Fri 18:00–24:00; Sat, Sun all day" {
		t.Fatalf("saved %+v, the policy's schedule %q", saved, pol.AwaySchedule().Describe())
	}
	if tr.awayTimer == nil && !pol.Away() {
		t.Fatal("no timer for the schedule's next stretch")
	}
	if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir == "1" {
		s.win.Resize(fyne.NewSize(760, 1350))
		f, err := os.Create(filepath.Join("..", "docs", "screenshots", "settings-away.png"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := png.Encode(f, s.win.Canvas().Capture()); err != nil {
			t.Fatal(err)
		}
	}

	// Every day is away now, by the same policy the tray follows.
	w.entry.SetText("every day")
	test.Tap(s.save) // the policy tells the tray at once (fyne.Do runs in place under the test driver)
	if !tr.away || !pol.Away() || !strings.Contains(tr.tooltip(0, 0), "(away)") {
		t.Fatalf("every day: away %v, tooltip %q", pol.Away(), tr.tooltip(0, 0))
	}
	w.entry.SetText("")
	test.Tap(s.save)
	if tr.away || saved[len(saved)-1].AwaySchedule != "" || pol.Away() || w.reads.Text != "No weekly schedule: away only when you switch it on." {
		t.Fatalf("emptied: saved %q, away %v, reads %q", saved[len(saved)-1].AwaySchedule, pol.Away(), w.reads.Text)
	}
}
