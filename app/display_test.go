package app

import (
	"strings"
	"testing"
)

// TestDisplayStatus is item 7 of issue 37: the X11 build shows windows
// where DISPLAY is set (XWayland included); a Wayland session without
// XWayland is told what is missing, and the app runs without windows
// instead of panicking; no session at all is plain headless.
func TestDisplayStatus(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		name    string
		goos    string
		env     map[string]string
		ok      bool
		missing bool
	}{
		{"X11", "linux", map[string]string{"DISPLAY": ":0"}, true, false},
		{"Wayland with XWayland", "linux", map[string]string{"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, true, false},
		{"Wayland without XWayland", "linux", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, nativeWayland, !nativeWayland},
		{"no session", "linux", nil, false, false},
		{"BSD without XWayland", "freebsd", map[string]string{"WAYLAND_DISPLAY": "wayland-1"}, nativeWayland, !nativeWayland},
		{"Windows", "windows", nil, true, false},
	} {
		ok, missing := displayStatus(tc.goos, env(tc.env))
		if ok != tc.ok || (missing != "") != tc.missing {
			t.Errorf("%s: ok %v, missing %q", tc.name, ok, missing)
		}
	}
	if _, missing := displayStatus("linux", env(map[string]string{"WAYLAND_DISPLAY": "wayland-0"})); !nativeWayland &&
		(!strings.Contains(missing, "XWayland") || !strings.Contains(missing, "DISPLAY") || !strings.Contains(missing, "asktray answer")) {
		t.Errorf("the message does not say what is missing and how to answer meanwhile: %q", missing)
	}
}
