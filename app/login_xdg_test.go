//go:build !darwin && !windows

package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/autostart"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/settings"
)

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
	exe, exeErr := autostart.LoginExecutable()
	err := env.ApplySettings(settings.Settings{StartAtLogin: true})
	st, _ := settings.Load(dir)
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
		if err := env.ApplySettings(settings.Settings{}); err != nil {
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
