// Package uikit holds the small pieces of Fyne UI that the tray, the
// question dialog and the history window share: a subdued caption label and
// opening a question's page in the browser. Everything here runs on the Fyne
// goroutine.
package uikit

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

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

// OpenPage opens question id's page in the default browser through a, by
// the forwarding file that forward writes for it (webask.Server.OpenFile):
// the browser's command line (and xdg-open's) names that 0600 file in the
// data dir, never the page's link with its key, which any process of the
// person could read in /proc/PID/cmdline. It returns ErrNoPage when there
// is no forwarder or the question has no page (any more), and the
// forwarder's or the opener's error otherwise. Call it on the Fyne
// goroutine; it writes a small file and does not wait for the browser.
func OpenPage(a fyne.App, forward func(id string) (string, error), id string) error {
	if forward == nil {
		return ErrNoPage
	}
	path, err := forward(id)
	if err != nil {
		return fmt.Errorf("open the question's page: %w", err)
	}
	if !filepath.IsAbs(path) {
		return fmt.Errorf("open the question's page: forwarding file %q is not an absolute path", path)
	}
	return a.OpenURL(FileURL(path))
}

// FileURL returns the file: URL of the absolute path (file:///C:/… for a
// Windows path). Any goroutine may call it.
func FileURL(path string) *url.URL {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return &url.URL{Scheme: "file", Path: p}
}
