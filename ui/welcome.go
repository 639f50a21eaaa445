package ui

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/clientsetup"
	"github.com/asktray/asktray/app/doctor"
	"github.com/asktray/asktray/app/settings"
	"github.com/asktray/asktray/ui/internal/uikit"
)

// welcomeTitle is the first-run window's title.
const welcomeTitle = "Welcome to Asktray"

// welcomeText says what Asktray is, in a few sentences.
const welcomeText = "Asktray is where your coding agents ask you things. When an agent such as Claude Code or Codex " +
	"wants to run a command, change a file or needs a decision, a window comes up here and waits for you: you " +
	"allow, deny or answer, and the agent goes on. Nothing is allowed unless you say so, or a rule you made does.\n\n" +
	"Agents reach Asktray in two ways: its MCP server (tools an agent calls to ask you) and the agent's own hooks " +
	"(its permission prompts come here). Connect writes both into the agent's own files, keeping everything else " +
	"there, with a backup."

// welcomeWindow is the first-run window: what Asktray is, the agents found
// on this machine with a button to connect each (clientsetup.Connect, as
// 'asktray connect AGENT'), and a test question sent through the connected
// agents' hooks as the doctor's test sends it. The tray shows it on the
// first start (settings.Welcomed) and from Welcome…. Its methods run on
// the Fyne goroutine.
type welcomeWindow struct {
	app     fyne.App
	connect *connectWindow // Connect a client…, and what the check reads of the app
	sys     func() (clientsetup.Sys, error)
	win     fyne.Window

	rows   *fyne.Container
	none   *widget.Label // no agent found
	result *widget.Label // what the last connect or test did
	test   *widget.Button
	// agents are the rows' controls by agent name, as last listed.
	agents map[string]*welcomeRow
	// tested, if set, learns each test's report, on the Fyne goroutine.
	tested func(doctor.Report)
}

// welcomeRow is one agent's line: its name, why it was found, whether it
// is connected, and its Connect button.
type welcomeRow struct {
	agent  clientsetup.Agent
	state  *widget.Label
	button *widget.Button
}

func newWelcomeWindow(a fyne.App, c *connectWindow) *welcomeWindow {
	w := &welcomeWindow{app: a, connect: c, sys: clientsetup.System, agents: map[string]*welcomeRow{}}
	w.rows = container.NewVBox()
	w.none = widget.NewLabel("No agent was found on this machine (none of their programs on PATH, none of their folders in your home). " +
		"Connect a client… sets up any of them by hand.")
	w.none.Wrapping = fyne.TextWrapWord
	w.none.Hide()
	w.result = widget.NewLabel("")
	w.result.Wrapping = fyne.TextWrapWord
	w.test = widget.NewButton("Send a test question", w.sendTest)
	return w
}

// Show shows the window, making it on first use, with the agents as this
// machine has them now; closing it hides it.
func (w *welcomeWindow) Show() {
	if w.win == nil {
		win := w.app.NewWindow(welcomeTitle)
		intro := widget.NewLabel(welcomeText)
		intro.Wrapping = fyne.TextWrapWord
		closeButton := widget.NewButton("Close", func() { win.Hide() })
		buttons := container.NewHBox(w.test, layout.NewSpacer(), widget.NewButton("Connect a client…", w.connect.Show), closeButton)
		top := container.NewVBox(intro, widget.NewLabelWithStyle("Agents on this machine", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		bottom := container.NewVBox(w.result, buttons)
		win.SetContent(uikit.RepaintOnResize(container.NewPadded(container.NewBorder(top, bottom, nil, nil,
			container.NewVScroll(container.NewVBox(w.none, w.rows))))))
		win.SetCloseIntercept(win.Hide)
		win.Resize(fyne.NewSize(680, 600))
		win.CenterOnScreen()
		w.win = win
	}
	w.list()
	w.win.Show()
	w.win.RequestFocus()
}

// list shows the agents found on this machine, each with whether it is
// connected. It reads small files on the Fyne goroutine.
func (w *welcomeWindow) list() {
	sys, err := w.sys()
	if err != nil {
		w.result.SetText(err.Error())
		return
	}
	w.rows.RemoveAll()
	w.agents = map[string]*welcomeRow{}
	for _, a := range clientsetup.Detect(sys) {
		if a.Found == "" {
			continue
		}
		r := &welcomeRow{agent: a, state: widget.NewLabel("")}
		r.button = widget.NewButton("Connect", func() { w.connectAgent(r) })
		r.button.Importance = widget.HighImportance
		w.agents[a.Name] = r
		w.showState(r, sys)
		name := widget.NewLabelWithStyle(a.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		found := uikit.SmallLabel("found: " + a.Found + " · " + connectWhat(a))
		w.rows.Add(container.NewBorder(nil, nil, nil, container.NewCenter(container.NewHBox(r.state, r.button)), container.NewVBox(name, found)))
	}
	if len(w.agents) == 0 {
		w.none.Show()
	} else {
		w.none.Hide()
	}
}

// connectWhat says what Connect writes for a.
func connectWhat(a clientsetup.Agent) string {
	switch {
	case a.MCP && a.Hooks:
		return "MCP server and hooks"
	case a.Hooks:
		return "hooks"
	}
	return "MCP server"
}

// showState says whether r's agent is connected, as its files hold it
// now, and offers Connect while it is not. It reads small files.
func (w *welcomeWindow) showState(r *welcomeRow, sys clientsetup.Sys) {
	c, err := clientsetup.Connected(r.agent.Name, sys, w.connect.dataDir)
	switch {
	case err != nil:
		r.state.SetText("cannot tell")
		r.state.Importance = widget.DangerImportance
	case c.Done():
		r.state.SetText("Connected")
		r.state.Importance = widget.SuccessImportance
	case c.MCP || c.Hooks > 0:
		r.state.SetText("Partly connected")
		r.state.Importance = widget.WarningImportance
	default:
		r.state.SetText("Not connected")
		r.state.Importance = widget.MediumImportance
	}
	r.state.Refresh()
	if err == nil && c.Done() {
		r.button.SetText("Connect again")
		r.button.Importance = widget.LowImportance
	} else {
		r.button.SetText("Connect")
		r.button.Importance = widget.HighImportance
	}
	r.button.Refresh()
}

// connectAgent writes r's agent's MCP entry (with the app's URL and token
// as they are now) and its hooks, and shows what it did. It writes small
// files on the Fyne goroutine.
func (w *welcomeWindow) connectAgent(r *welcomeRow) {
	sys, err := w.sys()
	if err != nil {
		w.result.SetText(err.Error())
		return
	}
	url, token := w.connect.endpoint()
	var out bytes.Buffer
	err = clientsetup.Connect(r.agent.Name, sys, w.connect.dataDir, clientsetup.Server{URL: url, Token: token, Running: url != ""},
		w.connect.deadline(), &out)
	text := r.agent.Title + " is connected. " + strings.TrimSpace(out.String())
	if err != nil {
		text = "Connecting " + r.agent.Title + " failed: " + err.Error() + "\n" + strings.TrimSpace(out.String())
	}
	w.result.SetText(text)
	w.showState(r, sys)
}

// sendTest sends a test request through each connected agent's installed
// hook command, as the agent runs it (the doctor's test, app/doctor): each
// shows as a notification, and the window says which reached Asktray. It
// runs the check in the background and returns at once.
func (w *welcomeWindow) sendTest() {
	env, err := w.connect.doctorEnv()
	if err != nil {
		w.result.SetText(err.Error())
		return
	}
	env.Test = true
	titles := map[string]string{}
	for name, r := range w.agents {
		titles[name] = r.agent.Title
	}
	w.test.Disable()
	w.result.SetText("Sending a test question through each connected agent's hooks…")
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), doctorTimeout)
		defer cancel()
		r := doctor.Check(ctx, env)
		text := testSummary(r, titles)
		fyne.Do(func() {
			w.result.SetText(text)
			w.test.Enable()
			if w.tested != nil {
				w.tested(r)
			}
		})
	}()
}

// testSummary says, per agent (by its title in titles, or its name),
// whether the check's test request reached Asktray; any goroutine may call
// it.
func testSummary(r doctor.Report, titles map[string]string) string {
	titleOf := func(name string) string {
		if t := titles[name]; t != "" {
			return t
		}
		return name
	}
	var b strings.Builder
	for _, l := range r.Lines {
		if l.What != "test" {
			continue
		}
		switch l.Status {
		case doctor.Fine:
			fmt.Fprintf(&b, "✓ %s: the test reached Asktray and shows as a notification; nothing was allowed.\n", titleOf(l.Client))
		case doctor.Problem:
			fmt.Fprintf(&b, "✗ %s: %s\n", titleOf(l.Client), l.Text)
		default:
			fmt.Fprintf(&b, "%s: %s\n", titleOf(l.Client), l.Text)
		}
	}
	if b.Len() == 0 {
		return "No agent's hooks are installed yet: connect an agent first. The test goes through its hooks as the agent runs them."
	}
	return strings.TrimSpace(b.String())
}

// welcomeOnFirstRun shows the first-run window when the data dir says the
// app has not shown it yet (settings.Welcomed), recording first that it
// did, so it comes up once; Welcome… brings it back. Runs on the Fyne
// goroutine.
func (t *tray) welcomeOnFirstRun() {
	first := t.env.DataDir != "" && !settings.Welcomed(t.env.DataDir)
	if t.env.Log != nil {
		t.env.Log.Info("first-run window", "shown", first)
	}
	if !first {
		return
	}
	if err := settings.MarkWelcomed(t.env.DataDir); err != nil && t.env.Log != nil {
		t.env.Log.Warn("first-run window", "err", err)
	}
	t.welcome.Show()
}
