// Command gen draws Asktray's icons (app icon and tray states) as PNG files.
//
// It uses only the standard library: every shape is an inside/outside test in
// unit coordinates, anti-aliased by supersampling each pixel. Run it from the
// assets directory with `go generate` (see assets.go) or:
//
//	go run ./internal/gen -out .
package main

import (
	"flag"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"log"
	"math"
	"os"
	"path/filepath"
)

// Palette.
var (
	blue  = rgb(0x3B, 0x82, 0xF6)
	amber = rgb(0xF5, 0x9E, 0x0B)
	grey  = rgb(0x6B, 0x72, 0x80)
	red   = rgb(0xDC, 0x26, 0x26)
	white = rgb(0xFF, 0xFF, 0xFF)
)

const (
	appIconSize = 256
	traySize    = 64
	// samples per pixel along each axis (samples² per pixel in total).
	supersample = 8
)

func main() {
	out := flag.String("out", ".", "directory to write the PNG files into")
	flag.Parse()

	files := map[string]*image.NRGBA{
		"icon.png":         renderBubble(appIconSize, blue, glyphQuestion),
		"tray-idle.png":    renderBubble(traySize, blue, glyphQuestion),
		"tray-pending.png": renderBubble(traySize, amber, glyphQuestion),
		"tray-away.png":    renderBubble(traySize, grey, glyphAway),
	}
	for n := 1; n <= 9; n++ {
		files[fmt.Sprintf("tray-pending-%d.png", n)] = renderPendingCount(traySize, n)
	}
	files["tray-pending-9plus.png"] = renderPendingCount(traySize, 10)

	for name, img := range files {
		if err := writePNG(filepath.Join(*out, name), img); err != nil {
			log.Fatal(err)
		}
	}
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(filepath.Clean(path))
	if err != nil {
		return err
	}
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(f, img); err != nil {
		_ = f.Close()
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return f.Close()
}

// ---------------------------------------------------------------------------
// Canvas: premultiplied float RGBA with "over" compositing of coverage masks.

type canvas struct {
	size int
	pix  []float64 // premultiplied r, g, b, a per pixel, 0..1
}

func newCanvas(size int) *canvas {
	return &canvas{size: size, pix: make([]float64, 4*size*size)}
}

// shape reports whether the point (x, y), in unit coordinates (0..1 across
// the whole icon, y pointing down), is inside.
type shape func(x, y float64) bool

// coverage returns the fraction of the pixel (px, py) covered by s.
func (c *canvas) coverage(s shape, px, py int) float64 {
	inside := 0
	for j := range supersample {
		y := (float64(py) + (float64(j)+0.5)/supersample) / float64(c.size)
		for i := range supersample {
			x := (float64(px) + (float64(i)+0.5)/supersample) / float64(c.size)
			if s(x, y) {
				inside++
			}
		}
	}
	return float64(inside) / (supersample * supersample)
}

// fill composites an opaque color over the canvas wherever s covers it.
func (c *canvas) fill(s shape, col [3]float64) {
	for py := range c.size {
		for px := range c.size {
			cov := c.coverage(s, px, py)
			if cov == 0 {
				continue
			}
			p := c.pix[4*(py*c.size+px):]
			for k := range 3 {
				p[k] = col[k]*cov + p[k]*(1-cov)
			}
			p[3] = cov + p[3]*(1-cov)
		}
	}
}

// erase makes the canvas transparent wherever s covers it.
func (c *canvas) erase(s shape) {
	for py := range c.size {
		for px := range c.size {
			cov := c.coverage(s, px, py)
			if cov == 0 {
				continue
			}
			p := c.pix[4*(py*c.size+px):]
			for k := range 4 {
				p[k] *= 1 - cov
			}
		}
	}
}

// paste composites src (same size) over c.
func (c *canvas) paste(src *canvas) {
	for i := 0; i < len(c.pix); i += 4 {
		a := src.pix[i+3]
		for k := range 4 {
			c.pix[i+k] = src.pix[i+k] + c.pix[i+k]*(1-a)
		}
	}
}

func (c *canvas) image() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, c.size, c.size))
	for i := 0; i < len(c.pix); i += 4 {
		a := c.pix[i+3]
		if a <= 0 {
			continue
		}
		for k := range 3 {
			img.Pix[i+k] = to8(c.pix[i+k] / a)
		}
		img.Pix[i+3] = to8(a)
	}
	// Round-trip through image/draw so the result is a plain, tightly
	// packed NRGBA whatever the input layout.
	out := image.NewNRGBA(img.Bounds())
	draw.Draw(out, out.Bounds(), img, image.Point{}, draw.Src)
	return out
}

func to8(v float64) uint8 {
	return uint8(math.Round(math.Max(0, math.Min(1, v)) * 255))
}

func rgb(r, g, b uint8) [3]float64 {
	return [3]float64{float64(r) / 255, float64(g) / 255, float64(b) / 255}
}

// ---------------------------------------------------------------------------
// Shape primitives.

func union(shapes ...shape) shape {
	return func(x, y float64) bool {
		for _, s := range shapes {
			if s(x, y) {
				return true
			}
		}
		return false
	}
}

func minus(a, b shape) shape {
	return func(x, y float64) bool { return a(x, y) && !b(x, y) }
}

// transformed maps the shape s, designed in unit coordinates, into the square
// of side scale whose top-left corner is (ox, oy).
func transformed(s shape, ox, oy, scale float64) shape {
	return func(x, y float64) bool { return s((x-ox)/scale, (y-oy)/scale) }
}

func circle(cx, cy, r float64) shape {
	return func(x, y float64) bool {
		dx, dy := x-cx, y-cy
		return dx*dx+dy*dy <= r*r
	}
}

func rect(x0, y0, x1, y1 float64) shape {
	return func(x, y float64) bool { return x >= x0 && x < x1 && y >= y0 && y < y1 }
}

func roundRect(x0, y0, x1, y1, r float64) shape {
	return func(x, y float64) bool {
		if x < x0 || x >= x1 || y < y0 || y >= y1 {
			return false
		}
		// Distance to the inner rectangle shrunk by r.
		dx := math.Max(math.Max(x0+r-x, x-(x1-r)), 0)
		dy := math.Max(math.Max(y0+r-y, y-(y1-r)), 0)
		return dx*dx+dy*dy <= r*r
	}
}

// triangle is the filled triangle a-b-c (any winding).
func triangle(ax, ay, bx, by, cx, cy float64) shape {
	edge := func(px, py, qx, qy, x, y float64) float64 {
		return (qx-px)*(y-py) - (qy-py)*(x-px)
	}
	return func(x, y float64) bool {
		d1 := edge(ax, ay, bx, by, x, y)
		d2 := edge(bx, by, cx, cy, x, y)
		d3 := edge(cx, cy, ax, ay, x, y)
		hasNeg := d1 < 0 || d2 < 0 || d3 < 0
		hasPos := d1 > 0 || d2 > 0 || d3 > 0
		return !hasNeg || !hasPos
	}
}

// arc is a ring of radii ri..ro around (cx, cy), limited to the angles
// from..to in degrees, measured clockwise on screen from +x (y points down);
// from may be negative.
func arc(cx, cy, ri, ro, from, to float64) shape {
	return func(x, y float64) bool {
		dx, dy := x-cx, y-cy
		d2 := dx*dx + dy*dy
		if d2 < ri*ri || d2 > ro*ro {
			return false
		}
		a := math.Atan2(dy, dx) * 180 / math.Pi // -180..180
		for a < from {
			a += 360
		}
		return a <= to
	}
}

// thickLine is a segment from (x0, y0) to (x1, y1) with round caps.
func thickLine(x0, y0, x1, y1, w float64) shape {
	return func(x, y float64) bool {
		vx, vy := x1-x0, y1-y0
		t := ((x-x0)*vx + (y-y0)*vy) / (vx*vx + vy*vy)
		t = math.Max(0, math.Min(1, t))
		dx, dy := x-(x0+t*vx), y-(y0+t*vy)
		return dx*dx+dy*dy <= w*w/4
	}
}

// ---------------------------------------------------------------------------
// The Asktray design: a rounded speech bubble with a tail at the bottom left.

// bubble is the speech-bubble silhouette in unit coordinates.
var bubble = union(
	roundRect(0.04, 0.06, 0.96, 0.78, 0.22),
	triangle(0.18, 0.66, 0.44, 0.70, 0.12, 0.96),
)

// Question-mark glyph: a hook (ring arc from the left, over the top, round
// to the bottom center, with a round cap at its start), a straight stem down
// from the bottom of the hook, and a dot. The bubble body's center is at
// x=0.5, y=0.42.
const (
	qStroke = 0.09
	qR      = 0.115 // mid-line radius of the hook
	qCx     = 0.5
	qCy     = 0.30
	qStart  = -162.0 // hook start angle, degrees clockwise from +x (up is negative)
	qStemY1 = 0.50
	qDotR   = 0.056
	qDotCy  = 0.642
)

var glyphQuestion = union(
	arc(qCx, qCy, qR-qStroke/2, qR+qStroke/2, qStart, 90),
	circle(qCx+qR*math.Cos(qStart*math.Pi/180), qCy+qR*math.Sin(qStart*math.Pi/180), qStroke/2),
	thickLine(qCx, qCy+qR, qCx, qStemY1, qStroke),
	circle(qCx, qDotCy, qDotR),
)

// glyphAway is a crescent moon with a small "z".
var glyphAway = union(
	minus(circle(0.44, 0.43, 0.24), circle(0.55, 0.34, 0.2)),
	// "z": top bar, diagonal, bottom bar.
	thickLine(0.6, 0.2, 0.76, 0.2, 0.06),
	thickLine(0.76, 0.2, 0.6, 0.38, 0.06),
	thickLine(0.6, 0.38, 0.76, 0.38, 0.06),
)

func renderBubble(size int, fill [3]float64, glyph shape) *image.NRGBA {
	c := newCanvas(size)
	c.fill(bubble, fill)
	c.fill(glyph, white)
	return c.image()
}

// ---------------------------------------------------------------------------
// Pending icon with a count badge.

// 5x7 pixel font for the badge: digits 1-9 and "+".
var font5x7 = map[rune][7]string{
	'1': {"..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."},
	'2': {".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"},
	'3': {"####.", "....#", "....#", ".###.", "....#", "....#", "####."},
	'4': {"...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."},
	'5': {"#####", "#....", "####.", "....#", "....#", "#...#", ".###."},
	'6': {".###.", "#....", "#....", "####.", "#...#", "#...#", ".###."},
	'7': {"#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."},
	'8': {".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."},
	'9': {".###.", "#...#", "#...#", ".####", "....#", "....#", ".###."},
	'+': {".....", "..#..", "..#..", "#####", "..#..", "..#..", "....."},
}

// pixelText returns the shape of text in the 5x7 font, each font pixel being
// scale×scale image pixels, with its top-left at image pixel (x0, y0); size is
// the image size used to convert to unit coordinates. Glyphs are 1 font pixel
// apart. Keeping everything on whole pixels keeps the digits crisp.
func pixelText(text string, x0, y0, scale, size int) shape {
	var cells []shape
	for gi, r := range []rune(text) {
		g, ok := font5x7[r]
		if !ok {
			panic(fmt.Sprintf("no glyph for %q", r))
		}
		for row, line := range g {
			for col, ch := range line {
				if ch != '#' {
					continue
				}
				px := x0 + (gi*6+col)*scale
				py := y0 + row*scale
				u := 1 / float64(size)
				cells = append(cells, rect(float64(px)*u, float64(py)*u,
					float64(px+scale)*u, float64(py+scale)*u))
			}
		}
	}
	return union(cells...)
}

// renderPendingCount draws the amber pending icon, shrunk towards the bottom
// left, with a red count badge at the top right: "1".."9", or "9+" when
// n > 9.
func renderPendingCount(size, n int) *image.NRGBA {
	const (
		iconScale = 0.78 // bubble shrinks so the badge does not hide the glyph
		badgeR    = 0.22 // badge radius, unit coordinates
		badgeGap  = 0.04 // transparent ring cut around the badge
	)
	text := fmt.Sprint(n)
	if n > 9 {
		text = "9+"
	}

	c := newCanvas(size)
	c.fill(transformed(bubble, 0, 1-iconScale, iconScale), amber)
	c.fill(transformed(glyphQuestion, 0, 1-iconScale, iconScale), white)

	bcx, bcy := 1-badgeR-0.005, badgeR+0.005
	badge := newCanvas(size)
	badge.fill(circle(bcx, bcy, badgeR), red)

	// Font pixel size: as large as fits inside the badge circle.
	cols := 6*len(text) - 1
	scale := 1
	for s := 1; ; s++ {
		hw, hh := float64(cols*s)/2, float64(7*s)/2
		if math.Hypot(hw, hh) > badgeR*float64(size)*0.98 {
			break
		}
		scale = s
	}
	w, h := cols*scale, 7*scale
	x0 := int(math.Round(bcx*float64(size) - float64(w)/2))
	y0 := int(math.Round(bcy*float64(size) - float64(h)/2))
	badge.fill(pixelText(text, x0, y0, scale, size), white)

	c.erase(circle(bcx, bcy, badgeR+badgeGap))
	c.paste(badge)
	return c.image()
}
