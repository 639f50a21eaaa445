package ui

import (
	"log/slog"

	"fyne.io/fyne/v2"

	"github.com/asktray/asktray/ui/internal/uikit"
)

// openPage opens link, a question's page, in the default browser; from the
// notification's "Open in browser". Runs on the Fyne goroutine.
func openPage(a fyne.App, link string, log *slog.Logger) {
	if err := uikit.OpenPage(a, link); err != nil {
		log.Warn("cannot open the question's page", "err", err)
	}
}

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
			if link := t.env.WebURL(id); link != "" {
				t.openLink(link)
			}
		}))
	}
	item := fyne.NewMenuItem("Open in browser", nil)
	item.ChildMenu = sub
	return item
}

// openLink opens link in the person's browser; tests replace it.
func (t *tray) openLink(link string) {
	if t.openURL != nil {
		t.openURL(link)
		return
	}
	openPage(t.app, link, t.env.Log)
}
