package ui

import (
	"errors"
	"log/slog"
	"net/url"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// newWebButton returns the bar's "Browser" button, whose menu opens the
// question's page in the default browser or copies its link (to answer
// from another device through an SSH tunnel, say), or nil when the app
// serves no page for it. Runs on the Fyne goroutine.
func (d *questionDialog) newWebButton() *dialogButton {
	if d.webURL == nil || d.webURL(d.q.ID) == "" {
		return nil
	}
	d.webButton = newDialogButton(d, "Browser", nil, d.showWebMenu)
	d.webButton.Icon = theme.ComputerIcon()
	d.webButton.Importance = widget.LowImportance
	return d.webButton
}

// webMenu returns the Browser button's choices.
func (d *questionDialog) webMenu() *fyne.Menu {
	return fyne.NewMenu("Browser",
		fyne.NewMenuItem("Open in browser", d.openInBrowser),
		fyne.NewMenuItem("Copy link", d.copyWebLink),
	)
}

// openInBrowser opens the question's page; the link is the app's own, never
// text from the agent. Runs on the Fyne goroutine.
func (d *questionDialog) openInBrowser() {
	u, err := url.Parse(d.webURL(d.q.ID))
	if err == nil && u.Host != "" {
		err = d.app.OpenURL(u)
	} else {
		err = errNoPage
	}
	if err != nil {
		d.showError(err)
	}
}

// copyWebLink puts the question's page link on the clipboard. Runs on the Fyne goroutine.
func (d *questionDialog) copyWebLink() {
	link := d.webURL(d.q.ID)
	if link == "" {
		d.showError(errNoPage)
		return
	}
	d.app.Clipboard().SetContent(link)
}

var errNoPage = errors.New("the question's page is gone: it has ended")

// openPage opens link, a question's page, in the default browser; from the
// notification's "Open in browser". Runs on the Fyne goroutine.
func openPage(a fyne.App, link string, log *slog.Logger) {
	u, err := url.Parse(link)
	if err == nil && u.Host != "" {
		err = a.OpenURL(u)
	} else {
		err = errNoPage
	}
	if err != nil {
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
