package askdialog

import (
	"net/url"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app/question"
)

// TestDialog_BrowserLink: with a page for the question the bar has a
// Browser button whose menu opens the question's forwarding file (the
// link's key on no command line) or copies the link; without one it has
// none.
func TestDialog_BrowserLink(t *testing.T) {
	e := newDialogEnv(t)
	opener := &openerApp{App: e.app}
	e.m.app = opener
	plain := e.ask(question.Question{Kind: question.KindNotice, Message: "Deploy finished."})
	if plain.webButton != nil {
		t.Fatal("a Browser button without a page")
	}
	links := map[string]string{}
	e.m.webURL = func(id string) string { return links[id] }
	none := e.ask(question.Question{Kind: question.KindNotice, Message: "Ended already."})
	if none.webButton != nil {
		t.Fatal("a Browser button for a question without a link")
	}
	// A link for the next question, whatever id the broker gives it.
	e.m.webURL = func(id string) string { return "http://127.0.0.1:7931/q/" + id + "?k=secret" }
	d := e.ask(question.Question{Kind: question.KindConfirm, Message: "Deploy?"})
	if d.webButton == nil || d.webButton.Text != "Browser" {
		t.Fatal("no Browser button")
	}
	test.Tap(d.webButton)
	if d.webPopup == nil || d.win.Canvas().Overlays().Top() == nil {
		t.Fatal("the Browser button shows no menu")
	}
	d.webPopup.Dismiss()
	items := d.webMenu().Items
	if len(items) != 2 || items[0].Label != "Open in browser" || items[1].Label != "Copy link" {
		t.Fatalf("menu %+v", items)
	}
	items[0].Action()
	if len(opener.opened) != 0 {
		t.Fatalf("opened %q without a forwarder", opener.opened)
	}
	d.webOpen = func(id string) (string, error) { return "/data/open-" + id + ".html", nil }
	items[0].Action()
	if want := "file:///data/open-" + d.q.ID + ".html"; len(opener.opened) != 1 || opener.opened[0] != want {
		t.Fatalf("Open in browser opened %q, want %q", opener.opened, want)
	}
	items[1].Action()
	if got := e.app.Clipboard().Content(); got != "http://127.0.0.1:7931/q/"+d.q.ID+"?k=secret" {
		t.Fatalf("clipboard %q", got)
	}
	e.pending(d.q.ID)
}

// openerApp is a test app that records the URLs it is asked to open.
type openerApp struct {
	fyne.App
	opened []string
}

// OpenURL records u.
func (a *openerApp) OpenURL(u *url.URL) error {
	a.opened = append(a.opened, u.String())
	return nil
}
