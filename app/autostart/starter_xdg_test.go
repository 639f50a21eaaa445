//go:build !darwin && !windows

package autostart

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestSetStartAtLogin_WritesAndRemovesTheXDGEntry(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	path := filepath.Join(cfg, "autostart", "asktray.desktop")
	exe := "/home/ada/.local/bin/asktray"
	args := []string{BackgroundFlag, "--data-dir", "/home/ada/asktray data"}
	for range 2 { // idempotent
		if err := SetStartAtLogin(true, exe, args); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	entry := string(b)
	for _, line := range []string{
		"[Desktop Entry]",
		"Type=Application",
		"Name=Asktray",
		`Exec=/home/ada/.local/bin/asktray --background --data-dir "/home/ada/asktray data"`,
		"TryExec=/home/ada/.local/bin/asktray",
		"Icon=app.asktray.desktop",
		"X-GNOME-Autostart-enabled=true",
	} {
		if !strings.Contains("\n"+entry, "\n"+line+"\n") {
			t.Errorf("entry lacks %q:\n%s", line, entry)
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v %v", fi.Mode().Perm(), err)
	}
	if left, _ := os.ReadDir(filepath.Dir(path)); len(left) != 1 {
		t.Fatalf("autostart dir holds %v, want only the entry", left)
	}
	validateDesktopEntry(t, path)

	for range 2 { // idempotent
		if err := SetStartAtLogin(false, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("entry still there: %v", err)
	}
}

// validateDesktopEntry runs desktop-file-validate (Debian package
// desktop-file-utils, which make deps installs) on path.
func validateDesktopEntry(t *testing.T, path string) {
	t.Helper()
	if _, err := exec.LookPath("desktop-file-validate"); err != nil {
		t.Fatalf("desktop-file-validate is missing; make deps installs it (desktop-file-utils): %v", err)
	}
	out, err := exec.Command("desktop-file-validate", path).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Fatalf("desktop-file-validate %s: %v\n%s", path, err, out)
	}
}
