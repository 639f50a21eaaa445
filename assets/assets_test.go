package assets

import (
	"bytes"
	"fmt"
	"image/png"
	"io/fs"
	"testing"

	"fyne.io/fyne/v2"
)

func TestEmbeddedPNGsDecode(t *testing.T) {
	want := map[string]int{
		"icon.png":               256,
		"tray-idle.png":          64,
		"tray-pending.png":       64,
		"tray-away.png":          64,
		"tray-pending-9plus.png": 64,
	}
	for n := 1; n <= 9; n++ {
		want[fmt.Sprintf("tray-pending-%d.png", n)] = 64
	}

	names, err := fs.Glob(files, "*.png")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != len(want) {
		t.Errorf("embedded %d PNGs %v, want %d", len(names), names, len(want))
	}

	for name, size := range want {
		b, err := files.ReadFile(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Errorf("%s: decode: %v", name, err)
			continue
		}
		if got := img.Bounds().Size(); got.X != size || got.Y != size {
			t.Errorf("%s: size %v, want %dx%d", name, got, size, size)
		}
	}
}

func TestResources(t *testing.T) {
	for _, tc := range []struct {
		res  fyne.Resource
		name string
	}{
		{Icon, "icon.png"},
		{TrayIdle, "tray-idle.png"},
		{TrayPending, "tray-pending.png"},
		{TrayAway, "tray-away.png"},
	} {
		if tc.res == nil {
			t.Fatalf("%s: nil resource", tc.name)
		}
		if tc.res.Name() != tc.name {
			t.Errorf("resource name %q, want %q", tc.res.Name(), tc.name)
		}
		if len(tc.res.Content()) == 0 {
			t.Errorf("%s: empty content", tc.name)
		}
	}
}

func TestTrayPendingCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{-5, "tray-idle.png"},
		{-1, "tray-idle.png"},
		{0, "tray-idle.png"},
		{1, "tray-pending-1.png"},
		{2, "tray-pending-2.png"},
		{5, "tray-pending-5.png"},
		{9, "tray-pending-9.png"},
		{10, "tray-pending-9plus.png"},
		{11, "tray-pending-9plus.png"},
		{1000, "tray-pending-9plus.png"},
	} {
		got := TrayPendingCount(tc.n)
		if got == nil {
			t.Fatalf("TrayPendingCount(%d) = nil", tc.n)
		}
		if got.Name() != tc.want {
			t.Errorf("TrayPendingCount(%d) = %q, want %q", tc.n, got.Name(), tc.want)
		}
	}
	if TrayPendingCount(0) != TrayIdle {
		t.Error("TrayPendingCount(0) is not the TrayIdle resource")
	}
	for n := 1; n <= 12; n++ {
		if TrayPendingCount(n) != TrayPendingCount(n) {
			t.Errorf("TrayPendingCount(%d) is not stable", n)
		}
	}
}
