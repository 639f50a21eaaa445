package askdialog

import (
	"encoding/json"
	"fmt"
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/ui/internal/uitheme"
)

// fixedVariant is a theme held to one variant, so a test sees the dark or
// the light colours whatever the test app's setting.
type fixedVariant struct {
	fyne.Theme
	v fyne.ThemeVariant
}

func (t fixedVariant) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.v)
}

// ringOf returns the focus ring of a dialog control, or nil.
func ringOf(o any) *ring {
	switch c := o.(type) {
	case *dialogButton:
		return &c.ring
	case *keyEntry:
		return &c.ring
	case *keySelect:
		return &c.ring
	case *keyCheck:
		return &c.ring
	case *optionRow:
		return &c.ring
	}
	return nil
}

// TestFocusRing_EveryControl tabs through every control of a form (entry,
// radio marks, a drop-down, check boxes) and of a destructive confirm (the
// filled default button, the outlined danger button, Snooze), in the dark
// and the light theme: the focused control, and only it, shows a ring just
// outside its edges, clear of a filled button by a gap, whose colour
// stands at least 3:1 off the background it replaces (WCAG 1.4.11).
func TestFocusRing_EveryControl(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{
		"name":{"type":"string","title":"Name"},
		"tier":{"type":"string","enum":["a","b"]},
		"region":{"type":"string","enum":["r1","r2","r3","r4","r5","r6","r7"]},
		"flags":{"type":"array","items":{"type":"string","enum":["x","y"]}},
		"ok":{"type":"boolean","title":"Confirmed"}}}`)
	qs := []question.Question{
		{Kind: question.KindForm, Message: "Fill in", Schema: schema},
		{Kind: question.KindConfirm, Message: "Delete the branch?", Destructive: true},
	}
	for _, v := range []fyne.ThemeVariant{theme.VariantDark, theme.VariantLight} {
		for _, q := range qs {
			t.Run(fmt.Sprintf("%s/variant%d", q.Kind, v), func(t *testing.T) {
				e := newDialogEnv(t)
				th := fixedVariant{uitheme.New(), v}
				e.app.Settings().SetTheme(th)
				d := e.ask(q)
				d.guard.arm()
				bg := th.Color(theme.ColorNameBackground, v)
				c := d.win.Canvas()
				seen := map[fyne.Focusable]bool{}
				for range 40 {
					c.FocusNext()
					f := c.Focused()
					if seen[f] {
						break
					}
					seen[f] = true
					checkRings(t, d, f, bg)
				}
				rings := 0
				for f := range seen {
					if ringOf(f) != nil {
						rings++
					}
				}
				if rings < 3 {
					t.Fatalf("Tab reached %d controls with a ring, want every control (%d focusables)", rings, len(seen))
				}
				if q.Kind == question.KindConfirm && !seen[d.defaultButton] {
					t.Error("Tab never reached the default button")
				}
			})
		}
	}
}

// checkRings checks that focused, and no other control, shows its ring,
// and that ring's geometry and colour.
func checkRings(t *testing.T, d *questionDialog, focused fyne.Focusable, bg color.Color) {
	t.Helper()
	for _, o := range test.LaidOutObjects(d.win.Content()) {
		g := ringOf(o)
		if g == nil || g.rect == nil {
			continue
		}
		want := any(o) == any(focused)
		if g.rect.Visible() != want {
			t.Errorf("%T %p: ring visible %v while focused %v", o, o, g.rect.Visible(), want)
		}
		if !want {
			continue
		}
		out := float32(ringGap + ringWidth)
		if p, s := g.rect.Position(), g.rect.Size(); p != fyne.NewPos(-out, -out) || s != o.Size().AddWidthHeight(2*out, 2*out) {
			t.Errorf("%T: ring at %v size %v, want just outside the control (%v)", o, p, s, o.Size())
		}
		if ringGap < 1 {
			t.Error("the ring touches the control: no gap of background around a filled button")
		}
		if r := uitheme.Contrast(g.rect.StrokeColor, bg); r < 3 || g.rect.StrokeWidth < 2 {
			t.Errorf("%T: ring %v (width %v) is %.2f:1 on the background %v, want at least 3:1 and 2 units", o, g.rect.StrokeColor, g.rect.StrokeWidth, r, bg)
		}
	}
}
