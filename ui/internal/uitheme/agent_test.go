package uitheme

import (
	"bytes"
	"image/color"
	"image/png"
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

// TestAgentIcon: the tray menu's mark of an agent is a PNG (what dbusmenu's
// icon-data carries) whose centre is the agent's colour and whose corners
// are clear; one agent gets one resource, two colours two (issue 38 item
// 12: the tray menu named no agent by colour).
func TestAgentIcon(t *testing.T) {
	t.Parallel()
	for _, v := range []fyne.ThemeVariant{theme.VariantDark, theme.VariantLight} {
		r := AgentIcon("codex", v)
		if AgentIcon("codex", v) != r {
			t.Error("codex's icon is made again")
		}
		img, err := png.Decode(bytes.NewReader(r.Content()))
		if err != nil {
			t.Fatalf("not a PNG: %v", err)
		}
		want := color.NRGBAModel.Convert(AgentColor("codex", v))
		mid := img.Bounds().Dx() / 2
		if got := color.NRGBAModel.Convert(img.At(mid, mid)); got != want {
			t.Errorf("variant %d: centre %v, want codex's %v", v, got, want)
		}
		if _, _, _, a := img.At(0, 0).RGBA(); a != 0 {
			t.Errorf("variant %d: the corner is not clear (alpha %d)", v, a)
		}
	}
	if AgentColor("codex", theme.VariantDark) != AgentColor("claude-code", theme.VariantDark) &&
		AgentIcon("codex", theme.VariantDark).Name() == AgentIcon("claude-code", theme.VariantDark).Name() {
		t.Error("two colours share one icon")
	}
}
