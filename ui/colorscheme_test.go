package ui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/godbus/dbus/v5"

	"github.com/asktray/asktray/internal/testkit"
	"github.com/asktray/asktray/ui/internal/uitheme"
)

// oldPortal is Debian 12's xdg-desktop-portal 1.16 as far as the
// color-scheme goes: no ReadOne, and Read answers with a variant inside a
// variant.
type oldPortal struct{ scheme uint32 }

func (p oldPortal) Read(ns, key string) (dbus.Variant, *dbus.Error) {
	if ns != appearanceNS || key != colorSchemeKey {
		return dbus.Variant{}, dbus.NewError("org.freedesktop.portal.Error.NotFound", nil)
	}
	return dbus.MakeVariant(dbus.MakeVariant(p.scheme)), nil
}

// newPortal is a portal with ReadOne, which answers with the value itself.
type newPortal struct{ oldPortal }

func (p newPortal) ReadOne(ns, key string) (dbus.Variant, *dbus.Error) {
	return dbus.MakeVariant(p.scheme), nil
}

// startPortal serves p on a private session bus and returns the bus and
// the portal's connection.
func startPortal(t *testing.T, p any) (string, *dbus.Conn) {
	t.Helper()
	addr := testkit.StartBus(t)
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := conn.Export(p, portalPath, portalSettings); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.RequestName(portalName, dbus.NameFlagDoNotQueue); err != nil {
		t.Fatal(err)
	}
	return addr, conn
}

func TestSchemeOf(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want uint32
		ok   bool
	}{
		{uint32(1), 1, true},
		{dbus.MakeVariant(uint32(2)), 2, true},
		{dbus.MakeVariant(dbus.MakeVariant(uint32(1))), 1, true},
		{dbus.MakeVariant("prefer-dark"), 0, false},
		{int32(1), 0, false},
		{dbus.MakeVariant(dbus.MakeVariant(dbus.MakeVariant(dbus.MakeVariant(dbus.MakeVariant(uint32(1)))))), 0, false},
	} {
		if got, ok := schemeOf(tc.v); got != tc.want || ok != tc.ok {
			t.Errorf("schemeOf(%v) = %d, %v; want %d, %v", tc.v, got, ok, tc.want, tc.ok)
		}
	}
	if variantOf(0) != theme.VariantLight || variantOf(2) != theme.VariantLight || variantOf(1) != theme.VariantDark {
		t.Error("no preference and prefer light must be light, prefer dark dark")
	}
}

// TestColorScheme_OldPortalAndChanges is item 6 of issue 37: on Debian
// 12's portal (Read only, a nested variant) GNOME's light style reads
// light, not Fyne's dark; a change while the app runs (SettingChanged)
// is followed, and the theme draws the desktop's variant whatever Fyne
// asks for.
func TestColorScheme_OldPortalAndChanges(t *testing.T) {
	addr, portal := startPortal(t, oldPortal{scheme: 2})
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	changed := make(chan struct{}, 4)
	w, err := watchColorScheme(conn, func() { changed <- struct{}{} })
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	th := uitheme.Following(w.Variant)
	if v, ok := w.Variant(); !ok || v != theme.VariantLight {
		t.Fatalf("variant %v known %v, want light", v, ok)
	}
	light, dark := uitheme.New().Color(theme.ColorNameBackground, theme.VariantLight), uitheme.New().Color(theme.ColorNameBackground, theme.VariantDark)
	if th.Color(theme.ColorNameBackground, theme.VariantDark) != light {
		t.Error("the theme drew Fyne's dark, not the desktop's light")
	}
	for _, change := range []struct {
		value any
		want  fyne.ThemeVariant
	}{{dbus.MakeVariant(uint32(1)), theme.VariantDark}, {dbus.MakeVariant(dbus.MakeVariant(uint32(0))), theme.VariantLight}} {
		if err := portal.Emit(portalPath, portalSettings+".SettingChanged", appearanceNS, colorSchemeKey, change.value); err != nil {
			t.Fatal(err)
		}
		select {
		case <-changed:
		case <-time.After(10 * time.Second):
			t.Fatalf("the change to %v was not followed", change.value)
		}
		if v, _ := w.Variant(); v != change.want {
			t.Errorf("after %v: variant %v, want %v", change.value, v, change.want)
		}
	}
	if th.Color(theme.ColorNameBackground, theme.VariantDark) != light || th.Color(theme.ColorNameBackground, theme.VariantLight) == dark {
		t.Error("the theme does not follow the change")
	}
	// Another setting's change is no change of style.
	if err := portal.Emit(portalPath, portalSettings+".SettingChanged", "org.gnome.desktop.interface", "gtk-theme", dbus.MakeVariant("Adwaita")); err != nil {
		t.Fatal(err)
	}
	if err := portal.Emit(portalPath, portalSettings+".SettingChanged", appearanceNS, colorSchemeKey, dbus.MakeVariant(uint32(1))); err != nil {
		t.Fatal(err)
	}
	<-changed
	if v, _ := w.Variant(); v != theme.VariantDark {
		t.Errorf("variant %v, want dark", v)
	}
}

// TestColorScheme_NewPortal: a portal with ReadOne says prefer dark.
func TestColorScheme_NewPortal(t *testing.T) {
	addr, _ := startPortal(t, newPortal{oldPortal{scheme: 1}})
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := readColorScheme(conn); err != nil || s != 1 {
		t.Fatalf("scheme %d, %v", s, err)
	}
	conn.Close()
}

// TestColorScheme_NoPortal: without a portal the variant stays unknown,
// so Fyne's own stands.
func TestColorScheme_NoPortal(t *testing.T) {
	conn, err := dbus.Connect(testkit.StartBus(t))
	if err != nil {
		t.Fatal(err)
	}
	w, err := watchColorScheme(conn, func() {})
	if err == nil || w == nil {
		t.Fatalf("no error without a portal, or no watch: %v", err)
	}
	defer w.Close()
	if _, ok := w.Variant(); ok {
		t.Error("a variant without a portal")
	}
}
