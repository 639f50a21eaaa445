//go:build !darwin && !windows

package app

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/datadir"
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

// TestRun_ApplySettingsStartAtLogin: saving start_at_login through the
// running app writes the entry for this executable with the app's data dir
// and address, or refuses with the reason and saves nothing.
func TestRun_ApplySettingsStartAtLogin(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	entry := filepath.Join(cfg, "autostart", "asktray.desktop")
	dir := filepath.Join(t.TempDir(), "data")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan Env, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{DataDir: dir, Addr: "127.0.0.1:0", Headless: true,
			Ready: func(_ datadir.Instance, env Env) { ready <- env }})
	}()
	var env Env
	select {
	case env = <-ready:
	case err := <-done:
		t.Fatalf("Run: %v", err)
	}
	exe, exeErr := LoginExecutable()
	err := env.ApplySettings(Settings{StartAtLogin: true})
	st, _ := LoadSettings(dir)
	if exeErr != nil {
		// go test runs a temporary build: refused, and nothing saved.
		if err == nil || !strings.HasPrefix(err.Error(), "start_at_login: ") || !strings.Contains(err.Error(), exeErr.Error()) || st.StartAtLogin {
			t.Fatalf("apply: %v; saved %+v", err, st)
		}
		if _, serr := os.Stat(entry); !os.IsNotExist(serr) {
			t.Fatalf("entry written anyway: %v", serr)
		}
	} else {
		b, rerr := os.ReadFile(entry)
		want := "Exec=" + exe + " --background --data-dir " + dir + " --addr 127.0.0.1:0\n"
		if err != nil || rerr != nil || !strings.Contains(string(b), want) || !st.StartAtLogin {
			t.Fatalf("apply: %v %v; saved %+v; entry:\n%s", err, rerr, st, b)
		}
		if err := env.ApplySettings(Settings{}); err != nil {
			t.Fatal(err)
		}
		if _, serr := os.Stat(entry); !os.IsNotExist(serr) {
			t.Fatalf("entry left after turning it off: %v", serr)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
