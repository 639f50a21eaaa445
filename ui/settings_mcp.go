package ui

import (
	"fmt"
	neturl "net/url"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
)

// askRegenerate asks before making a new MCP token: every configured
// client is locked out until it is set up again.
func (s *settingsWindow) askRegenerate() {
	s.ask("Regenerate the MCP token?", "Asktray will accept only the new token, at once. Every client you set up "+
		"(Claude Code, Cursor, VS Code, …) is refused until you set it up again: run 'asktray config CLIENT --write' "+
		"for each one, or copy its entry from Connect a client. Clients using 'asktray stdio' only need restarting.",
		"Regenerate", s.regenerateToken)
}

// regenerateToken makes the new token and says so.
func (s *settingsWindow) regenerateToken() {
	if s.env.RegenerateToken == nil {
		s.say("This app cannot regenerate its token while running.", widget.DangerImportance)
		return
	}
	if _, err := s.env.RegenerateToken(); err != nil {
		s.say("Token not regenerated: "+err.Error(), widget.DangerImportance)
		return
	}
	s.endpointMoved()
	s.say("New token in use; the old one is refused. Set up your clients again: asktray config CLIENT --write.", widget.WarningImportance)
}

// endpointMoved updates what shows the MCP URL and token.
func (s *settingsWindow) endpointMoved() {
	s.showInfo()
	if s.endpointChanged != nil {
		s.endpointChanged()
	}
}

// showInfo shows the MCP URL as it is now and the data dir. When the
// server listens on another port than the saved one (asktray was started
// with --addr, which overrides the setting for that run), it says so, so
// that the port field and the URL never disagree unexplained.
func (s *settingsWindow) showInfo() {
	url, p := s.listening()
	text := fmt.Sprintf("MCP URL %s · data dir %s", url, s.env.DataDir)
	if p != 0 && p != port(s.current) {
		text += fmt.Sprintf("\nThis run listens on port %d because asktray was started with --addr; "+
			"the port saved here (%d) is used when it starts without --addr.", p, port(s.current))
	}
	s.info.SetText(text)
}

// urlPort is the port of an MCP URL such as http://127.0.0.1:7931/mcp, or
// 0 when there is none.
func urlPort(raw string) int {
	u, err := neturl.Parse(raw)
	if err != nil {
		return 0
	}
	p, _ := strconv.Atoi(u.Port())
	return p
}

// ask shows a confirmation over the settings window: text, Cancel (the
// default) and a dangerous ok button that runs do.
func (s *settingsWindow) ask(title, text, ok string, do func()) {
	if s.win == nil {
		s.Show()
	}
	s.confirmText = widget.NewLabel(text)
	s.confirmText.Wrapping = fyne.TextWrapWord
	var d dialog.Dialog
	s.confirmCancel = widget.NewButton("Cancel", func() { d.Hide() })
	s.confirmCancel.Importance = widget.HighImportance
	s.confirmOK = widget.NewButton(ok, func() {
		d.Hide()
		do()
	})
	s.confirmOK.Importance = widget.DangerImportance
	content := container.NewVBox(s.confirmText, container.NewHBox(layout.NewSpacer(), s.confirmOK, s.confirmCancel))
	d = dialog.NewCustomWithoutButtons(title, content, s.win)
	d.Resize(fyne.NewSize(460, 0))
	s.confirm = d
	d.Show()
}
