package ui

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/godbus/dbus/v5"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

// buttonLabels lists the texts of every button laid out in o.
func buttonLabels(o fyne.CanvasObject) map[string]*widget.Button {
	out := map[string]*widget.Button{}
	for _, c := range test.LaidOutObjects(o) {
		if b, ok := c.(*widget.Button); ok && b.Visible() {
			out[b.Text] = b
		}
	}
	return out
}

// TestStatusWindow_CompleteHome: without a tray icon the status window is
// the app's home (issue 37 item 1): it lists each pending question (a tap
// opens its dialog) and holds Away, History, Settings, Connect, Copy MCP
// URL and Quit; with no tray host it says how to get one, and the hint
// goes once a host comes.
func TestStatusWindow_CompleteHome(t *testing.T) {
	t.Setenv("XDG_CURRENT_DESKTOP", "GNOME")
	a := test.NewTempApp(t)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	tr := newTray(a, app.Env{Broker: b, Log: slog.New(slog.DiscardHandler), Endpoint: func() (string, string) { return "http://127.0.0.1:7931/mcp", "" }, DataDir: "/data"})
	var opened []string
	tr.open = func(id string) { opened = append(opened, id) }
	tr.install()
	q := ask(t, b, question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "claude-code"}, Message: "Delete the build directory?"})
	tr.refresh()
	tr.hostGrace = time.Hour // the test tells by hand (noTrayHost) below
	tr.trayHostChanged(false)
	if tr.status != nil {
		t.Fatal("the status window opened before the grace for a late tray host")
	}
	tr.noTrayHost()
	if tr.status == nil || !tr.status.hint.Visible() || !strings.Contains(tr.status.hint.Text, "AppIndicator and KStatusNotifierItem Support") {
		t.Fatalf("no window saying how to get a tray on GNOME")
	}
	content := tr.status.win.Content()
	buttons := buttonLabels(content)
	for _, want := range []string{"History…", "Settings…", "Connect a client…", "Welcome…", "Copy MCP URL", "Quit", "claude-code: Delete the build directory?"} {
		if buttons[want] == nil {
			t.Fatalf("status window lacks %q; has %v", want, buttons)
		}
	}
	test.Tap(buttons["claude-code: Delete the build directory?"])
	if len(opened) != 1 || opened[0] != q.ID {
		t.Fatalf("tapping the pending question opened %v", opened)
	}
	test.Tap(tr.status.away)
	if !tr.away || !strings.HasPrefix(tr.menuItems()[len(tr.menuItems())-9].Label, "Away") || !tr.menuItems()[len(tr.menuItems())-9].Checked {
		t.Fatalf("the status window's Away did not switch away on (away %v)", tr.away)
	}
	test.Tap(buttons["Settings…"])
	if tr.settings.win == nil || !tr.settings.win.Content().Visible() {
		t.Fatal("Settings… opened no settings window")
	}
	tr.trayHostChanged(true)
	if tr.status.hint.Visible() {
		t.Fatal("the hint stayed after a tray host came")
	}
	tr.toldNoHost = true
	tr.trayHostChanged(false)
	if !tr.status.hint.Visible() {
		t.Fatal("the hint did not come back when the tray host went")
	}
}

// TestNoTrayHint names what each desktop needs for a tray icon.
func TestNoTrayHint(t *testing.T) {
	for desktop, want := range map[string]string{
		"GNOME":        "AppIndicator and KStatusNotifierItem Support",
		"ubuntu:GNOME": "AppIndicator and KStatusNotifierItem Support",
		"sway":         "waybar",
		"":             "StatusNotifierItem tray",
	} {
		if got := noTrayHint(desktop); !strings.Contains(got, want) || !strings.Contains(got, "start Asktray again") {
			t.Errorf("%q: %q lacks %q", desktop, got, want)
		}
	}
}

// TestWatchTrayHost: on a private session bus, the watch reports no tray
// host at first, then one when a StatusNotifierWatcher takes its name, and
// none again when it leaves.
func TestWatchTrayHost(t *testing.T) {
	addr := testkit.StartBus(t)
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan bool, 4)
	w, err := watchTrayHost(conn, func(present bool) { got <- present })
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	want := func(v bool) {
		t.Helper()
		select {
		case p := <-got:
			if p != v {
				t.Fatalf("tray host present %v, want %v", p, v)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no report of tray host present %v", v)
		}
	}
	want(false)
	host, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := host.RequestName(snWatcher, dbus.NameFlagDoNotQueue); err != nil {
		t.Fatal(err)
	}
	want(true)
	host.Close()
	want(false)
}
