package autostart

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestDesktopEntry_QuotesExecAsTheSpecSays(t *testing.T) {
	e, err := DesktopEntry("/home/ada/my apps/asktray", []string{BackgroundFlag, "--data-dir", `/d/100%$x"y\z`})
	if err != nil {
		t.Fatal(err)
	}
	// Quoted because of the space; % doubled; " $ \ escaped inside quotes,
	// then every backslash doubled for the string value.
	want := `Exec="/home/ada/my apps/asktray" --background --data-dir "/d/100%%\\$x\\"y\\\\z"`
	if !strings.Contains(e, "\n"+want+"\n") {
		t.Fatalf("entry lacks %s:\n%s", want, e)
	}
	if !strings.Contains(e, "\nTryExec=/home/ada/my apps/asktray\n") {
		t.Fatalf("entry lacks TryExec:\n%s", e)
	}
	if _, err := DesktopEntry("asktray", nil); err == nil || !strings.Contains(err.Error(), "not an absolute path") {
		t.Fatalf("relative exe: %v", err)
	}
	if _, err := DesktopEntry("/x/ask\ntray", nil); err == nil || !strings.Contains(err.Error(), "control character") {
		t.Fatalf("newline in exe: %v", err)
	}
}

func TestXDGPath_FollowsXDGConfigHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "/cfg")
	if p, err := XDGPath(); err != nil || p != "/cfg/autostart/asktray.desktop" {
		t.Fatalf("%q %v", p, err)
	}
	// A relative XDG_CONFIG_HOME is ignored, as the base dir spec says.
	t.Setenv("XDG_CONFIG_HOME", "cfg")
	if p, err := XDGPath(); err != nil || p != filepath.Join(home, ".config", "autostart", "asktray.desktop") {
		t.Fatalf("%q %v", p, err)
	}
}
