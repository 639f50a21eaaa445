package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/asktray/asktray/ui/internal/uitheme"
)

// shotTheme is the app's theme (uitheme) held to one variant, so a docs
// screenshot shows what a person sees, not the test driver's theme, and
// does not depend on the desktop's setting.
type shotTheme struct {
	fyne.Theme
	variant fyne.ThemeVariant
}

func (t shotTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.variant)
}

// useAppTheme draws a's windows in the app's theme, light, for a docs
// screenshot. Call it before building the window.
func useAppTheme(a fyne.App) {
	a.Settings().SetTheme(shotTheme{uitheme.New(), theme.VariantLight})
}
