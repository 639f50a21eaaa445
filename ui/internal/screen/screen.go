// Package screen reads what the desktop says about the screen: its scale
// (the XSETTINGS Xft/DPI that GNOME's and Xfce's settings daemons publish,
// the Xft.dpi X resource that KDE Plasma and xrdb set, GDK_SCALE) and the
// work area a window may take (EWMH's _NET_WORKAREA, else the screen).
//
// Fyne 2.7.1 on X11 takes its scale only from FYNE_SCALE or from the
// monitor's millimetres, so at a desktop scale of 2 its windows came up
// half size; Apply hands the desktop's scale to Fyne through FYNE_SCALE.
package screen

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
)

// Info is what the X server says about the screen; the zero Info means
// nothing could be read (no X display, Wayland, another platform).
type Info struct {
	XSettings []byte // the _XSETTINGS_SETTINGS property of screen 0's settings manager, if one runs
	Resources string // the RESOURCE_MANAGER property of the root window (what xrdb loads)
	// The screen's size in pixels and millimetres, and the work area's
	// height in pixels (0 when no window manager publishes one).
	WidthPx, HeightPx, WidthMM, WorkHeightPx int
	// MonitorHeightPx is the height of the screen's shortest monitor, in
	// the screen's pixels (RandR's monitors; 0 when unknown). With two
	// monitors the screen spans both, and under a Wayland compositor a
	// monitor at scale 2 is half its pixels high on XWayland's screen.
	MonitorHeightPx int
}

// Env is the environment, for tests.
type Env func(string) string

// DesktopScale returns the scale the desktop asks of applications and
// where it read it, or 0 when it says nothing: the XSETTINGS Xft/DPI
// (GNOME's gsd-xsettings publishes 96 × its window scale × its text
// scaling, in 1024ths), else the Xft.dpi resource, else GDK_SCALE. A DPI
// of 96 is scale 1.
func DesktopScale(in Info, env Env) (float32, string) {
	if dpi, err := XSettingsDPI(in.XSettings); err == nil && dpi > 0 {
		return roundScale(dpi / 96), "XSETTINGS Xft/DPI"
	}
	if dpi := ResourceDPI(in.Resources); dpi > 0 {
		return roundScale(dpi / 96), "Xft.dpi"
	}
	if s, err := strconv.ParseFloat(env("GDK_SCALE"), 32); err == nil && s >= 1 && s <= 8 {
		return roundScale(s), "GDK_SCALE"
	}
	return 0, ""
}

// roundScale keeps a scale between 1 and 8 in tenths, as Fyne rounds its own.
func roundScale(s float64) float32 {
	s = math.Round(s*10) / 10
	return float32(min(max(s, 1), 8))
}

// ResourceDPI returns the Xft.dpi of an X resource database's text
// ("Xft.dpi:\t144"), or 0 when it has none or a DPI outside 24..960.
func ResourceDPI(db string) float64 {
	for line := range strings.SplitSeq(db, "\n") {
		name, value, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(name) != "Xft.dpi" {
			continue
		}
		dpi, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err == nil && dpi >= 24 && dpi <= 960 {
			return dpi
		}
	}
	return 0
}

// XSettingsDPI returns the Xft/DPI integer setting of an XSETTINGS
// property (https://specifications.freedesktop.org/xsettings-spec/), in
// dots per inch; an error when the property is malformed or lacks it.
func XSettingsDPI(b []byte) (float64, error) {
	settings, err := parseXSettings(b)
	if err != nil {
		return 0, err
	}
	v, ok := settings["Xft/DPI"]
	if !ok || v <= 0 {
		return 0, errors.New("xsettings: no Xft/DPI")
	}
	return float64(v) / 1024, nil
}

// parseXSettings returns the integer settings of an XSETTINGS property.
func parseXSettings(b []byte) (map[string]int32, error) {
	if len(b) < 12 {
		return nil, errors.New("xsettings: header cut short")
	}
	var order binary.ByteOrder = binary.LittleEndian
	if b[0] == 1 {
		order = binary.BigEndian
	}
	n := order.Uint32(b[8:12])
	r := bytes.NewReader(b[12:])
	out := map[string]int32{}
	for i := range n {
		var head struct {
			Type, Pad uint8
			NameLen   uint16
		}
		if err := binary.Read(r, order, &head); err != nil {
			return nil, fmt.Errorf("xsettings: setting %d: %w", i, err)
		}
		name := make([]byte, pad4(int(head.NameLen)))
		var serial uint32
		if _, err := io.ReadFull(r, name); err != nil {
			return nil, fmt.Errorf("xsettings: setting %d's name: %w", i, err)
		}
		if err := binary.Read(r, order, &serial); err != nil {
			return nil, fmt.Errorf("xsettings: setting %d: %w", i, err)
		}
		if err := readValue(r, order, head.Type, string(name[:head.NameLen]), out); err != nil {
			return nil, fmt.Errorf("xsettings: setting %d: %w", i, err)
		}
	}
	return out, nil
}

// readValue reads one setting's value, keeping it in out when it is an integer.
func readValue(r *bytes.Reader, order binary.ByteOrder, typ uint8, name string, out map[string]int32) error {
	switch typ {
	case 0: // integer
		var v int32
		if err := binary.Read(r, order, &v); err != nil {
			return err
		}
		out[name] = v
	case 1: // string
		var n uint32
		if err := binary.Read(r, order, &n); err != nil {
			return err
		}
		if int64(pad4(int(n))) > int64(r.Len()) {
			return errors.New("string cut short")
		}
		_, _ = r.Seek(int64(pad4(int(n))), 1)
	case 2: // colour: four CARD16
		if r.Len() < 8 {
			return errors.New("colour cut short")
		}
		_, _ = r.Seek(8, 1)
	default:
		return fmt.Errorf("unknown type %d", typ)
	}
	return nil
}

func pad4(n int) int { return (n + 3) &^ 3 }

// Fyne's own scale detection, which Apply turns off when the desktop says.
const (
	envScale       = "FYNE_SCALE"
	envNoDetection = "FYNE_DISABLE_DPI_DETECTION"
)

var applied struct {
	sync.Mutex
	scale  float32
	source string
}

// Apply reads the desktop's scale and, unless the person set FYNE_SCALE
// themselves, hands it to Fyne (FYNE_SCALE, with Fyne's detection from the
// monitor's millimetres turned off, since the desktop's scale already
// counts them). It returns the scale and its source ("" when the desktop
// says nothing, or FYNE_SCALE when the person chose). Call it before the
// first window is shown; it does not block beyond one X round trip.
func Apply() (float32, string) {
	in := Read()
	scale, source := DesktopScale(in, os.Getenv)
	if user := os.Getenv(envScale); user != "" {
		scale, source = 0, envScale
	} else if scale > 0 {
		_ = os.Setenv(envScale, strconv.FormatFloat(float64(scale), 'f', 1, 32))
		_ = os.Setenv(envNoDetection, "1")
	}
	applied.Lock()
	applied.scale, applied.source = scale, source
	applied.Unlock()
	return scale, source
}

// Scale is the scale Fyne draws windows at, as far as this package can
// tell: the desktop's scale Apply handed it, else what Fyne works out
// itself (FYNE_SCALE times its guess from the screen's millimetres, one
// inch being 120 pixels at scale 1). Safe from any goroutine.
func Scale(in Info, env Env) float32 {
	applied.Lock()
	s := applied.scale
	applied.Unlock()
	if s > 0 {
		return s
	}
	user := float32(1)
	if v, err := strconv.ParseFloat(env(envScale), 32); err == nil && v > 0 {
		user = float32(v)
	}
	detected := float32(1)
	if in.WidthMM > 0 && in.WidthPx > 0 && env(envNoDetection) == "" {
		if dpi := float32(in.WidthPx) / (float32(in.WidthMM) / 25.4); dpi >= 10 && dpi <= 1000 {
			detected = max(dpi/120, 1)
		}
	}
	return float32(math.Round(float64(user*detected)*10) / 10)
}

// titleBar is the height kept for the window manager's frame above a
// window (openbox's is 28 px at scale 1).
const titleBar = 32

// Room returns the tallest a window may be, in Fyne units at scale, so
// that it and its frame fit the work area (else the screen) when it is
// centred there, and fit the shortest monitor, whichever monitor the
// window manager opens it on; 0 when nothing is known. A centred window is
// moved down by its title bar as the window manager frames it, so the
// title bar's height is kept twice: once for itself and once for that
// shift.
func Room(in Info, scale float32) float32 {
	h := 0
	for _, v := range []int{in.WorkHeightPx, in.HeightPx, in.MonitorHeightPx} {
		if v > 0 && (h == 0 || v < h) {
			h = v
		}
	}
	if h <= 0 || scale <= 0 {
		return 0
	}
	return float32(h-2*titleBar) / scale
}
