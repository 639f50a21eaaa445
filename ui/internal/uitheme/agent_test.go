package uitheme

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// TestAgentColor: one agent keeps one colour; the usual agents do not all
// share one; every colour stands 3:1 off the background it is drawn on, in
// both variants (issue 38 item 12).
func TestAgentColor(t *testing.T) {
	t.Parallel()
	th := New()
	for _, v := range []fyne.ThemeVariant{theme.VariantDark, theme.VariantLight} {
		bg := th.Color(theme.ColorNameBackground, v)
		palette := agentDark
		if v == theme.VariantLight {
			palette = agentLight
		}
		for i, c := range palette {
			if r := Contrast(c, bg); r < 3 {
				t.Errorf("variant %d colour %d %v: %.2f:1 against the background, want 3:1", v, i, c, r)
			}
		}
		seen := map[any]string{}
		for _, name := range []string{"claude-code", "codex", "gemini-cli", "copilot-cli", "cursor", "opencode"} {
			c := AgentColor(name, v)
			if AgentColor(name, v) != c {
				t.Fatalf("%s changes colour", name)
			}
			seen[c] = name
		}
		if len(seen) < 4 {
			t.Errorf("six agents share %d colours: %v", len(seen), seen)
		}
	}
}
