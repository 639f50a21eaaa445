package ui

import (
	"context"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/clientsetup"
	"github.com/asktray/asktray/app/doctor"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/settings"
)

// The two setups the window offers for an agent that has hooks.
const (
	setupMCP   = "MCP server"
	setupHooks = "Permission hooks"
)

// connectWindow shows how to connect each MCP client: what 'asktray config
// CLIENT' prints, with copy buttons; for an agent with hooks (app/hook's
// agent table) it also offers its permission hooks, with buttons that
// install or remove them. It reads the MCP URL, token and deadline each time
// it shows a setup, so a moved port or a new token shows at once. Its
// methods run on the Fyne goroutine.
type connectWindow struct {
	app      fyne.App
	dataDir  string
	endpoint func() (url, token string)
	deadline func() time.Duration
	win      fyne.Window

	client      *widget.Select
	kind        *widget.RadioGroup
	text        *widget.Label // shown holds its text unmasked
	hint        *widget.Label
	installed   *widget.Label // whether the agent's hooks are installed
	copySnippet *widget.Button
	copyCommand *widget.Button
	install     *widget.Button
	remove      *widget.Button
	check       *widget.Button  // Check setup: the doctor (connect_doctor.go)
	buttons     *fyne.Container // the row of buttons under the setup
	snippet     string
	command     string
	shown       string

	// remote is the Remote hosts tab (connect_remote.go), nil when the
	// app serves no hosts; tabs hold it beside the clients' setup.
	remote *remoteTab
	tabs   *container.AppTabs

	// The token row (connect_token.go): the token masked until Show.
	tokenRow             *fyne.Container
	token                *widget.Label
	showToken, copyToken *widget.Button
	reveal               bool

	// notice confirms that the app shows a test request's notice; the tray
	// sets it. testRequests sends them (tests turn it off); checked, if
	// set, learns each report, on the Fyne goroutine.
	notice       func(ctx context.Context, id string) error
	testRequests bool
	checked      func(doctor.Report)
	// run, if set, runs the test requests' hook commands in place of a
	// process (doctor.Env.Run; tests).
	run func(ctx context.Context, argv []string, stdin []byte) (stdout, stderr []byte, err error)
}

func newConnectWindow(a fyne.App, dataDir string, endpoint func() (url, token string)) *connectWindow {
	c := &connectWindow{app: a, dataDir: dataDir, endpoint: endpoint, deadline: func() time.Duration { return settingsDeadline(dataDir) }, testRequests: true}
	c.text = widget.NewLabel("")
	c.text.Wrapping = fyne.TextWrapWord
	c.text.TextStyle = fyne.TextStyle{Monospace: true}
	c.hint = widget.NewLabel("")
	c.hint.Wrapping = fyne.TextWrapWord
	c.copySnippet = widget.NewButton("Copy config entry", func() { a.Clipboard().SetContent(c.snippet) })
	c.copySnippet.Importance = widget.HighImportance
	c.copyCommand = widget.NewButton("Copy command", func() { a.Clipboard().SetContent(c.command) })
	c.install = widget.NewButton("Install hooks", func() { c.applyHooks(false) })
	c.install.Importance = widget.HighImportance
	c.remove = widget.NewButtonWithIcon("Remove hooks", theme.DeleteIcon(), func() { c.applyHooks(true) })
	c.remove.Importance = widget.LowImportance
	c.installed = widget.NewLabel("")
	c.installed.Wrapping = fyne.TextWrapWord
	c.check = widget.NewButton("Check setup", c.checkSetup)
	c.newTokenRow()
	c.kind = widget.NewRadioGroup([]string{setupMCP, setupHooks}, func(string) { c.refresh() })
	c.kind.Horizontal = true
	c.kind.Required = true
	c.kind.Selected = setupMCP
	c.client = widget.NewSelect(clientsetup.Clients(), c.choose)
	return c
}

// settingsDeadline is the person's question deadline: the
// default_timeout_seconds setting of dir, or the default.
func settingsDeadline(dir string) time.Duration {
	if s, err := settings.Load(dir); err == nil && s.DefaultTimeoutSeconds > 0 {
		return question.ClampTimeout(time.Duration(s.DefaultTimeoutSeconds) * time.Second)
	}
	return question.DefaultTimeout
}

// hooks reports whether the window shows client's hooks rather than its MCP
// server.
func (c *connectWindow) hooks(client string) bool {
	return c.kind.Selected == setupHooks && slices.Contains(clientsetup.HookAgents(), client)
}

// choose shows the setup of client.
func (c *connectWindow) choose(client string) {
	if slices.Contains(clientsetup.HookAgents(), client) {
		c.kind.Show()
	} else {
		c.kind.Hide()
	}
	if c.hooks(client) {
		c.chooseHooks(client)
		return
	}
	c.install.Hide()
	c.remove.Hide()
	c.installed.Hide()
	c.copySnippet.SetText("Copy config entry")
	c.copySnippet.Importance = widget.HighImportance
	c.copySnippet.Refresh()
	c.hint.SetText("Or run 'asktray config CLIENT --write' to add it to the client's config file.")
	url, token := c.endpoint()
	c.showTokenRow(token)
	s, err := clientsetup.For(client, c.dataDir, url, token)
	if err != nil {
		c.setText(err.Error())
		return
	}
	c.snippet, c.command = s.Snippet, s.Command
	c.setText(s.Text)
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
		top := container.NewVBox(container.NewBorder(nil, nil, widget.NewLabel("Client"), nil, c.client), c.kind, c.tokenRow)
		// Check setup ends the row: it is the last step, after installing, and a
		// fixed place (the right edge) for a person and for the Xvfb test alike.
		c.buttons = container.NewHBox(c.install, c.remove, layout.NewSpacer(), c.copyCommand, c.copySnippet, c.check)
		bottom := container.NewVBox(c.installed, c.hint, c.buttons)
		var content fyne.CanvasObject = container.NewBorder(top, bottom, nil, nil, container.NewVScroll(c.text))
		if c.remote != nil {
			c.tabs = container.NewAppTabs(container.NewTabItem("Clients", content), container.NewTabItem("Remote hosts", c.remote.root))
			c.tabs.OnSelected = func(*container.TabItem) { c.remote.refresh() }
			content = c.tabs
		}
		w.SetContent(container.NewPadded(content))
		w.SetCloseIntercept(w.Hide)
		w.Resize(fyne.NewSize(720, 560))
		w.CenterOnScreen()
		c.win = w
		if c.client.Selected == "" {
			c.client.SetSelected(clientsetup.Clients()[0])
		}
	}
	c.reveal = false // shown again, the token is masked again
	c.refresh()
	if c.remote != nil {
		c.remote.refresh()
	}
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

// envEndpoint returns env.Endpoint, or one that gives nothing when the app
// gives none (tests of other windows).
func envEndpoint(env app.Env) func() (url, token string) {
	if env.Endpoint != nil {
		return env.Endpoint
	}
	return func() (string, string) { return "", "" }
}
