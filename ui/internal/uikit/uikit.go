// Package uikit holds the small pieces of Fyne UI that the tray, the
// question dialog and the history window share: a subdued caption label and
// opening a question's page in the browser. Everything here runs on the Fyne
// goroutine.
package uikit

import (
	"errors"
	"net/url"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// SmallLabel returns a small, subdued label. Call it on the Fyne goroutine.
func SmallLabel(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.SizeName = theme.SizeNameCaptionText
	l.Importance = widget.LowImportance
	return l
}

// ErrNoPage is OpenPage's error for a question that has no page (any more).
var ErrNoPage = errors.New("the question's page is gone: it has ended")

// OpenPage opens link, a question's page (the app's own link, never text
// from an agent), in the default browser through a. It returns ErrNoPage
// when link is empty or has no host, and the opener's error otherwise. Call
// it on the Fyne goroutine; it does not wait for the browser.
func OpenPage(a fyne.App, link string) error {
	u, err := url.Parse(link)
	if err != nil || u.Host == "" {
		return ErrNoPage
	}
	return a.OpenURL(u)
}
