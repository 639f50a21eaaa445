// Package uitheme is Asktray's Fyne theme: Fyne's default theme with the
// colours that letter text (secondary text, placeholders, disabled labels,
// the status colours, text on filled buttons) chosen so that every text
// reads at WCAG AA (4.5:1) against the backgrounds it is drawn on, input
// borders at 3:1, and a focus-ring colour that stands 3:1 off the
// background (WCAG 1.4.11) in the dark and the light variant. It also
// computes WCAG contrast ratios, for the tests that hold it to that.
// Its functions may be called from any goroutine.
package uitheme

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// ColorNameFocusRing is the colour of the outline a focused control of
// the question dialog draws around itself.
const ColorNameFocusRing fyne.ThemeColorName = "asktray-focusRing"

// palette is the theme's own colours of one variant; names it lacks come
// from Fyne's default theme.
type palette map[fyne.ThemeColorName]color.Color

// rgb is the opaque colour 0xRRGGBB.
func rgb(v uint32) color.NRGBA {
	return color.NRGBA{R: uint8(v >> 16 & 0xff), G: uint8(v >> 8 & 0xff), B: uint8(v & 0xff), A: 0xff}
}

var (
	// Fyne's dark secondary text (theme.ColorNameDisabled, which a
	// low-importance label uses) is 0x39393a on 0x171718, 1.6:1; its blue
	// button letters white at 4.5:1 only just, and its blue as text on a
	// button's grey reaches 2.9:1. The dark primary is therefore light,
	// with dark letters on it, as Material's dark theme does.
	dark = palette{
		theme.ColorNameForeground:          rgb(0xf3f3f3),
		theme.ColorNameDisabled:            rgb(0xa0a0a0),
		theme.ColorNamePlaceHolder:         rgb(0xb2b2b2),
		theme.ColorNamePrimary:             rgb(0x8ab4f8),
		theme.ColorNameForegroundOnPrimary: rgb(0x101418),
		theme.ColorNameHyperlink:           rgb(0x8ab4f8),
		theme.ColorNameError:               rgb(0xff7369),
		theme.ColorNameForegroundOnError:   rgb(0x171718),
		theme.ColorNameWarning:             rgb(0xffa726),
		theme.ColorNameForegroundOnWarning: rgb(0x171718),
		theme.ColorNameSuccess:             rgb(0x5fd46a),
		theme.ColorNameForegroundOnSuccess: rgb(0x171718),
		theme.ColorNameInputBorder:         rgb(0x707074),
		ColorNameFocusRing:                 rgb(0xf3f3f3),
	}
	// Fyne's light foreground 0x565656 leaves no room for a secondary grey
	// that still reads at 4.5:1; its placeholder is 3.2:1 on an input, its
	// warning and success colours 2.1:1 and 1.6:1 on white.
	light = palette{
		theme.ColorNameForeground:          rgb(0x1f1f1f),
		theme.ColorNameDisabled:            rgb(0x616161),
		theme.ColorNamePlaceHolder:         rgb(0x616161),
		theme.ColorNamePrimary:             rgb(0x1f5fd6),
		theme.ColorNameForegroundOnPrimary: rgb(0xffffff),
		theme.ColorNameHyperlink:           rgb(0x1f5fd6),
		theme.ColorNameError:               rgb(0xb71c1c),
		theme.ColorNameForegroundOnError:   rgb(0xffffff),
		theme.ColorNameWarning:             rgb(0x9a5600),
		theme.ColorNameForegroundOnWarning: rgb(0xffffff),
		theme.ColorNameSuccess:             rgb(0x166b25),
		theme.ColorNameForegroundOnSuccess: rgb(0xffffff),
		theme.ColorNameInputBorder:         rgb(0x85858a),
		ColorNameFocusRing:                 rgb(0x1f1f1f),
	}
)

// appTheme is the default theme with the palettes above.
type appTheme struct {
	fyne.Theme
	variant func() (fyne.ThemeVariant, bool) // the desktop's light or dark, when known; nil: Fyne's
}

// New returns Asktray's theme, in the light or dark variant Fyne asks for.
func New() fyne.Theme { return appTheme{Theme: theme.DefaultTheme()} }

// Following returns Asktray's theme in the variant that variant reports
// while it reports one (the desktop's preference, read by the app), else
// the one Fyne asks for. variant may be called from any goroutine that
// draws.
func Following(variant func() (fyne.ThemeVariant, bool)) fyne.Theme {
	return appTheme{Theme: theme.DefaultTheme(), variant: variant}
}

// Color returns the theme's colour n in variant v, or in the desktop's.
func (t appTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if t.variant != nil {
		if d, ok := t.variant(); ok {
			v = d
		}
	}
	p := dark
	if v == theme.VariantLight {
		p = light
	}
	if c, ok := p[n]; ok {
		return c
	}
	return t.Theme.Color(n, v)
}

// FocusRing returns the focus ring's colour in th and variant v: the
// theme's ColorNameFocusRing, or its foreground when th (another theme, as
// in tests) has none.
func FocusRing(th fyne.Theme, v fyne.ThemeVariant) color.Color {
	if c := th.Color(ColorNameFocusRing, v); c != nil {
		if _, _, _, a := c.RGBA(); a != 0 {
			return c
		}
	}
	return th.Color(theme.ColorNameForeground, v)
}

// Over returns c drawn over the opaque bg (alpha compositing), as the
// screen shows a translucent overlay such as the hover colour.
func Over(c, bg color.Color) color.Color {
	r, g, b, a := c.RGBA() // premultiplied
	br, bgG, bb, _ := bg.RGBA()
	mix := func(x, y uint32) uint8 { return uint8(min(x+y*(0xffff-a)/0xffff, 0xffff) >> 8) }
	return color.NRGBA{R: mix(r, br), G: mix(g, bgG), B: mix(b, bb), A: 0xff}
}

// Contrast returns the WCAG 2 contrast ratio of two opaque colours, from
// 1 (none) to 21 (black on white).
func Contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// luminance is the WCAG relative luminance of c.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v) / 0xffff
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}
