package askdialog

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/ui/internal/uikit"
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

// openInBrowser opens the question's page through its forwarding file, so
// that its key is on no command line. Runs on the Fyne goroutine.
func (d *questionDialog) openInBrowser() {
	if err := uikit.OpenPage(d.app, d.webOpen, d.q.ID); err != nil {
		d.showError(err)
	}
}

// copyWebLink puts the question's page link on the clipboard. Runs on the Fyne goroutine.
func (d *questionDialog) copyWebLink() {
	link := d.webURL(d.q.ID)
	if link == "" {
		d.showError(uikit.ErrNoPage)
		return
	}
	d.app.Clipboard().SetContent(link)
}
