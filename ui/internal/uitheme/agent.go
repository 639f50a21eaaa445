package uitheme

import (
	"hash/fnv"
	"image/color"

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
