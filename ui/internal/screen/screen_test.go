package screen

import (
	"encoding/binary"
	"testing"
)

// xsettings encodes settings as an XSETTINGS manager does: a string and a
// colour (skipped) around the integers.
func xsettings(order binary.AppendByteOrder, ints map[string]int32) []byte {
	b := []byte{0, 0, 0, 0}
	if order == any(binary.BigEndian) {
		b[0] = 1
	}
	b = order.AppendUint32(b, 7)
	b = order.AppendUint32(b, uint32(len(ints)+2))
	name := func(typ uint8, n string) {
		b = append(b, typ, 0)
		b = order.AppendUint16(b, uint16(len(n)))
		b = append(b, n...)
		b = append(b, make([]byte, pad4(len(n))-len(n))...)
		b = order.AppendUint32(b, 3) // last-change serial
	}
	name(1, "Net/ThemeName")
	b = order.AppendUint32(b, 7)
	b = append(b, "Adwaita\x00"...)
	name(2, "Gtk/Color")
	b = append(b, make([]byte, 8)...)
	for n, v := range ints {
		name(0, n)
		b = order.AppendUint32(b, uint32(v))
	}
	return b
}

func TestDesktopScale(t *testing.T) {
	noEnv := func(string) string { return "" }
	gdk2 := func(k string) string { return map[string]string{"GDK_SCALE": "2"}[k] }
	for _, tc := range []struct {
		name   string
		in     Info
		env    Env
		scale  float32
		source string
	}{
		{"GNOME at 2 (Xft/DPI 192×1024)", Info{XSettings: xsettings(binary.LittleEndian, map[string]int32{"Gdk/WindowScalingFactor": 2, "Xft/DPI": 192 * 1024})}, noEnv, 2, "XSETTINGS Xft/DPI"},
		{"big-endian manager, 150 %", Info{XSettings: xsettings(binary.BigEndian, map[string]int32{"Xft/DPI": 144 * 1024})}, noEnv, 1.5, "XSETTINGS Xft/DPI"},
		{"XSETTINGS before Xft.dpi", Info{XSettings: xsettings(binary.LittleEndian, map[string]int32{"Xft/DPI": 96 * 1024}), Resources: "Xft.dpi:\t192\n"}, noEnv, 1, "XSETTINGS Xft/DPI"},
		{"KDE's Xft.dpi", Info{Resources: "Xcursor.size:\t24\nXft.dpi:\t144\n"}, noEnv, 1.5, "Xft.dpi"},
		{"text scaling 1.25", Info{Resources: "Xft.dpi: 120"}, noEnv, 1.3, "Xft.dpi"},
		{"a low DPI is scale 1", Info{Resources: "Xft.dpi: 72"}, noEnv, 1, "Xft.dpi"},
		{"no Xft/DPI in XSETTINGS", Info{XSettings: xsettings(binary.LittleEndian, map[string]int32{"Gdk/WindowScalingFactor": 2})}, gdk2, 2, "GDK_SCALE"},
		{"a broken property", Info{XSettings: []byte{0, 0, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0, 0}}, noEnv, 0, ""},
		{"an absurd Xft.dpi", Info{Resources: "Xft.dpi: 100000"}, noEnv, 0, ""},
		{"nothing", Info{}, noEnv, 0, ""},
	} {
		scale, source := DesktopScale(tc.in, tc.env)
		if scale != tc.scale || source != tc.source {
			t.Errorf("%s: %v from %q, want %v from %q", tc.name, scale, source, tc.scale, tc.source)
		}
	}
}

func TestXSettings_CutShort(t *testing.T) {
	full := xsettings(binary.LittleEndian, map[string]int32{"Xft/DPI": 96 * 1024})
	if dpi, err := XSettingsDPI(full); err != nil || dpi != 96 {
		t.Fatalf("full: %v %v", dpi, err)
	}
	for n := range len(full) - 1 {
		if _, err := XSettingsDPI(full[:n]); err == nil {
			t.Errorf("cut at %d of %d bytes: no error", n, len(full))
		}
	}
}

func TestRoomAndScale(t *testing.T) {
	// 1280×720 at 150 %: 720 px less a title bar twice (the frame's, and
	// how far the frame moves a centred window down), in units of 1.5 px.
	if got := Room(Info{HeightPx: 720}, 1.5); got != 656.0/1.5 {
		t.Errorf("room %v", got)
	}
	// A panel's work area is shorter than the screen.
	if got := Room(Info{HeightPx: 1080, WorkHeightPx: 1032}, 1); got != 968 {
		t.Errorf("room with a work area %v", got)
	}
	// Two monitors side by side, the second at scale 2 on a Wayland
	// compositor: XWayland's screen is 1920×720, the second monitor 360
	// high; the window fits it wherever it opens.
	if got := Room(Info{HeightPx: 720, MonitorHeightPx: 360}, 1); got != 296 {
		t.Errorf("room on the shorter monitor %v", got)
	}
	if got := Room(Info{MonitorHeightPx: 1080}, 1); got != 1016 {
		t.Errorf("room from the monitor alone %v", got)
	}
	if got := Room(Info{}, 1); got != 0 {
		t.Errorf("room of nothing %v", got)
	}
	env := func(m map[string]string) Env { return func(k string) string { return m[k] } }
	// Fyne's guess: a 27" 4K screen (597 mm wide) is 163 dpi, 1.36 → 1.4;
	// a 96 dpi screen is 1.
	if got := Scale(Info{WidthPx: 3840, WidthMM: 597}, env(nil)); got != 1.4 {
		t.Errorf("4K guess %v", got)
	}
	if got := Scale(Info{WidthPx: 1280, WidthMM: 339}, env(map[string]string{"FYNE_SCALE": "2"})); got != 2 {
		t.Errorf("FYNE_SCALE 2 %v", got)
	}
	if got := Scale(Info{WidthPx: 3840, WidthMM: 597}, env(map[string]string{"FYNE_DISABLE_DPI_DETECTION": "1"})); got != 1 {
		t.Errorf("no detection %v", got)
	}
}
