package askdialog

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"

	"github.com/asktray/asktray/ui/internal/uitheme"
)

// Focus ring geometry: a ringWidth outline, ringGap outside the control,
// so that a gap of background separates it from a filled button.
const (
	ringWidth = 2
	ringGap   = 1
)

// ring is the outline a dialog control draws around itself while it has
// keyboard focus, in the theme's focus-ring colour (which stands 3:1 off
// the background, WCAG 1.4.11): Fyne's own focus cue on a button is a
// tint of its fill, which cannot be seen on the blue default button. A
// control embeds a ring, wraps its renderer with wrap and calls showRing from
// FocusGained and FocusLost. Its methods run on the Fyne goroutine.
type ring struct {
	rect *canvas.Rectangle // nil until the control is rendered
	on   bool
}

// showRing shows or hides the ring.
func (g *ring) showRing(on bool) {
	g.on = on
	if g.rect == nil {
		return
	}
	if on {
		g.rect.Show()
	} else {
		g.rect.Hide()
	}
	g.rect.Refresh()
}

// wrap returns inner with the ring drawn around it.
func (g *ring) wrap(inner fyne.WidgetRenderer) fyne.WidgetRenderer {
	g.rect = canvas.NewRectangle(color.Transparent)
	g.rect.StrokeWidth = ringWidth
	g.rect.CornerRadius = theme.InputRadiusSize() + ringGap + ringWidth
	r := &ringRenderer{WidgetRenderer: inner, g: g}
	r.applyTheme()
	g.showRing(g.on)
	return r
}

// ringRenderer is a control's renderer with its focus ring.
type ringRenderer struct {
	fyne.WidgetRenderer
	g *ring
}

func (r *ringRenderer) applyTheme() {
	r.g.rect.StrokeColor = uitheme.FocusRing(fyne.CurrentApp().Settings().Theme(), fyne.CurrentApp().Settings().ThemeVariant())
}

// Layout lays out the control and puts the ring just outside it.
func (r *ringRenderer) Layout(s fyne.Size) {
	r.WidgetRenderer.Layout(s)
	out := float32(ringGap + ringWidth)
	r.g.rect.Move(fyne.NewPos(-out, -out))
	r.g.rect.Resize(s.AddWidthHeight(2*out, 2*out))
}

// Objects are the control's, with the ring last (on top).
func (r *ringRenderer) Objects() []fyne.CanvasObject {
	inner := r.WidgetRenderer.Objects()
	objs := make([]fyne.CanvasObject, 0, len(inner)+1)
	return append(append(objs, inner...), r.g.rect)
}

// Refresh refreshes the control and the ring's colour.
func (r *ringRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	r.applyTheme()
	r.g.rect.Refresh()
}
