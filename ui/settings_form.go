package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/ui/internal/uikit"
)

// The General tab's labels, in plain words; the settings.json keys they
// edit are in the comments and never change with the wording.
const (
	labelTimeout   = "Time to answer"           // default_timeout_seconds
	labelWindow    = "Agents wait up to"        // default_window_seconds
	labelWindows   = "Wait per agent"           // blocking_windows
	labelArmDelay  = "Buttons unlock after"     // arm_delay_ms
	labelRetention = "Keep history (days)"      // history_retention_days: a number of days only
	labelAskMode   = "Where to ask"             // ask_mode
	labelAskUser   = "Claude Code's questions"  // hook_ask_user_question
	labelPort      = "MCP port"                 // mcp_port
	labelShortcut  = "Shortcut to the question" // global_shortcut
)

// askModes are the ask_mode values as the Where to ask choice words them.
var askModes = []struct{ value, label string }{
	{"desktop", "A dialog on this desktop"},
	{"client", "The agent's own app (its form)"},
	{"auto", "This desktop if it has a display, else the agent's app"},
}

// askModeLabel is how the choice shows ask_mode value ("" is desktop).
func askModeLabel(value string) string {
	for _, m := range askModes {
		if m.value == value {
			return m.label
		}
	}
	return askModes[0].label
}

// askModeValue is the ask_mode value of the choice's label.
func askModeValue(label string) string {
	for _, m := range askModes {
		if m.label == label {
			return m.value
		}
	}
	return askModes[0].value
}

// settingsRow is one row of the General tab: its label, its control and
// the hint under the control.
type settingsRow struct {
	label string
	w     fyne.CanvasObject
	hint  string
}

// settingsSection is a titled group of the General tab's rows.
type settingsSection struct {
	title string
	rows  []settingsRow
}

// generalRows are the General tab's rows, top to bottom.
func (s *settingsWindow) generalRows() []settingsRow {
	var rows []settingsRow
	for _, sec := range s.generalSections() {
		rows = append(rows, sec.rows...)
	}
	return rows
}

// generalSections are the General tab's sections, top to bottom: how a
// question is asked, how you hear of it, what is kept, and the connection
// details that matter only when setting up a client, apart at the end.
func (s *settingsWindow) generalSections() []settingsSection {
	return []settingsSection{
		{"Questions", []settingsRow{
			{labelAskMode, s.askIn, "The agent's own app shows the question as its own form (MCP elicitation): for when you " +
				"work over SSH or away from this screen. Starting asktray with --ask desktop, client or auto overrides this for that run."},
			{labelTimeout, s.timeout, "When the agent sets no time limit, a question you have not answered ends after this long, " +
				fmt.Sprintf("never approved: %s to %s. In words (10 min, 1 h 30 min); a bare number is seconds.",
					amountWords(int(question.MinTimeout/time.Second), time.Second), amountWords(int(question.MaxTimeout/time.Second), time.Second))},
			{labelWindow, s.window, "How long an agent's call waits for your answer before the agent is told to check back " +
				"later; the question stays open. For agents with no row below and no wait of their own " +
				"(Claude Code waits 15 min; Codex, Cursor and VS Code 4.5 min; Claude Desktop 50 s). In words; a bare number is seconds."},
			{labelWindows, s.waits.view(), "A row per agent: a part of its name and how long its calls wait (4 min, 90 s). " +
				"The first row that matches wins; a row left empty is dropped."},
			{labelArmDelay, s.armDelay, "A dialog's answer buttons work only once it has been visible and focused this long, " +
				fmt.Sprintf("so a keypress meant for another window cannot answer it: %s to %s (a bare number is milliseconds).",
					amountWords(int(question.MinArmDelay/time.Millisecond), time.Millisecond), amountWords(int(question.MaxArmDelay/time.Millisecond), time.Millisecond))},
			{labelAskUser, s.askUserQuestion, "Needs Claude Code's hooks (Connect a client… › Permission hooks). " +
				"Off, Claude Code asks them in its terminal."},
		}},
		{"Notifications and away", []settingsRow{
			{"Notifications", s.sound, ""},
			{labelShortcut, s.shortcut, "A key chord, such as Ctrl+Alt+A, that brings the waiting question's dialog to the " +
				"front from any program; empty is off. On X11 only: under Wayland it works while an X11 program has the focus (docs/desktop.md)."},
			{"When away", s.awayMode, "Switch away in the tray menu or with 'asktray away on|off'. Away never allows anything."},
			{labelAwayWeekly, s.awayWeekly.view(), awayWeeklyHint},
		}},
		{"History and start-up", []settingsRow{
			{labelRetention, s.retention, "0 keeps everything; older finished questions are deleted daily."},
			{"Start at login", s.startAtLogin, "Writes an XDG autostart entry (Linux, BSDs), a LaunchAgent (macOS) or the Run key (Windows)."},
		}},
		{"Connection (for setting up clients)", []settingsRow{
			{labelPort, container.NewBorder(nil, nil, nil, s.portNote, s.port), "Loopback port, 1024–65535. Saving a new one " +
				"moves the server now; every client must be set up again."},
			{"MCP token", container.NewHBox(s.regenerate), "A new token locks out every client until it is set up again."},
		}},
	}
}

// generalForm builds the General tab: a bold title per section over its
// form, each hint a label under its control that wraps to the width the
// form gives it, never cut off.
func (s *settingsWindow) generalForm() fyne.CanvasObject {
	box := container.NewVBox()
	s.hints = map[string]*widget.Label{}
	s.sectionTitles = nil
	for i, sec := range s.generalSections() {
		if i > 0 {
			box.Add(widget.NewSeparator())
		}
		title := widget.NewLabelWithStyle(sec.title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		s.sectionTitles = append(s.sectionTitles, title)
		form := widget.NewForm()
		for _, r := range sec.rows {
			it, h := hinted(r.label, r.w, r.hint)
			if h != nil {
				s.hints[r.label] = h
			}
			form.AppendItem(it)
		}
		box.Add(title)
		box.Add(form)
	}
	return box
}

// formItem is a form row with a hint under its control that wraps.
func formItem(label string, w fyne.CanvasObject, hint string) *widget.FormItem {
	it, _ := hinted(label, w, hint)
	return it
}

// hinted is a form row with hint, if any, under w in a small label that
// wraps to the width the form gives it (a form's own HintText is one line
// that is cut off); it returns the hint's label, nil without one.
func hinted(label string, w fyne.CanvasObject, hint string) (*widget.FormItem, *widget.Label) {
	if hint == "" {
		return widget.NewFormItem(label, w), nil
	}
	h := uikit.SmallLabel(hint)
	h.Wrapping = fyne.TextWrapWord
	return widget.NewFormItem(label, container.NewVBox(w, h)), h
}

// listening returns the MCP URL the app serves at now and its port, 0
// when the app gives none. The port field and the line under the form both
// read it, so they cannot disagree.
func (s *settingsWindow) listening() (url string, port int) {
	url, _ = envEndpoint(s.env)()
	return url, urlPort(url)
}

// showPort shows the port the MCP server listens on in the port field and,
// when the saved mcp_port differs (asktray was started with --addr), both
// next to it.
func (s *settingsWindow) showPort() {
	configured := port(s.current)
	_, listen := s.listening()
	if listen == 0 {
		listen = configured
	}
	s.listenPort = listen
	s.port.SetText(strconv.Itoa(listen))
	if listen == configured {
		s.portNote.SetText("")
		s.portNote.Hide()
		return
	}
	s.portNote.SetText(fmt.Sprintf("configured %d, listening on %d", configured, listen))
	s.portNote.Show()
}

// parsedPort is the mcp_port the field asks for: the saved one while the
// field still shows the port the server listens on, else the field's.
func (s *settingsWindow) parsedPort(field int) int {
	if field == s.listenPort {
		return s.current.MCPPort
	}
	return field
}

// durationUnits are the words a duration field takes after a number, as
// time.ParseDuration spells them.
var durationUnits = strings.NewReplacer("milliseconds", "ms", "millisecond", "ms", "minutes", "m", "minute", "m",
	"mins", "m", "min", "m", "seconds", "s", "second", "s", "secs", "s", "sec", "s", "hours", "h", "hour", "h", " ", "")

// parseAmount reads a field's whole number; with a unit (a duration
// field) it also takes a number with its unit in words ("10 min", "1h30m",
// "1.5 s", "500 ms") and returns it in unit. Errors say what it takes.
func parseAmount(text string, unit time.Duration) (int, error) {
	text = strings.TrimSpace(text)
	if n, err := strconv.Atoi(text); err == nil {
		return n, nil
	}
	if unit == 0 {
		return 0, fmt.Errorf("%q is not a whole number", text)
	}
	d, err := time.ParseDuration(durationUnits.Replace(strings.ToLower(text)))
	if err != nil {
		name := map[time.Duration]string{time.Second: "seconds", time.Millisecond: "milliseconds"}[unit]
		return 0, fmt.Errorf("%q is neither a number of %s nor a time such as 10 min, 1 h or 90 s", text, name)
	}
	return int(d / unit), nil
}
