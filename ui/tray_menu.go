package ui

import (
	"time"

	"fyne.io/fyne/v2"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/ui/internal/uitheme"
)

// menuEvery is how often the day's rule decisions alone may rebuild the
// tray menu. fyne.io/systray sends the tray host two D-Bus signals for each
// item removed or added (about 60 a rebuild), and a busy agent's standing
// rule decides 30 requests a second, each changing the day's counts.
const menuEvery = time.Second

// rebuildNow tells whether the menu must be rebuilt for what it shows, k
// (the pending questions, away, mute, hosts) and counts (the day's rule
// decisions): at once when k changed or the menu was never built; when
// only counts changed and coalesce, at most once every menuEvery, a timer
// rebuilding it when that second ends. It runs on the UI goroutine.
func (t *tray) rebuildNow(k, counts string, coalesce bool) bool {
	if k != t.menuKey || t.menu.Items == nil {
		return true
	}
	if counts == t.menuCounts {
		return false
	}
	wait := menuEvery - t.clock().Sub(t.menuBuilt)
	if !coalesce || wait <= 0 {
		return true
	}
	if !t.menuDue {
		t.menuDue = true
		t.after(wait, func() {
			t.menuDue = false
			t.refresh()
		})
	}
	return false
}

// menuItems builds the tray menu from t.pending: one item per pending
// question, marked with a dot in its agent's colour, then the app's
// commands. Quit is ours, last, so Fyne adds none.
func (t *tray) menuItems() []*fyne.MenuItem {
	count := fyne.NewMenuItem(present.WaitingLabel(present.Waiting(t.pending)), nil)
	count.Disabled = true
	items := []*fyne.MenuItem{count}
	for _, q := range t.pending {
		label := questionLabel(q)
		if !q.SnoozeUntil.IsZero() {
			label += " (snoozed)"
		}
		if q.DeliverTo == question.DeliverClient {
			label += " (answering in " + q.Client.DisplayName() + ")"
		}
		id := q.ID
		item := fyne.NewMenuItem(label, func() {
			if t.open != nil {
				t.open(id)
			}
		})
		// A dot in the agent's colour, as the dialog's bar (issue 38 item 12).
		item.Icon = uitheme.AgentIcon(q.Client.Name, t.app.Settings().ThemeVariant())
		items = append(items, item)
	}
	if web := t.browserItem(); web != nil {
		items = append(items, web)
	}
	if ruled := t.dayItem(); ruled != nil {
		items = append(items, fyne.NewMenuItemSeparator(), ruled)
	}
	if hosts := t.remoteHostsItem(); hosts != nil {
		items = append(items, fyne.NewMenuItemSeparator(), hosts)
	}
	return append(items,
		fyne.NewMenuItemSeparator(),
		t.awayItem(),
		fyne.NewMenuItem("History…", t.history.Show),
		fyne.NewMenuItem("Status…", t.showStatus),
		fyne.NewMenuItem("Copy MCP URL", func() { t.app.Clipboard().SetContent(t.url()) }),
		fyne.NewMenuItem("Connect a client…", t.connect.Show),
		fyne.NewMenuItem("Welcome…", t.welcome.Show),
		fyne.NewMenuItem("Settings…", t.settings.Show),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Quit", t.confirmQuit),
	)
}
