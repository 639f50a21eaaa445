package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/settings"
	"github.com/asktray/asktray/ui/internal/globalkey"
	"github.com/asktray/asktray/ui/internal/portalkey"
)

// fakeGrab replaces grabKey: it records each grab and release, refuses a
// chord in taken, and returns the press of the chord held last.
type fakeGrab struct {
	log   []string
	taken map[string]bool
	press func()
}

func useFakeGrab(t *testing.T) *fakeGrab {
	t.Helper()
	f := &fakeGrab{taken: map[string]bool{}}
	old := grabKey
	t.Cleanup(func() { grabKey = old })
	grabKey = func(c globalkey.Chord, fn func()) (func(), error) {
		if f.taken[c.String()] {
			return nil, fmt.Errorf("global shortcut %s: %w", c, globalkey.ErrTaken)
		}
		f.log = append(f.log, "grab "+c.String())
		f.press = fn
		return func() { f.log = append(f.log, "release "+c.String()) }, nil
	}
	return f
}

// TestShortcut_SettingsGrabAndRelease: the shortcut is off by default (no
// grab); saving "ctrl+alt+q" in Settings stores it as Ctrl+Alt+Q and grabs
// it; a chord another program holds is saved with a warning that says so;
// clearing the field releases the grab; a bad chord is refused naming the
// field.
func TestShortcut_SettingsGrabAndRelease(t *testing.T) {
	f := useFakeGrab(t)
	a := test.NewTempApp(t)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	var saved []settings.Settings
	env := app.Env{Broker: b, Endpoint: func() (string, string) { return "", "" }, ApplySettings: func(s settings.Settings) error {
		if err := s.Validate(); err != nil {
			return err
		}
		saved = append(saved, s)
		return nil
	}}
	tr := newTray(a, env)
	if err := tr.setShortcut(env.Settings.GlobalShortcut); err != nil || len(f.log) != 0 {
		t.Fatalf("off by default: %v %q", err, f.log)
	}
	s := tr.settings
	s.Show()
	if s.shortcut.Text != "" || s.shortcut.PlaceHolder == "" {
		t.Fatalf("the field shows %q (placeholder %q)", s.shortcut.Text, s.shortcut.PlaceHolder)
	}
	save := func(text string) string {
		t.Helper()
		s.shortcut.SetText(text)
		test.Tap(s.save)
		return s.status.Text
	}
	if got := save("ctrl+alt+q"); !strings.HasPrefix(got, "Saved and applied") || saved[len(saved)-1].GlobalShortcut != "Ctrl+Alt+Q" {
		t.Fatalf("saved %+v: %q", saved, got)
	}
	f.taken["Ctrl+Alt+a"] = true
	if got := save("Ctrl+Alt+A"); !strings.Contains(got, "Saved, but the shortcut Ctrl+Alt+A does not work") || !strings.Contains(got, "another program holds") {
		t.Fatalf("a taken chord: %q", got)
	}
	if got := save(""); !strings.HasPrefix(got, "Saved and applied") || saved[len(saved)-1].GlobalShortcut != "" {
		t.Fatalf("cleared: %q", got)
	}
	n := len(saved)
	if got := save("Shift+Q"); !strings.Contains(got, "Not saved: "+labelShortcut) || len(saved) != n {
		t.Fatalf("a bad chord: %q", got)
	}
	if want := []string{"grab Ctrl+Alt+q", "release Ctrl+Alt+q"}; strings.Join(f.log, ",") != strings.Join(want, ",") {
		t.Fatalf("grabs %q, want %q", f.log, want)
	}
}

// TestShortcut_FrontBringsTheQuestion: a press opens the oldest pending
// question the person can see (never a notice or a snoozed one), and with
// none pending the status window.
func TestShortcut_FrontBringsTheQuestion(t *testing.T) {
	f := useFakeGrab(t)
	a := test.NewTempApp(t)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	tr := newTray(a, app.Env{Broker: b, Endpoint: func() (string, string) { return "", "" }})
	var opened []string
	tr.open = func(id string) { opened = append(opened, id) }
	if err := tr.setShortcut("Ctrl+Alt+Q"); err != nil {
		t.Fatal(err)
	}
	f.press() // nothing pending
	if tr.status == nil || len(opened) != 0 {
		t.Fatalf("with nothing pending: status %v, opened %v", tr.status != nil, opened)
	}
	ask(t, b, question.Question{Kind: question.KindNotice, Client: question.Client{Name: "codex"}, Message: "Build done"})
	q := ask(t, b, question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "claude-code"}, Message: "Deploy?"})
	f.press()
	if len(opened) != 1 || opened[0] != q.ID {
		t.Fatalf("opened %v, want %s", opened, q.ID)
	}
	if err := tr.setShortcut("Ctrl+Alt+Q"); err != nil || len(f.log) != 1 {
		t.Fatalf("the same chord again grabs again: %v %q", err, f.log)
	}
	if err := tr.setShortcut("Ctrl+Alt+"); err == nil || !strings.HasPrefix(err.Error(), "global_shortcut: ") {
		t.Fatalf("a bad chord: %v", err)
	}
}

// TestShortcut_WaylandBindsThroughThePortal: in a Wayland session the
// chord goes to the desktop portal (as CTRL+ALT+q) and no X grab is made;
// its activation brings the question; a new chord lets the binding go, and
// a portal without GlobalShortcuts falls back to the X grab.
func TestShortcut_WaylandBindsThroughThePortal(t *testing.T) {
	f := useFakeGrab(t)
	t.Setenv("WAYLAND_DISPLAY", "wayland-0")
	var asked []string
	released := 0
	fail := false
	old := bindPortal
	t.Cleanup(func() { bindPortal = old })
	bindPortal = func(c globalkey.Chord, fn func()) (func(), string, error) {
		asked = append(asked, portalTrigger(c))
		if fail {
			return nil, "", portalkey.ErrNoPortal
		}
		f.press = fn
		return func() { released++ }, "Ctrl+Alt+Q", nil
	}
	a := test.NewTempApp(t)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	tr := newTray(a, app.Env{Broker: b, Endpoint: func() (string, string) { return "", "" }})
	var opened []string
	tr.open = func(id string) { opened = append(opened, id) }
	done := make(chan struct{}, 4)
	tr.portalDone = func() { done <- struct{}{} }
	wait := func() {
		t.Helper()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("the portal binding did not end")
		}
	}
	if err := tr.setShortcut("Ctrl+Alt+Q"); err != nil {
		t.Fatal(err)
	}
	wait()
	q := ask(t, b, question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "claude-code"}, Message: "Deploy?"})
	f.press()
	if len(asked) != 1 || asked[0] != "CTRL+ALT+q" || len(f.log) != 0 || len(opened) != 1 || opened[0] != q.ID {
		t.Fatalf("asked %q, X grabs %q, opened %v", asked, f.log, opened)
	}
	fail = true
	if err := tr.setShortcut("Super+F9"); err != nil {
		t.Fatal(err)
	}
	wait()
	if released != 1 || len(asked) != 2 || asked[1] != "LOGO+F9" || strings.Join(f.log, ",") != "grab Super+F9" {
		t.Fatalf("released %d, asked %q, X grabs %q", released, asked, f.log)
	}
}
