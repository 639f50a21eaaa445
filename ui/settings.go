package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/settings"
)

// The away behaviours, as the settings window offers them.
const (
	awayHold   = "Hold new questions silently; the tray lists them"
	awayReject = "Turn new questions down at once; the agent is told you are away"
	// awayHandback hands questions back to the agent's own chat.
	awayHandback = "Hand questions back to the agent's chat (approvals still wait)"
)

// settingsWindow edits settings.json. Saving validates, writes the file and
// applies the settings at once: the MCP server (its port too) and history
// retention through app.Env.ApplySettings, notification sound and arming
// delay through applied. It also regenerates the MCP token. Its methods
// run on the Fyne goroutine.
type settingsWindow struct {
	app     fyne.App
	env     app.Env
	applied func(settings.Settings) error // the UI's part; its error is said
	// endpointChanged, if set, runs after the MCP URL or token changed.
	endpointChanged func()
	current         settings.Settings
	win             fyne.Window

	timeout, window, armDelay, retention, port *widget.Entry
	waits                                      *agentWaits   // blocking_windows
	shortcut                                   *widget.Entry // global_shortcut
	sound, startAtLogin, askUserQuestion       *widget.Check
	awayMode                                   *widget.RadioGroup
	awayWeekly                                 awaySchedule   // away_schedule
	askIn                                      *widget.Select // ask_mode
	tabs                                       *container.AppTabs
	rules                                      rulesTab
	status, info, portNote                     *widget.Label
	hints                                      map[string]*widget.Label // by row label
	sectionTitles                              []*widget.Label          // the General tab's section titles, in order
	listenPort                                 int                      // the port field shows it
	save, regenerate                           *widget.Button

	// The open confirmation, for a port move or a new token.
	confirm                  dialog.Dialog
	confirmText              *widget.Label
	confirmOK, confirmCancel *widget.Button
}

func newSettingsWindow(a fyne.App, env app.Env, applied func(settings.Settings) error) *settingsWindow {
	s := &settingsWindow{app: a, env: env, applied: applied, current: env.Settings}
	s.timeout, s.window, s.armDelay, s.retention = widget.NewEntry(), widget.NewEntry(), widget.NewEntry(), widget.NewEntry()
	s.waits = newAgentWaits()
	s.sound = widget.NewCheck("Play the desktop's message sound", nil)
	s.awayMode = widget.NewRadioGroup([]string{awayHold, awayReject, awayHandback}, nil)
	s.awayMode.Required = true
	s.awayWeekly = newAwaySchedule()
	var modes []string
	for _, m := range askModes {
		modes = append(modes, m.label)
	}
	s.askIn = widget.NewSelect(modes, nil)
	s.startAtLogin = widget.NewCheck("Start Asktray in the tray when I log in", nil)
	s.askUserQuestion = widget.NewCheck("Answer Claude Code's own multiple-choice questions here", nil)
	s.status = widget.NewLabel("")
	s.status.Wrapping = fyne.TextWrapWord
	s.save = widget.NewButton("Save", s.submit)
	s.save.Importance = widget.HighImportance
	s.port = widget.NewEntry()
	s.shortcut = widget.NewEntry()
	s.shortcut.SetPlaceHolder("Off; for example Ctrl+Alt+A")
	s.portNote = widget.NewLabel("")
	s.portNote.Importance = widget.WarningImportance
	s.portNote.Hide()
	s.regenerate = widget.NewButton("Regenerate token…", s.askRegenerate)
	s.info = widget.NewLabel("")
	s.info.Wrapping = fyne.TextWrapWord
	s.load(env.Settings)
	return s
}

// load fills the fields from st.
func (s *settingsWindow) load(st settings.Settings) {
	// The durations in words ("10 min", "500 ms"), as the fields take them.
	words := func(n, def int, unit time.Duration) string {
		if n == 0 {
			n = def
		}
		return amountWords(n, unit)
	}
	s.timeout.SetText(words(st.DefaultTimeoutSeconds, int(question.DefaultTimeout/time.Second), time.Second))
	s.window.SetText(words(st.DefaultWindowSeconds, 55, time.Second))
	s.armDelay.SetText(words(st.ArmDelayMS, int(question.DefaultArmDelay/time.Millisecond), time.Millisecond))
	s.retention.SetText(strconv.Itoa(st.HistoryRetentionDays))
	s.waits.load(st.BlockingWindows)
	s.sound.SetChecked(st.NotificationSound)
	s.askUserQuestion.SetChecked(st.AskUserQuestionOn())
	switch st.AwayMode {
	case policy.AwayReject:
		s.awayMode.SetSelected(awayReject)
	case policy.AwayHandback:
		s.awayMode.SetSelected(awayHandback)
	default:
		s.awayMode.SetSelected(awayHold)
	}
	s.awayWeekly.load(st)
	s.askIn.SetSelected(askModeLabel(st.AskMode))
	s.startAtLogin.SetChecked(st.StartAtLogin)
	s.shortcut.SetText(st.GlobalShortcut)
	s.showPort()
}

// parse reads the fields into settings; errors name the field.
func (s *settingsWindow) parse() (settings.Settings, error) {
	st := s.current
	ints := []struct {
		name  string
		entry *widget.Entry
		dst   *int
		unit  time.Duration // a duration's unit (it takes "10 min" too); 0: a plain number
	}{
		{"Time to answer", s.timeout, &st.DefaultTimeoutSeconds, time.Second},
		{"Wait for an answer", s.window, &st.DefaultWindowSeconds, time.Second},
		{"Buttons unlock after", s.armDelay, &st.ArmDelayMS, time.Millisecond},
		{"Keep history", s.retention, &st.HistoryRetentionDays, 0},
		{"MCP port", s.port, &st.MCPPort, 0},
	}
	for _, f := range ints {
		n, err := parseAmount(f.entry.Text, f.unit)
		if err != nil {
			return st, fmt.Errorf("%s: %w", f.name, err)
		}
		*f.dst = n
	}
	st.MCPPort = s.parsedPort(st.MCPPort)
	waits, err := s.waits.parse()
	if err != nil {
		return st, err
	}
	st.BlockingWindows = waits
	if st.MCPPort == settings.DefaultPort {
		st.MCPPort = 0 // the default stays the default
	}
	st.NotificationSound = s.sound.Checked
	on := s.askUserQuestion.Checked
	st.HookAskUserQuestion = &on
	switch s.awayMode.Selected {
	case awayReject:
		st.AwayMode = policy.AwayReject
	case awayHandback:
		st.AwayMode = policy.AwayHandback
	default:
		st.AwayMode = ""
	}
	if err := s.awayWeekly.parse(&st); err != nil {
		return st, err
	}
	st.AskMode = askModeValue(s.askIn.Selected)
	if st.AskMode == "desktop" {
		st.AskMode = "" // the default; keeps settings.json minimal
	}
	st.StartAtLogin = s.startAtLogin.Checked
	st.GlobalShortcut = ""
	if text := strings.TrimSpace(s.shortcut.Text); text != "" {
		sc, err := settings.ParseShortcut(text)
		if err != nil {
			return st, fmt.Errorf("%s: %w", labelShortcut, err)
		}
		st.GlobalShortcut = sc.String()
	}
	return st, st.Validate()
}

// submit saves and applies the settings, or says what is wrong. A new MCP
// port is confirmed first: it moves the server and clients must follow.
func (s *settingsWindow) submit() {
	st, err := s.parse()
	if err != nil {
		s.say("Not saved: "+err.Error(), widget.DangerImportance)
		return
	}
	if port(st) != port(s.current) {
		s.ask("Move the MCP server?", fmt.Sprintf("The MCP server moves to port %d now. Every client set up for port %d "+
			"stops reaching Asktray until you set it up again: run 'asktray config CLIENT --write' for each one "+
			"(clients using 'asktray stdio' only need restarting).", port(st), s.listenPort),
			"Move it", func() { s.apply(st) })
		return
	}
	s.apply(st)
}

// apply saves and applies st and says how it went.
func (s *settingsWindow) apply(st settings.Settings) {
	var err error
	if s.env.ApplySettings != nil {
		err = s.env.ApplySettings(st)
	}
	if err != nil {
		s.say("Not saved: "+err.Error(), widget.DangerImportance)
		return
	}
	moved := port(st) != port(s.current)
	s.current = st
	s.showPort()
	var partly error // what of the UI's part did not take
	if s.applied != nil {
		partly = s.applied(st)
	}
	if partly != nil {
		defer s.say("Saved, but "+partly.Error(), widget.WarningImportance)
	}
	if moved {
		s.endpointMoved()
		url, _ := envEndpoint(s.env)()
		s.say("Saved and applied. The MCP server now listens at "+url+"; set up your clients again.", widget.WarningImportance)
		return
	}
	s.say("Saved and applied. New questions use these settings.", widget.SuccessImportance)
}

// say shows text in the status line.
func (s *settingsWindow) say(text string, imp widget.Importance) {
	s.status.SetText(text)
	s.status.Importance = imp
	s.status.Refresh()
}

// port returns the MCP port st asks for.
func port(st settings.Settings) int {
	if st.MCPPort == 0 {
		return settings.DefaultPort
	}
	return st.MCPPort
}

// Show shows the window, making it on first use; closing it hides it.
func (s *settingsWindow) Show() {
	if s.win == nil {
		w := s.app.NewWindow("Asktray settings")
		form := s.generalForm()
		bottom := container.NewVBox(widget.NewSeparator(), s.status, container.NewBorder(nil, nil, nil, s.save, s.info))
		general := container.NewBorder(nil, bottom, nil, nil, container.NewVScroll(form))
		s.tabs = container.NewAppTabs(
			container.NewTabItem("General", container.NewPadded(general)),
			container.NewTabItem("Rules", container.NewPadded(s.rulesView())),
		)
		w.SetContent(s.tabs)
		w.SetCloseIntercept(w.Hide)
		w.Resize(fyne.NewSize(760, 640))
		w.CenterOnScreen()
		s.win = w
	}
	s.load(s.current)
	s.showInfo()
	s.loadRules()
	s.status.SetText("")
	s.win.Show()
	s.win.RequestFocus()
}

// policyChanged shows the rules as the policy has them now. Runs on the
// Fyne goroutine.
func (s *settingsWindow) policyChanged() {
	if s.win != nil {
		s.loadRules()
	}
}
