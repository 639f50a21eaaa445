package historyview

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/asktray/asktray/ui/internal/uitheme"
)

// TestHistory_OutcomeColoursReadInTheAppTheme: the history draws its
// outcome labels in the app's theme (uitheme, which ui.Run sets) with no
// override of its own, so every colour a verdict's mark names reads at
// WCAG AA (4.5:1) on the window's background in both variants.
func TestHistory_OutcomeColoursReadInTheAppTheme(t *testing.T) {
	test.NewTempApp(t)
	th := uitheme.New()
	for _, v := range []struct {
		name    string
		variant fyne.ThemeVariant
	}{{"light", theme.VariantLight}, {"dark", theme.VariantDark}} {
		bg := th.Color(theme.ColorNameBackground, v.variant)
		for role, r := range verdictRoles {
			c := th.Color(r.color, v.variant)
			if got := uitheme.Contrast(c, bg); got < 4.5 {
				t.Errorf("%s: role %s (%s) has contrast %.2f on the background, want at least 4.5", v.name, role, r.color, got)
			}
		}
	}
}
