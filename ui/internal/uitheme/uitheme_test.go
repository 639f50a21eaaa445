package uitheme

import (
	"fmt"
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// TestContrastMatchesWCAG checks the ratio against values WCAG's own
// formula gives: black on white, a colour on itself, #777 on white (just
// under AA) and Fyne's dark secondary text on its background.
func TestContrastMatchesWCAG(t *testing.T) {
	for _, c := range []struct {
		a, b color.Color
		want float64
	}{
		{color.Black, color.White, 21},
		{rgb(0x808080), rgb(0x808080), 1},
		{rgb(0x777777), color.White, 4.48},
		{rgb(0x39393a), rgb(0x171718), 1.55},
	} {
		if got := Contrast(c.a, c.b); math.Abs(got-c.want) > 0.01 {
			t.Errorf("Contrast(%v, %v) = %.3f, want %.2f", c.a, c.b, got, c.want)
		}
	}
	if got := Over(color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0x80}, color.Black); Contrast(got, rgb(0x808080)) > 1.01 {
		t.Errorf("half white over black = %v, want about #808080", got)
	}
}

// surfaces are what text is drawn on: the window, an input, a button (its
// label), a disabled button, a dialog's overlay, a menu, a list header,
// and the window under the hover and focus highlights (an option row).
func surfaces(th fyne.Theme, v fyne.ThemeVariant) map[string]color.Color {
	bg := th.Color(theme.ColorNameBackground, v)
	out := map[string]color.Color{"hover": Over(th.Color(theme.ColorNameHover, v), bg),
		"focus": Over(th.Color(theme.ColorNameFocus, v), bg)}
	for _, n := range []fyne.ThemeColorName{theme.ColorNameBackground, theme.ColorNameInputBackground,
		theme.ColorNameButton, theme.ColorNameDisabledButton, theme.ColorNameOverlayBackground,
		theme.ColorNameMenuBackground, theme.ColorNameHeaderBackground} {
		out[string(n)] = th.Color(n, v)
	}
	return out
}

// textColors are the theme colours the app letters text in: labels of
// every importance (a low-importance label, the secondary text of the
// header line, key hints, descriptions and "Suggestions:", is the
// disabled colour), placeholders, links.
var textColors = []fyne.ThemeColorName{theme.ColorNameForeground, theme.ColorNameDisabled,
	theme.ColorNamePlaceHolder, theme.ColorNamePrimary, theme.ColorNameHyperlink,
	theme.ColorNameError, theme.ColorNameWarning, theme.ColorNameSuccess}

// onColors are the letters of filled buttons and badges, on their fill.
var onColors = map[fyne.ThemeColorName]fyne.ThemeColorName{
	theme.ColorNameForegroundOnPrimary: theme.ColorNamePrimary,
	theme.ColorNameForegroundOnError:   theme.ColorNameError,
	theme.ColorNameForegroundOnWarning: theme.ColorNameWarning,
	theme.ColorNameForegroundOnSuccess: theme.ColorNameSuccess,
}

func variants() map[string]fyne.ThemeVariant {
	return map[string]fyne.ThemeVariant{"dark": theme.VariantDark, "light": theme.VariantLight}
}

// TestTextContrastAA holds every text colour of the theme to WCAG AA,
// 4.5:1, on every surface text is drawn on, in both variants; the
// letters of filled buttons on their fill; and the unticked marks and
// input borders, which are not text, to 3:1 (WCAG 1.4.11).
func TestTextContrastAA(t *testing.T) {
	test.NewTempApp(t)
	th := New()
	for vn, v := range variants() {
		for sn, s := range surfaces(th, v) {
			for _, n := range textColors {
				check(t, fmt.Sprintf("%s: %s text on %s", vn, n, sn), th.Color(n, v), s, 4.5)
			}
		}
		for on, fill := range onColors {
			check(t, fmt.Sprintf("%s: %s on %s", vn, on, fill), th.Color(on, v), th.Color(fill, v), 4.5)
		}
		for _, sn := range []string{"background", "inputBackground", "overlayBackground"} {
			check(t, vn+": input border on "+sn, th.Color(theme.ColorNameInputBorder, v), surfaces(th, v)[sn], 3)
		}
	}
}

// TestFocusRingContrast: the focus ring stands at least 3:1 off what it
// replaces when a control gains focus (the window's background, an
// overlay's) and off an input's or a button's grey. Around the filled
// default button the ring keeps a gap of background (see askdialog's
// ring test), so it need not stand off the fill itself.
func TestFocusRingContrast(t *testing.T) {
	test.NewTempApp(t)
	th := New()
	for vn, v := range variants() {
		ring := FocusRing(th, v)
		for _, n := range []fyne.ThemeColorName{theme.ColorNameBackground, theme.ColorNameOverlayBackground,
			theme.ColorNameInputBackground, theme.ColorNameButton} {
			check(t, fmt.Sprintf("%s: focus ring against %s", vn, n), ring, th.Color(n, v), 3)
		}
	}
}

// TestFyneDefaultFails shows what the theme fixes: Fyne's own dark
// secondary text and light placeholder fall short of AA.
func TestFyneDefaultFails(t *testing.T) {
	test.NewTempApp(t)
	d := theme.DefaultTheme()
	if c := Contrast(d.Color(theme.ColorNameDisabled, theme.VariantDark), d.Color(theme.ColorNameBackground, theme.VariantDark)); c >= 4.5 {
		t.Errorf("Fyne's dark disabled text is %.2f:1, expected it to fail AA (is the theme still needed?)", c)
	}
	if c := Contrast(d.Color(theme.ColorNamePlaceHolder, theme.VariantLight), d.Color(theme.ColorNameInputBackground, theme.VariantLight)); c >= 4.5 {
		t.Errorf("Fyne's light placeholder is %.2f:1, expected it to fail AA", c)
	}
}

func check(t *testing.T, what string, fg, bg color.Color, want float64) {
	t.Helper()
	if c := Contrast(fg, bg); c < want {
		t.Errorf("%s: %.2f:1, want at least %.1f:1 (%v on %v)", what, c, want, fg, bg)
	}
}
