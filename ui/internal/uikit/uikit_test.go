package uikit

import (
	"errors"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// TestOpenPage: the browser is handed the forwarding file's file: URL,
// never the page's link with its key; no forwarder, or a question without
// a page, opens nothing and says why.
func TestOpenPage(t *testing.T) {
	a := &openerApp{App: test.NewTempApp(t)}
	if err := OpenPage(a, nil, "q1"); !errors.Is(err, ErrNoPage) {
		t.Errorf("OpenPage without a forwarder = %v, want ErrNoPage", err)
	}
	gone := func(string) (string, error) { return "", errors.New("the question's page is gone: it has ended") }
	if err := OpenPage(a, gone, "q1"); err == nil || !strings.Contains(err.Error(), "gone") {
		t.Errorf("OpenPage of an ended question = %v, want its error", err)
	}
	relative := func(string) (string, error) { return "open-x.html", nil }
	if err := OpenPage(a, relative, "q1"); err == nil {
		t.Error("OpenPage opened a relative path")
	}
	if len(a.opened) != 0 {
		t.Fatalf("opened %v for questions without a page", a.opened)
	}
	file := filepath.Join(t.TempDir(), "open-abc.html")
	var asked string
	forward := func(id string) (string, error) { asked = id; return file, nil }
	if err := OpenPage(a, forward, "q1"); err != nil {
		t.Fatal(err)
	}
	if asked != "q1" {
		t.Fatalf("forwarder asked for %q, want q1", asked)
	}
	want := "file://" + filepath.ToSlash(file)
	if len(a.opened) != 1 || a.opened[0] != want {
		t.Fatalf("opened %v, want %q", a.opened, want)
	}
}

// TestFileURL: a Windows path becomes file:///C:/…, a Unix one file:///….
func TestFileURL(t *testing.T) {
	if got := FileURL("/home/me/.local/share/asktray/open-1.html").String(); got != "file:///home/me/.local/share/asktray/open-1.html" {
		t.Errorf("unix path: %q", got)
	}
	if got := (&url.URL{Scheme: "file", Path: "/C:/x"}).String(); FileURL("C:/x").String() != got {
		t.Errorf("windows path: %q, want %q", FileURL("C:/x"), got)
	}
}

type openerApp struct {
	fyne.App
	opened []string
}

func (a *openerApp) OpenURL(u *url.URL) error {
	a.opened = append(a.opened, u.String())
	return nil
}
