package autostart

import (
	"errors"
	"io/fs"
	"os"
	"testing"
)

// TestSetStartAtLogin_LaunchAgent: on writes the LaunchAgent plist into
// ~/Library/LaunchAgents (mode 0644); off removes it, twice without error.
func TestSetStartAtLogin_LaunchAgent(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	args := []string{BackgroundFlag, "--data-dir", home + "/data"}
	if err := SetStartAtLogin(true, "/Applications/Asktray.app/Contents/MacOS/asktray", args); err != nil {
		t.Fatal(err)
	}
	path := LaunchAgentPath(home)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := LaunchAgentPlist("/Applications/Asktray.app/Contents/MacOS/asktray", args)
	if string(b) != want {
		t.Errorf("wrote\n%s\nwant\n%s", b, want)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode: %v %v", fi, err)
	}
	for range 2 {
		if err := SetStartAtLogin(false, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after off: %v", err)
	}
}
