package ui

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/doctor"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/settings"
)

// scratchHome points HOME at a fresh folder and PATH at an empty one, with
// no agent's own variables, so that only what the test makes is found.
func scratchHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("PATH", t.TempDir())
	for _, k := range []string{"CLAUDE_CONFIG_DIR", "CODEX_HOME", "COPILOT_HOME", "XDG_CONFIG_HOME", "QWEN_HOME", "GEMINI_CLI_HOME"} {
		t.Setenv(k, "")
	}
	return home
}

// windowTitled returns a's visible window with the title, or nil.
func windowTitled(a fyne.App, title string) fyne.Window {
	for _, w := range a.Driver().AllWindows() {
		if w.Title() == title {
			return w
		}
	}
	return nil
}

// TestWelcome_ConnectsAndTests taps through the first-run window: it lists
// only the agents found (Claude Code by ~/.claude, Gemini CLI by its
// program on PATH), Connect writes Claude Code's MCP entry with the app's
// token and its hooks into the scratch home and says it is connected, and
// Send a test question sends the doctor's test request through the hook
// command it installed and says it reached Asktray.
func TestWelcome_ConnectsAndTests(t *testing.T) {
	home := scratchHome(t)
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(os.Getenv("PATH"), "gemini"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	a := test.NewTempApp(t)
	tok := strings.Repeat("ab", 32)
	c := newConnectWindow(a, "/data", func() (string, string) { return "http://127.0.0.1:1/mcp", tok })
	c.deadline = func() time.Duration { return time.Minute }
	var ran []string
	c.run = func(_ context.Context, argv []string, stdin []byte) ([]byte, []byte, error) {
		ran = append(ran, strings.Join(argv, " ")+" <- "+string(stdin))
		return []byte(`{"asktray_doctor_received":true,"question_id":"q-test"}`), nil, nil
	}
	c.notice = func(_ context.Context, id string) error { return nil }
	w := newWelcomeWindow(a, c)
	reports := make(chan doctor.Report, 2)
	w.tested = func(r doctor.Report) { reports <- r }
	w.Show()
	if got := windowTitled(a, welcomeTitle); got == nil {
		t.Fatal("no window")
	}
	if len(w.agents) != 2 || w.agents["claude-code"] == nil || w.agents["gemini-cli"] == nil || !w.none.Hidden {
		t.Fatalf("agents listed: %v (none shown: %v)", w.agents, !w.none.Hidden)
	}
	claude := w.agents["claude-code"]
	if claude.state.Text != "Not connected" || claude.button.Text != "Connect" {
		t.Fatalf("before: %q %q", claude.state.Text, claude.button.Text)
	}

	test.Tap(w.test)
	report := waitReport(t, reports)
	if len(ran) != 0 || !strings.Contains(w.result.Text, "connect an agent first") || len(report.Lines) == 0 {
		t.Fatalf("a test with nothing connected ran %q and says %q", ran, w.result.Text)
	}

	test.Tap(claude.button)
	var cfg struct {
		MCPServers map[string]struct{ Headers map[string]string } `json:"mcpServers"`
	}
	b, err := os.ReadFile(filepath.Join(home, ".claude.json"))
	if err != nil || json.Unmarshal(b, &cfg) != nil || cfg.MCPServers["asktray"].Headers["Authorization"] != "Bearer "+tok {
		t.Fatalf("~/.claude.json after Connect: %s %v", b, err)
	}
	hooks, err := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	if err != nil || !strings.Contains(string(hooks), "hook claude-code --data-dir /data") {
		t.Fatalf("hooks after Connect: %s %v", hooks, err)
	}
	if claude.state.Text != "Connected" || claude.button.Text != "Connect again" || !strings.HasPrefix(w.result.Text, "Claude Code is connected.") {
		t.Fatalf("after Connect: %q %q; %q", claude.state.Text, claude.button.Text, w.result.Text)
	}
	if g := w.agents["gemini-cli"]; g.state.Text != "Not connected" {
		t.Fatalf("Gemini CLI: %q", g.state.Text)
	}

	test.Tap(w.test)
	waitReport(t, reports)
	if len(ran) != 1 || !strings.Contains(ran[0], "hook claude-code") || !strings.Contains(ran[0], `"AsktrayDoctor"`) {
		t.Fatalf("test requests: %q", ran)
	}
	if !strings.Contains(w.result.Text, "✓ Claude Code: the test reached Asktray") {
		t.Fatalf("after the test: %q", w.result.Text)
	}
}

// waitReport waits for the window's test to end and returns its report.
func waitReport(t *testing.T, got <-chan doctor.Report) doctor.Report {
	t.Helper()
	select {
	case r := <-got:
		return r
	case <-time.After(doctorTimeout):
		t.Fatal("the test did not end")
	}
	return doctor.Report{}
}

// TestWelcome_NoAgentFound says so and points at Connect a client….
func TestWelcome_NoAgentFound(t *testing.T) {
	scratchHome(t)
	a := test.NewTempApp(t)
	w := newWelcomeWindow(a, newConnectWindow(a, "/data", func() (string, string) { return "", "" }))
	w.Show()
	if len(w.agents) != 0 || w.none.Hidden || !strings.Contains(w.none.Text, "Connect a client…") {
		t.Fatalf("agents %v, none shown %v: %q", w.agents, !w.none.Hidden, w.none.Text)
	}
}

// TestWelcome_OnlyOnTheFirstRun: the tray shows the window when the data
// dir has no welcomed mark and writes the mark; a later start (a new tray
// on the same dir) shows nothing, and Welcome… in the menu brings it back.
func TestWelcome_OnlyOnTheFirstRun(t *testing.T) {
	scratchHome(t)
	dir := t.TempDir()
	b := question.NewBroker(question.Config{})
	defer b.Close()
	env := app.Env{Broker: b, DataDir: dir, Endpoint: func() (string, string) { return "", "" }}
	a := test.NewTempApp(t)
	tr := newTray(a, env)
	tr.install()
	tr.welcomeOnFirstRun()
	if w := windowTitled(a, welcomeTitle); w == nil || !settings.Welcomed(dir) {
		t.Fatalf("first run: window %v, marked %v", w, settings.Welcomed(dir))
	}
	a2 := test.NewTempApp(t)
	tr2 := newTray(a2, env)
	tr2.install()
	tr2.welcomeOnFirstRun()
	if w := windowTitled(a2, welcomeTitle); w != nil {
		t.Fatal("the window came again on the second start")
	}
	for _, it := range tr2.menu.Items {
		if it.Label == "Welcome…" {
			it.Action()
		}
	}
	if w := windowTitled(a2, welcomeTitle); w == nil {
		t.Fatal("Welcome… shows no window")
	}
}
