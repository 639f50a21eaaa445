package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/settings"
)

// inWindow fails unless o lies inside w's canvas with at least the theme's
// padding on its left and right: nothing touches or crosses the edge.
func inWindow(t *testing.T, w fyne.Window, name string, o fyne.CanvasObject) {
	t.Helper()
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	width, pad := w.Canvas().Size().Width, theme.Padding()
	if pos.X < pad || pos.X+o.Size().Width > width-pad {
		t.Errorf("%s spans x %.0f–%.0f in a window %.0f wide: it touches or crosses the edge", name, pos.X, pos.X+o.Size().Width, width)
	}
}

// TestSettingsWindow_PlainLabelsAndWrappedHints: the General tab says what
// each setting does in plain words (the settings.json keys stay as they
// were), every control and hint keeps clear of the window's edges, and a
// long hint wraps to the window's width instead of being cut off.
func TestSettingsWindow_PlainLabelsAndWrappedHints(t *testing.T) {
	a := test.NewTempApp(t)
	env := app.Env{Endpoint: func() (string, string) { return "http://127.0.0.1:7931/mcp", "" }, DataDir: "/data"}
	s := newSettingsWindow(a, env, nil)
	s.Show()
	var labels []string
	for _, r := range s.generalRows() {
		labels = append(labels, r.label)
	}
	want := []string{"Where to ask", "Time to answer", "Agents wait up to", "Wait per agent",
		"Buttons unlock after", "Claude Code's questions", "Notifications", "Shortcut to the question", "When away", "Away every week", "Keep history (days)", "Start at login",
		"MCP port", "MCP token"}
	if strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Fatalf("labels %q, want %q", labels, want)
	}
	for _, jargon := range []string{"Blocking window", "Per-client windows", "Ask in", "Arming delay", "auto_rejected"} {
		for _, r := range s.generalRows() {
			if strings.Contains(r.label, jargon) || strings.Contains(r.hint, jargon) {
				t.Errorf("row %q still says %q", r.label, jargon)
			}
		}
		for _, o := range append(append([]string{}, s.askIn.Options...), s.awayMode.Options...) {
			if strings.Contains(o, jargon) {
				t.Errorf("option %q still says %q", o, jargon)
			}
		}
	}
	if got := s.askIn.Options; len(got) != 3 || got[0] != "A dialog on this desktop" || s.askIn.Selected != got[0] {
		t.Fatalf("where to ask offers %q, selected %q", got, s.askIn.Selected)
	}

	hint := s.hints[labelAskMode]
	if hint == nil || !strings.Contains(hint.Text, "--ask desktop, client or auto overrides this for that run.") {
		t.Fatalf("where-to-ask hint %v", hint)
	}
	width := s.win.Canvas().Size().Width
	oneLine := fyne.MeasureText(hint.Text, theme.CaptionTextSize(), hint.TextStyle)
	if hint.Wrapping != fyne.TextWrapWord || hint.MinSize().Width >= width || oneLine.Width <= hint.Size().Width ||
		hint.Size().Height < 2*oneLine.Height {
		t.Fatalf("hint %.0f×%.0f (min width %.0f, one line %.0f wide) in a window %.0f wide: not wrapped",
			hint.Size().Width, hint.Size().Height, hint.MinSize().Width, oneLine.Width, width)
	}
	for name, o := range map[string]fyne.CanvasObject{"where-to-ask hint": hint, "time to answer": s.timeout,
		"port": s.port, "where to ask": s.askIn, "data dir line": s.info, "save": s.save} {
		inWindow(t, s.win, name, o)
	}
}

// TestSettingsWindow_Sections: the General tab is in titled sections, top
// to bottom, and the MCP port and token sit in the last one, apart from
// the notification sound they stood beside (issue 38 item 8).
func TestSettingsWindow_Sections(t *testing.T) {
	a := test.NewTempApp(t)
	env := app.Env{Endpoint: func() (string, string) { return "http://127.0.0.1:7931/mcp", "" }, DataDir: "/data"}
	s := newSettingsWindow(a, env, nil)
	s.Show()
	var titles []string
	for _, l := range s.sectionTitles {
		titles = append(titles, l.Text)
	}
	want := []string{"Questions", "Notifications and away", "History and start-up", "Connection (for setting up clients)"}
	if strings.Join(titles, "|") != strings.Join(want, "|") {
		t.Fatalf("sections %q, want %q", titles, want)
	}
	y := func(o fyne.CanvasObject) float32 { return fyne.CurrentApp().Driver().AbsolutePositionForObject(o).Y }
	for i := 1; i < len(s.sectionTitles); i++ {
		if y(s.sectionTitles[i]) <= y(s.sectionTitles[i-1]) {
			t.Errorf("section %q is not below %q", titles[i], titles[i-1])
		}
	}
	conn, notes, history := s.sectionTitles[3], s.sectionTitles[1], s.sectionTitles[2]
	if y(s.port) <= y(conn) || y(s.regenerate) <= y(conn) {
		t.Errorf("the port (y %.0f) or the token (y %.0f) is above the Connection title (y %.0f)", y(s.port), y(s.regenerate), y(conn))
	}
	if y(s.sound) <= y(notes) || y(s.sound) >= y(history) {
		t.Errorf("the sound (y %.0f) is not under Notifications and away (y %.0f–%.0f)", y(s.sound), y(notes), y(history))
	}
	if y(s.askIn) >= y(notes) || y(s.timeout) >= y(notes) {
		t.Errorf("where to ask or the time to answer is not under Questions")
	}
}

// TestSettingsWindow_PortFieldIsTheListeningPort: the port field and the
// URL under the form come from one source, the app's endpoint; with no
// override there is no note next to the field.
func TestSettingsWindow_PortFieldIsTheListeningPort(t *testing.T) {
	a := test.NewTempApp(t)
	url := "http://127.0.0.1:7940/mcp"
	env := app.Env{Endpoint: func() (string, string) { return url, "" }, DataDir: "/data", Settings: settings.Settings{MCPPort: 7940}}
	s := newSettingsWindow(a, env, nil)
	s.Show()
	if s.port.Text != "7940" || !s.portNote.Hidden || !strings.Contains(s.info.Text, "127.0.0.1:7940") {
		t.Fatalf("port %q, note %q (hidden %v), info %q", s.port.Text, s.portNote.Text, s.portNote.Hidden, s.info.Text)
	}
	url = "http://127.0.0.1:7950/mcp" // --addr 127.0.0.1:7950 at start
	s.Show()
	if s.port.Text != "7950" || s.portNote.Hidden || s.portNote.Text != "configured 7940, listening on 7950" ||
		s.portNote.Importance != widget.WarningImportance {
		t.Fatalf("port %q, note %q (hidden %v)", s.port.Text, s.portNote.Text, s.portNote.Hidden)
	}
	inWindow(t, s.win, "port note", s.portNote)
}

// TestSettingsWindow_LongRuleActionWraps: a rule whose action is a long
// shell command shows it in full in the Rules tab, wrapped over several
// lines inside the window, never truncated, with Edit… and Remove still in
// the window.
func TestSettingsWindow_LongRuleActionWraps(t *testing.T) {
	a := test.NewTempApp(t)
	pol := tempPolicy(t)
	action := "permission_prompt:Bash:kubectl --context prod-eu-west-1 -n payments rollout restart deployment/payments-api deployment/ledger-worker deployment/refunds"
	if _, err := pol.Add(policy.Rule{Client: "claude-code", Action: action, Decision: policy.Allow, Scope: policy.ScopeAlways}); err != nil {
		t.Fatal(err)
	}
	s := newSettingsWindow(a, app.Env{Policy: pol, Endpoint: func() (string, string) { return "http://127.0.0.1:7931/mcp", "" }}, nil)
	s.Show()
	s.tabs.SelectIndex(1)
	s.loadRules()
	if len(s.rules.rows) != 1 {
		t.Fatalf("%d rule rows", len(s.rules.rows))
	}
	row := s.rules.rows[0]
	if !strings.Contains(row.title.Text, strings.TrimPrefix(action, "permission_prompt:")) || row.title.Truncation != fyne.TextTruncateOff || row.title.Wrapping != fyne.TextWrapWord {
		t.Fatalf("title %q (truncation %v, wrapping %v)", row.title.Text, row.title.Truncation, row.title.Wrapping)
	}
	oneLine := fyne.MeasureText(row.title.Text, theme.TextSize(), row.title.TextStyle)
	if row.title.Size().Width >= oneLine.Width || row.title.Size().Height < 2*oneLine.Height {
		t.Fatalf("title %.0f×%.0f, one line %.0f wide: not wrapped", row.title.Size().Width, row.title.Size().Height, oneLine.Width)
	}
	for name, o := range map[string]fyne.CanvasObject{"rule title": row.title, "Edit…": row.edit, "Remove": row.remove} {
		inWindow(t, s.win, name, o)
	}
}
