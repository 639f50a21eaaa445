package ui

import (
	"os"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"fyne.io/systray"
	"github.com/godbus/dbus/v5"

	"github.com/asktray/asktray/ui/internal/uikit"
)

// statusPendingMax is how many pending questions the status window lists
// by name; a line counts the rest.
const statusPendingMax = 8

// trayHostGrace is how long the app waits, when it finds no tray host,
// before telling the person: at login the app may start a moment before
// the panel whose tray it belongs in.
const trayHostGrace = 5 * time.Second

// statusWindow is the status window's parts that change. Its fields are
// used on the Fyne goroutine.
type statusWindow struct {
	win     fyne.Window
	hint    *widget.Label // how to reach Asktray without a tray; hidden while there is one
	url     *widget.Entry
	pending *fyne.Container // one button per pending question
	away    *widget.Check
	hosts   *widget.Label  // the remote hosts' connections; hidden when there are none
	awayFor *widget.Select // away until a time: for an hour, until tomorrow 09:00…
}

// showStatus shows the status window, making it on first use. Closing it
// hides it. It is a complete home where there is no tray icon: the pending
// questions, Away, History, Settings, Connect, Copy MCP URL and Quit. Runs
// on the Fyne goroutine.
func (t *tray) showStatus() {
	if t.status == nil {
		t.status = t.newStatusWindow()
	}
	t.status.url.SetText(t.url())
	t.refreshStatus()
	t.status.win.Show()
	t.status.win.RequestFocus()
}

func (t *tray) newStatusWindow() *statusWindow {
	w := t.app.NewWindow("Asktray")
	s := &statusWindow{win: w, url: widget.NewEntry(), pending: container.NewVBox()}
	s.hint = widget.NewLabel(noTrayHint(os.Getenv("XDG_CURRENT_DESKTOP")))
	s.hint.Wrapping = fyne.TextWrapWord
	s.hint.Importance = widget.WarningImportance
	s.hint.Hide()
	s.hosts = widget.NewLabel("")
	s.hosts.Wrapping = fyne.TextWrapWord
	s.hosts.Hide()
	s.away = widget.NewCheck("Away (do not disturb)", func(on bool) {
		if on != t.away {
			t.setAway(on)
		}
	})
	s.awayFor = widget.NewSelect(nil, func(label string) {
		if label == "" {
			return
		}
		s.awayFor.ClearSelected() // a choice, not a state: the check says away
		for _, c := range awayChoices(time.Now()) {
			if c.label == label {
				t.setAwayUntil(c.until)
			}
		}
	})
	s.awayFor.PlaceHolder = "Away until…"
	// Repainted at its first configure: on sway it opened blank otherwise.
	w.SetContent(uikit.RepaintOnResize(container.NewVBox(
		s.hint,
		widget.NewLabelWithStyle("Asktray is running", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		t.statusCount,
		s.pending,
		s.hosts,
		container.NewHBox(s.away, s.awayFor),
		widget.NewForm(
			widget.NewFormItem("MCP URL", s.url),
			widget.NewFormItem("Data dir", widget.NewLabel(t.env.DataDir)),
		),
		container.NewGridWithColumns(4,
			widget.NewButton("History…", t.history.Show),
			widget.NewButton("Settings…", t.settings.Show),
			widget.NewButton("Connect a client…", t.connect.Show),
			widget.NewButton("Welcome…", t.welcome.Show),
			widget.NewButton("Copy MCP URL", func() { t.app.Clipboard().SetContent(t.url()) }),
			widget.NewButton("Hide", w.Hide),
			widget.NewButton("Quit", t.confirmQuit),
		),
	)))
	w.SetCloseIntercept(w.Hide)
	w.Resize(fyne.NewSize(600, 0))
	w.CenterOnScreen()
	return s
}

// refreshStatus brings the status window, if made, up to date with the
// pending questions, away and the tray host. Runs on the Fyne goroutine.
func (t *tray) refreshStatus() {
	s := t.status
	if s == nil {
		return
	}
	s.away.SetChecked(t.away)
	t.refreshRemoteHosts()
	s.away.Text = "Away (do not disturb)"
	if until := t.awayUntil(); !until.IsZero() {
		s.away.Text += " until " + until.Local().Format("15:04")
	}
	s.away.Refresh()
	var labels []string
	for _, c := range awayChoices(time.Now()) {
		labels = append(labels, c.label)
	}
	s.awayFor.SetOptions(labels)
	if t.hostKnown && !t.hostPresent {
		s.hint.Show()
	} else {
		s.hint.Hide()
	}
	var items []fyne.CanvasObject
	for i, q := range t.pending {
		if i == statusPendingMax {
			items = append(items, widget.NewLabel("… and more: the count above has them all"))
			break
		}
		id := q.ID
		b := widget.NewButton(questionLabel(q), func() {
			if t.open != nil {
				t.open(id)
			}
		})
		b.Alignment = widget.ButtonAlignLeading
		items = append(items, b)
	}
	s.pending.Objects = items
	s.pending.Refresh()
}

// followTrayHost starts watching for a tray host on the session bus and
// returns what stops it. Where there is no session bus it logs why and
// does nothing. Call it on the Fyne goroutine or before a.Run.
func (t *tray) followTrayHost() (stop func()) {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.env.Log.Info("no session bus: cannot tell whether a tray shows the icon", "err", err)
		return func() {}
	}
	w, err := watchTrayHost(conn, func(present bool) { t.gate.do(func() { t.trayHostChanged(present) }) })
	if err != nil {
		conn.Close()
		t.env.Log.Info("cannot follow the tray host", "err", err)
		return func() {}
	}
	return w.Close
}

// trayHostChanged follows the tray host coming or going. When there is
// none for trayHostGrace, and the person was not told yet this run, it
// tells them once (noTrayHost). Runs on the Fyne goroutine.
func (t *tray) trayHostChanged(present bool) {
	was := t.hostKnown && t.hostPresent
	t.hostKnown, t.hostPresent = true, present
	t.refreshStatus()
	switch {
	case present && !was:
		t.env.Log.Info("a tray host is there: the tray icon shows")
	case !present:
		t.env.Log.Warn("no tray host (org.kde.StatusNotifierWatcher) on the session bus: the tray icon shows nowhere")
		if !t.toldNoHost {
			time.AfterFunc(t.hostGrace, func() {
				t.gate.do(func() {
					if !t.hostPresent {
						t.noTrayHost()
					}
				})
			})
		}
	}
}

// noTrayHost tells the person, once a run, that there is no tray icon and
// how to reach Asktray: it shows the status window, which says it and holds
// everything the tray menu does, and a notification. Runs on the Fyne
// goroutine.
func (t *tray) noTrayHost() {
	if t.toldNoHost {
		return
	}
	t.toldNoHost = true
	t.showStatus()
	if t.note != nil {
		t.note.queueRuled("Asktray has no tray icon here", noTrayHint(os.Getenv("XDG_CURRENT_DESKTOP")), nil)
	}
}

// serveTrayClicks makes a click on the tray icon call open, on a D-Bus
// goroutine: swaybar (and other hosts without a menu of their own) calls
// the StatusNotifierItem's Activate on a left click and ContextMenu on a
// right one, which fyne.io/systray answers with "unknown method" until
// handlers are set. Hosts that draw the menu themselves (KDE, GNOME's
// extension) still show it on a right click. The handlers must be set
// before a.Run, when the item is exported: its ItemIsMenu property is
// computed then, false once they are set.
func serveTrayClicks(open func()) {
	systray.SetOnTapped(open)          // Activate
	systray.SetOnSecondaryTapped(open) // ContextMenu and SecondaryActivate
}
