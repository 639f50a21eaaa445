package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/assets"
)

// AppID is the Fyne application ID; it matches FyneApp.toml.
const AppID = "app.asktray.desktop"

// Run shows the tray icon on a and runs Fyne's event loop until ctx is done or
// the person quits. It must be called on the main goroutine. main passes the
// real driver's app (fyneapp.NewWithID(AppID)); keeping that import out of
// this package lets its tests run on Fyne's test driver without cgo.
func Run(ctx context.Context, a fyne.App, env app.Env) error {
	a.SetIcon(assets.Icon)
	t := newTray(a, env)
	t.install()
	stop := env.Broker.Subscribe(func(question.Event) { fyne.Do(t.refresh) })
	defer stop()
	go func() {
		<-ctx.Done()
		fyne.Do(a.Quit)
	}()
	a.Run()
	return nil
}

// tray owns the tray menu and the status window. Its methods run on the Fyne goroutine.
type tray struct {
	app    fyne.App
	env    app.Env
	menu   *fyne.Menu
	count  *fyne.MenuItem
	status fyne.Window

	statusCount *widget.Label
}

func newTray(a fyne.App, env app.Env) *tray {
	t := &tray{app: a, env: env}
	t.count = fyne.NewMenuItem("No pending questions", nil)
	t.count.Disabled = true
	t.menu = fyne.NewMenu("Asktray",
		t.count,
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Status…", t.showStatus),
		fyne.NewMenuItem("Copy MCP URL", func() { a.Clipboard().SetContent(env.URL) }),
	)
	t.statusCount = widget.NewLabel("")
	return t
}

// install puts the icon and menu in the system tray, where the app has one.
func (t *tray) install() {
	if desk, ok := t.app.(desktop.App); ok {
		desk.SetSystemTrayMenu(t.menu)
		desk.SetSystemTrayIcon(assets.TrayIdle)
	}
	t.refresh()
}

// refresh brings the menu, icon and status window up to date with the broker.
func (t *tray) refresh() {
	n := len(t.env.Broker.Pending())
	t.count.Label = pendingLabel(n)
	t.statusCount.SetText(pendingLabel(n))
	if desk, ok := t.app.(desktop.App); ok {
		desk.SetSystemTrayIcon(assets.TrayPendingCount(n))
	}
	t.menu.Refresh()
}

func pendingLabel(n int) string {
	switch n {
	case 0:
		return "No pending questions"
	case 1:
		return "1 pending question"
	}
	return fmt.Sprintf("%d pending questions", n)
}

// showStatus shows the status window, making it on first use. Closing it hides it.
func (t *tray) showStatus() {
	if t.status == nil {
		w := t.app.NewWindow("Asktray")
		url := widget.NewEntry()
		url.SetText(t.env.URL)
		url.Disable()
		w.SetContent(container.NewVBox(
			widget.NewLabelWithStyle("Asktray is running", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
			t.statusCount,
			widget.NewForm(
				widget.NewFormItem("MCP URL", url),
				widget.NewFormItem("Data dir", widget.NewLabel(t.env.DataDir)),
			),
			widget.NewButton("Copy MCP URL", func() { t.app.Clipboard().SetContent(t.env.URL) }),
			widget.NewLabel(strings.TrimSpace("Answer from a terminal with 'asktray pending' and 'asktray answer'.")),
		))
		w.SetCloseIntercept(w.Hide)
		w.Resize(fyne.NewSize(480, 0))
		w.CenterOnScreen()
		t.status = w
	}
	t.status.Show()
	t.status.RequestFocus()
}
