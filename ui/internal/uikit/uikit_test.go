package uikit

import (
	"errors"
	"net/url"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// TestOpenPage: a link without a host is refused as ErrNoPage and opens
// nothing; a page link reaches the app's opener unchanged.
func TestOpenPage(t *testing.T) {
	a := &openerApp{App: test.NewTempApp(t)}
	for _, link := range []string{"", "/q/abc", "not a url\x7f"} {
		if err := OpenPage(a, link); !errors.Is(err, ErrNoPage) {
			t.Errorf("OpenPage(%q) = %v, want ErrNoPage", link, err)
		}
	}
	if len(a.opened) != 0 {
		t.Fatalf("opened %v for links without a page", a.opened)
	}
	link := "http://127.0.0.1:7931/q/abc?k=key"
	if err := OpenPage(a, link); err != nil {
		t.Fatal(err)
	}
	if len(a.opened) != 1 || a.opened[0] != link {
		t.Fatalf("opened %v, want %q", a.opened, link)
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
