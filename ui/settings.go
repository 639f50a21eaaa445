package ui

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app"
)

// settingsWindow edits settings.json. Saving validates, writes the file and
// applies the settings at once: the MCP server and history retention
// through app.Env.ApplySettings, notification sound and arming delay
// through applied. Its methods run on the Fyne goroutine.
type settingsWindow struct {
	app     fyne.App
	env     app.Env
	applied func(app.Settings)
	current app.Settings
	win     fyne.Window

	timeout, window, windows, armDelay, retention *widget.Entry
	sound                                         *widget.Check
	ask                                           *widget.Select // ask_mode
	startAtLogin                                  *widget.Check
	status                                        *widget.Label
	save                                          *widget.Button
}

func newSettingsWindow(a fyne.App, env app.Env, applied func(app.Settings)) *settingsWindow {
	s := &settingsWindow{app: a, env: env, applied: applied, current: env.Settings}
	s.timeout, s.window, s.armDelay, s.retention = widget.NewEntry(), widget.NewEntry(), widget.NewEntry(), widget.NewEntry()
	s.windows = widget.NewMultiLineEntry()
	s.windows.SetMinRowsVisible(3)
	s.windows.SetPlaceHolder("client-name = seconds, one per line, e.g.\ncursor = 240")
	s.sound = widget.NewCheck("Play the desktop's message sound", nil)
	s.ask = widget.NewSelect([]string{"desktop", "client", "auto"}, nil)
	s.startAtLogin = widget.NewCheck("Start Asktray in the tray when I log in", nil)
	s.status = widget.NewLabel("")
	s.status.Wrapping = fyne.TextWrapWord
	s.save = widget.NewButton("Save", s.submit)
	s.save.Importance = widget.HighImportance
	s.load(env.Settings)
	return s
}

// load fills the fields from st.
func (s *settingsWindow) load(st app.Settings) {
	num := func(n, def int) string {
		if n == 0 {
			return strconv.Itoa(def)
		}
		return strconv.Itoa(n)
	}
	s.timeout.SetText(num(st.DefaultTimeoutSeconds, 300))
	s.window.SetText(num(st.DefaultWindowSeconds, 55))
	s.armDelay.SetText(num(st.ArmDelayMS, 500))
	s.retention.SetText(strconv.Itoa(st.HistoryRetentionDays))
	var lines []string
	for _, w := range st.BlockingWindows {
		lines = append(lines, fmt.Sprintf("%s = %d", w.Match, w.Seconds))
	}
	s.windows.SetText(strings.Join(lines, "\n"))
	s.sound.SetChecked(st.NotificationSound)
	s.ask.SetSelected(st.AskMode)
	if st.AskMode == "" {
		s.ask.SetSelected("desktop")
	}
	s.startAtLogin.SetChecked(st.StartAtLogin)
}

// parse reads the fields into settings; errors name the field.
func (s *settingsWindow) parse() (app.Settings, error) {
	st := s.current
	ints := []struct {
		name  string
		entry *widget.Entry
		dst   *int
	}{
		{"Default deadline", s.timeout, &st.DefaultTimeoutSeconds},
		{"Blocking window", s.window, &st.DefaultWindowSeconds},
		{"Arming delay", s.armDelay, &st.ArmDelayMS},
		{"Keep history", s.retention, &st.HistoryRetentionDays},
	}
	for _, f := range ints {
		n, err := strconv.Atoi(strings.TrimSpace(f.entry.Text))
		if err != nil {
			return st, fmt.Errorf("%s: %q is not a whole number", f.name, f.entry.Text)
		}
		*f.dst = n
	}
	st.BlockingWindows = nil
	for i, line := range strings.Split(s.windows.Text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		match, secs, ok := strings.Cut(line, "=")
		n, err := strconv.Atoi(strings.TrimSpace(secs))
		if !ok || err != nil || strings.TrimSpace(match) == "" {
			return st, fmt.Errorf("Per-client windows, line %d: write client-name = seconds", i+1) //nolint:staticcheck // shown to the person as is, naming the field as labelled
		}
		st.BlockingWindows = append(st.BlockingWindows, app.BlockingWindow{Match: strings.TrimSpace(match), Seconds: n})
	}
	st.NotificationSound = s.sound.Checked
	st.AskMode = s.ask.Selected
	if st.AskMode == "desktop" {
		st.AskMode = "" // the default; keeps settings.json minimal
	}
	st.StartAtLogin = s.startAtLogin.Checked
	return st, st.Validate()
}

// submit saves and applies the settings, or says what is wrong.
func (s *settingsWindow) submit() {
	st, err := s.parse()
	if err == nil && s.env.ApplySettings != nil {
		err = s.env.ApplySettings(st)
	}
	if err != nil {
		s.status.SetText("Not saved: " + err.Error())
		s.status.Importance = widget.DangerImportance
		s.status.Refresh()
		return
	}
	s.current = st
	if s.applied != nil {
		s.applied(st)
	}
	s.status.SetText("Saved and applied. New questions use these settings.")
	s.status.Importance = widget.SuccessImportance
	s.status.Refresh()
}

// Show shows the window, making it on first use; closing it hides it.
func (s *settingsWindow) Show() {
	if s.win == nil {
		w := s.app.NewWindow("Asktray settings")
		form := widget.NewForm(
			widget.NewFormItem("Default deadline (s)", s.timeout),
			widget.NewFormItem("Blocking window (s)", s.window),
			widget.NewFormItem("Per-client windows", s.windows),
			widget.NewFormItem("Arming delay (ms)", s.armDelay),
			widget.NewFormItem("Notifications", s.sound),
			widget.NewFormItem("Keep history (days)", s.retention),
			widget.NewFormItem("Start at login", s.startAtLogin),
			widget.NewFormItem("Ask in", s.ask),
		)
		form.Items[0].HintText = "How long a person has to answer when the agent gives no timeout (10–86400)."
		form.Items[1].HintText = "How long a call waits before returning pending, for clients not listed below."
		form.Items[3].HintText = "Answer buttons unlock after the dialog was visible and focused this long (300–5000)."
		form.Items[5].HintText = "0 keeps everything; older finished questions are deleted daily."
		form.Items[6].HintText = "Adds this asktray to your desktop's autostart (Linux); see the README for macOS and Windows."
		form.Items[7].HintText = "client: the agent's own form (MCP elicitation); auto: this desktop when shown, else the agent's form. --ask overrides it for a run."
		info := widget.NewLabel(fmt.Sprintf("MCP URL %s · data dir %s", s.env.URL, s.env.DataDir))
		info.Wrapping = fyne.TextWrapWord
		bottom := container.NewVBox(widget.NewSeparator(), s.status, container.NewBorder(nil, nil, nil, s.save, info))
		w.SetContent(container.NewBorder(nil, bottom, nil, nil, container.NewVScroll(form)))
		w.SetCloseIntercept(w.Hide)
		w.Resize(fyne.NewSize(620, 560))
		w.CenterOnScreen()
		s.win = w
	}
	s.load(s.current)
	s.status.SetText("")
	s.win.Show()
	s.win.RequestFocus()
}
