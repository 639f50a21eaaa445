package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/clientsetup"
)

// connectWindow shows how to connect each MCP client: what 'asktray config
// CLIENT' prints, with copy buttons. It reads the MCP URL and token each
// time it shows a setup, so a moved port or a new token shows at once. Its
// methods run on the Fyne goroutine.
type connectWindow struct {
	app      fyne.App
	dataDir  string
	endpoint func() (url, token string)
	win      fyne.Window

	client      *widget.Select
	text        *widget.Label
	copySnippet *widget.Button
	copyCommand *widget.Button
	setup       clientsetup.Setup
}

func newConnectWindow(a fyne.App, dataDir string, endpoint func() (url, token string)) *connectWindow {
	c := &connectWindow{app: a, dataDir: dataDir, endpoint: endpoint}
	c.text = widget.NewLabel("")
	c.text.Wrapping = fyne.TextWrapWord
	c.text.TextStyle = fyne.TextStyle{Monospace: true}
	c.copySnippet = widget.NewButton("Copy config entry", func() { a.Clipboard().SetContent(c.setup.Snippet) })
	c.copySnippet.Importance = widget.HighImportance
	c.copyCommand = widget.NewButton("Copy command", func() { a.Clipboard().SetContent(c.setup.Command) })
	c.client = widget.NewSelect(clientsetup.Clients(), c.choose)
	return c
}

// choose shows the setup of client.
func (c *connectWindow) choose(client string) {
	url, token := c.endpoint()
	s, err := clientsetup.For(client, c.dataDir, url, token)
	if err != nil {
		c.text.SetText(err.Error())
		return
	}
	c.setup = s
	c.text.SetText(s.Text)
	if s.Command == "" {
		c.copyCommand.Hide()
	} else {
		c.copyCommand.Show()
	}
}

// Show shows the window, making it on first use; closing it hides it.
func (c *connectWindow) Show() {
	if c.win == nil {
		w := c.app.NewWindow("Connect a client")
		top := container.NewBorder(nil, nil, widget.NewLabel("Client"), nil, c.client)
		bottom := container.NewHBox(c.copyCommand, c.copySnippet)
		hint := widget.NewLabel("Or run 'asktray config CLIENT --write' to add it to the client's config file.")
		hint.Wrapping = fyne.TextWrapWord
		w.SetContent(container.NewBorder(top, container.NewVBox(hint, bottom), nil, nil, container.NewVScroll(c.text)))
		w.SetCloseIntercept(w.Hide)
		w.Resize(fyne.NewSize(720, 560))
		w.CenterOnScreen()
		c.win = w
		if c.client.Selected == "" {
			c.client.SetSelected(clientsetup.Clients()[0])
		}
	}
	c.refresh()
	c.win.Show()
	c.win.RequestFocus()
}

// refresh shows the chosen client's setup again, with the URL and token as
// they are now.
func (c *connectWindow) refresh() {
	if c.client.Selected != "" {
		c.choose(c.client.Selected)
	}
}

// envEndpoint returns env.Endpoint, or a func giving env's URL and token
// when the app gives none (tests).
func envEndpoint(env app.Env) func() (url, token string) {
	if env.Endpoint != nil {
		return env.Endpoint
	}
	return func() (string, string) { return env.URL, env.Token }
}
