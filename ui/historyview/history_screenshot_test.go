package historyview

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/ui/internal/uitheme"
)

// fixedVariantTheme is a theme (the app's, uitheme) held to one variant, so screenshots do
// not depend on the desktop's setting.
type fixedVariantTheme struct {
	fyne.Theme
	variant fyne.ThemeVariant
}

func (t fixedVariantTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.variant)
}

// TestHistory_Screenshots renders the window with realistic content to
// docs/screenshots when ASKTRAY_SCREENSHOTS=1, otherwise into a temporary dir.
func TestHistory_Screenshots(t *testing.T) {
	for _, v := range []struct {
		suffix  string
		variant fyne.ThemeVariant
	}{{"", theme.VariantLight}, {"-dark", theme.VariantDark}} {
		s := historytest.New(t)
		seedHistory(t, s, histSeed)
		x := newHistHarness(t, s)
		x.h.app.Settings().SetTheme(fixedVariantTheme{uitheme.New(), v.variant})
		x.show()
		h := x.h
		h.OnOpenDialog = func(string) {}
		h.win.Resize(fyne.NewSize(1000, 640))
		h.list.Select(1) // the form
		saveHistoryShot(t, h.win.Canvas().Capture(), "history"+v.suffix+".png")

		h.setSearch("tests")
		x.wait()
		h.list.Select(0)
		saveHistoryShot(t, h.win.Canvas().Capture(), "history-search"+v.suffix+".png")

		// Decisions an audit tells apart: allowed, denied, by rule, timed out.
		s = historytest.New(t)
		seedHistory(t, s, auditSeed)
		x = attachHarness(t, h.app, s)
		x.show()
		x.h.win.Resize(fyne.NewSize(1000, 640))
		x.h.list.Select(0)
		saveHistoryShot(t, x.h.win.Canvas().Capture(), "history-verdicts"+v.suffix+".png")
	}
}

func saveHistoryShot(t *testing.T, img image.Image, name string) {
	t.Helper()
	// CI renders them too, into a temporary dir; ASKTRAY_SCREENSHOTS=1
	// writes the committed ones.
	dir := t.TempDir()
	if os.Getenv("ASKTRAY_SCREENSHOTS") == "1" {
		dir = filepath.Join("..", "..", "docs", "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%v)", f.Name(), img.Bounds().Size())
}
