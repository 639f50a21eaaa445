package ui

import (
	"fyne.io/fyne/v2"

	"github.com/asktray/asktray/ui/internal/uikit"
)

// browserItem is the tray's "Open in browser" submenu: one entry per
// pending question, opening its page (for answering from another screen or
// a phone through an SSH tunnel). It is nil when nothing is pending or the
// app serves no pages. It runs on the Fyne goroutine.
func (t *tray) browserItem() *fyne.MenuItem {
	if t.env.WebURL == nil || len(t.pending) == 0 {
		return nil
	}
	sub := fyne.NewMenu("Open in browser")
	for _, q := range t.pending {
		id := q.ID
		sub.Items = append(sub.Items, fyne.NewMenuItem(questionLabel(q), func() {
			t.openPageOf(id)
		}))
	}
	item := fyne.NewMenuItem("Open in browser", nil)
	item.ChildMenu = sub
	return item
}

// openPageOf opens pending question id's page in the person's browser
// through its forwarding file (app.Env.WebOpenFile), never with the page's
// link on a command line. Runs on the Fyne goroutine.
func (t *tray) openPageOf(id string) {
	if err := uikit.OpenPage(t.app, t.env.WebOpenFile, id); err != nil && t.env.Log != nil {
		t.env.Log.Warn("cannot open the question's page", "err", err)
	}
}
