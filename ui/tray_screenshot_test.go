package ui

import (
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/settings"
)

// TestTrayMenuScreenshot renders the tray menu with pending questions the
// way Fyne draws a menu (a desktop's tray host draws it natively), into
// docs/screenshots/tray-menu.png when ASKTRAY_SCREENSHOTS=1, otherwise into
// a temporary dir.
func TestTrayMenuScreenshot(t *testing.T) {
	a := test.NewTempApp(t)
	useAppTheme(a) // its screenshot in the app's theme
	b := question.NewBroker(question.Config{})
	defer b.Close()
	for _, q := range []question.Question{
		{Kind: question.KindConfirm, Client: question.Client{Name: "claude-code"}, Message: "Delete the build/ directory (3.2 GB)?"},
		{Kind: question.KindChoice, Client: question.Client{Name: "cursor"}, Header: "Database for the integration tests", Message: "Which one?", Options: []question.Option{{Label: "Postgres"}, {Label: "SQLite"}}},
		{Kind: question.KindText, FreeText: true, Client: question.Client{Name: "codex", Title: "Codex CLI"}, Message: "What should the release branch be called?"},
	} {
		if _, err := b.Ask(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	tr := newTray(a, app.Env{Broker: b, Endpoint: func() (string, string) { return "http://127.0.0.1:7931/mcp", "" }, DataDir: "/home/ada/.local/share/asktray"})
	tr.refresh()
	if err := b.Snooze(b.Pending()[2].ID, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	tr.refresh()
	menu := widget.NewMenu(tr.menu)
	w := test.NewTempWindow(t, menu)
	w.Resize(menu.MinSize().Max(fyne.NewSize(420, 0)))
	dir := t.TempDir()
	if os.Getenv("ASKTRAY_SCREENSHOTS") == "1" {
		dir = filepath.Join("..", "docs", "screenshots")
	}
	f, err := os.Create(filepath.Join(dir, "tray-menu.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, w.Canvas().Capture()); err != nil {
		t.Fatal(err)
	}
	if n := len(tr.menu.Items); n != 14 {
		t.Fatalf("%d menu items", n)
	}
}

// TestSettingsScreenshot renders the settings window's General and Rules
// tabs into docs/screenshots/settings.png and settings-rules.png when
// ASKTRAY_SCREENSHOTS=1, otherwise into a temporary dir.
func TestSettingsScreenshot(t *testing.T) {
	a := test.NewTempApp(t)
	useAppTheme(a) // its screenshot in the app's theme
	pol, err := policy.Open(filepath.Join(t.TempDir(), policy.File))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []policy.Rule{
		{Client: "claude-code", Action: "request_approval:Run the test suite", Decision: policy.Allow, Scope: policy.ScopeAlways, Note: "go test is harmless"},
		{Client: "*", Action: "permission_prompt:Bash", Decision: policy.Deny, Scope: policy.ScopeAlways, Note: "no shell from agents I did not start"},
		{Client: "codex", Action: "request_approval:Deploy to staging", Decision: policy.Allow, Scope: policy.ScopeSession,
			SessionID: "sess_8d1b77c2a9", Expires: time.Now().Add(24 * time.Hour), Host: "build-01"},
		{Client: "claude-code", Action: "request_approval:Force-push main", Decision: policy.Allow, Scope: policy.ScopeAlways, HighRisk: true,
			Expires: time.Now().Add(7 * 24 * time.Hour), Note: "release week only"},
	} {
		if _, err := pol.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	env := app.Env{Endpoint: func() (string, string) { return "http://127.0.0.1:7931/mcp", "" }, DataDir: "/home/ada/.local/share/asktray", Policy: pol,
		Settings: settings.Settings{DefaultTimeoutSeconds: 600, BlockingWindows: []settings.BlockingWindow{{Match: "cursor", Seconds: 240}, {Match: "claude-code", Seconds: 900}},
			NotificationSound: true, HistoryRetentionDays: 90}}
	s := newSettingsWindow(a, env, nil)
	s.Show()
	s.win.Resize(fyne.NewSize(760, 900))
	dir := t.TempDir()
	if os.Getenv("ASKTRAY_SCREENSHOTS") == "1" {
		dir = filepath.Join("..", "docs", "screenshots")
	}
	capture := func(name string) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := png.Encode(f, s.win.Canvas().Capture()); err != nil {
			t.Fatal(err)
		}
	}
	capture("settings.png")
	if len(s.waits.rows) != 2 || s.waits.rows[0].name.Text != "cursor" || s.waits.rows[0].wait.Text != "4 min" || s.waits.rows[1].wait.Text != "15 min" {
		t.Fatalf("wait per agent shows %d rows", len(s.waits.rows))
	}
	s.tabs.SelectIndex(1)
	capture("settings-rules.png")
	if len(s.rules.rows) != 4 {
		t.Fatalf("%d rule rows", len(s.rules.rows))
	}
}

// TestConnectScreenshot renders the Connect window for Claude Code's MCP
// entry, with the token masked, into
// docs/screenshots/connect.png when ASKTRAY_SCREENSHOTS=1, otherwise into
// a temporary dir.
func TestConnectScreenshot(t *testing.T) {
	t.Setenv("HOME", "/home/ada") // not there: the MCP view only names its files
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	a := test.NewTempApp(t)
	useAppTheme(a) // its screenshot in the app's theme
	token := "4b1d9c0e7a2f4e6b8c3d5a7f9e1b3c5d7f9a2c4e6b8d0f1a3c5e7b9d2f4a6c8e"
	c := newConnectWindow(a, "/home/ada/.local/share/asktray", func() (string, string) { return "http://127.0.0.1:7931/mcp", token })
	c.deadline = func() time.Duration { return 300 * time.Second }
	c.Show()
	c.client.SetSelected("claude-code")
	c.kind.SetSelected(setupMCP)
	c.win.Resize(fyne.NewSize(760, 560))
	dir := t.TempDir()
	if os.Getenv("ASKTRAY_SCREENSHOTS") == "1" {
		dir = filepath.Join("..", "docs", "screenshots")
	}
	f, err := os.Create(filepath.Join(dir, "connect.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, c.win.Canvas().Capture()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(c.text.Text, token) || strings.Contains(c.token.Text, token) {
		t.Fatal("the screenshot shows the token")
	}
}
