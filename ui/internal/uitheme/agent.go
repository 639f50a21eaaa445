package uitheme

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"math"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// agentDark and agentLight are the colours that mark which agent asks, in
// the dark and the light variant: eight hues a person tells apart, each 3:1
// or more against the variant's background (WCAG 1.4.11, a graphical
// object), none the error red, so a mark never reads as a warning.
const agentColors = 8

var (
	agentDark = [agentColors]color.NRGBA{
		rgb(0x8ab4f8), rgb(0x81c995), rgb(0xfdd663), rgb(0xc58af9),
		rgb(0x78d9ec), rgb(0xfcad70), rgb(0xff8bcb), rgb(0xcddc39),
	}
	agentLight = [agentColors]color.NRGBA{
		rgb(0x1a73e8), rgb(0x188038), rgb(0x9a6700), rgb(0x8430ce),
		rgb(0x007b83), rgb(0xc26401), rgb(0xb0186f), rgb(0x5f6b00),
	}
)

// AgentColor returns the colour that marks the agent (client) named name
// in variant v: the same name always gets the same colour, so a person
// learns which agent a dialog is from at a glance; different agents most
// likely differ (eight colours, by a hash of the name).
func AgentColor(name string, v fyne.ThemeVariant) color.Color {
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	p := agentDark
	if v == theme.VariantLight {
		p = agentLight
	}
	return p[h.Sum32()%agentColors]
}

// agentIconSize is the side in pixels of AgentIcon's image: a tray host
// scales a menu item's icon to its menu's size (16 px, 32 on HiDPI).
const agentIconSize = 32

// agentIcons caches AgentIcon's PNGs by colour.
var agentIcons sync.Map // color.NRGBA → fyne.Resource

// AgentIcon returns a small PNG of a filled dot in AgentColor(name, v),
// for a menu item that names the agent (the tray menu's pending
// questions): a tray host draws a menu item's icon from PNG bytes
// (dbusmenu's icon-data), so it is a PNG, not an SVG. Any goroutine may
// call it.
func AgentIcon(name string, v fyne.ThemeVariant) fyne.Resource {
	c := color.NRGBAModel.Convert(AgentColor(name, v)).(color.NRGBA)
	if r, ok := agentIcons.Load(c); ok {
		return r.(fyne.Resource)
	}
	img := image.NewNRGBA(image.Rect(0, 0, agentIconSize, agentIconSize))
	mid, radius := float64(agentIconSize)/2, float64(agentIconSize)*0.4
	for y := range agentIconSize {
		for x := range agentIconSize {
			d := math.Hypot(float64(x)+0.5-mid, float64(y)+0.5-mid)
			cover := math.Max(0, math.Min(1, radius-d+0.5)) // a smooth edge
			if cover > 0 {
				img.SetNRGBA(x, y, color.NRGBA{R: c.R, G: c.G, B: c.B, A: uint8(math.Round(cover * 255))})
			}
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil { // cannot fail writing to memory
		panic(fmt.Sprintf("uitheme: encode agent icon: %v", err))
	}
	r := fyne.NewStaticResource(fmt.Sprintf("agent-%02x%02x%02x.png", c.R, c.G, c.B), b.Bytes())
	agentIcons.Store(c, r)
	return r
}
