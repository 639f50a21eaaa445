package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAutostartEntry_QuotesExecAsTheSpecSays(t *testing.T) {
	e, err := AutostartEntry("/home/ada/my apps/asktray", []string{BackgroundFlag, "--data-dir", `/d/100%$x"y\z`})
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
	if _, err := AutostartEntry("asktray", nil); err == nil || !strings.Contains(err.Error(), "not an absolute path") {
		t.Fatalf("relative exe: %v", err)
	}
	if _, err := AutostartEntry("/x/ask\ntray", nil); err == nil || !strings.Contains(err.Error(), "control character") {
		t.Fatalf("newline in exe: %v", err)
	}
}

func TestAutostartPath_FollowsXDGConfigHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "/cfg")
	if p, err := AutostartPath(); err != nil || p != "/cfg/autostart/asktray.desktop" {
		t.Fatalf("%q %v", p, err)
	}
	// A relative XDG_CONFIG_HOME is ignored, as the base dir spec says.
	t.Setenv("XDG_CONFIG_HOME", "cfg")
	if p, err := AutostartPath(); err != nil || p != filepath.Join(home, ".config", "autostart", "asktray.desktop") {
		t.Fatalf("%q %v", p, err)
	}
}

func TestLoginExecutable_PrefersTheLinkOnPath(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "opt", "asktray-0.1", "asktray")
	link := filepath.Join(dir, "bin", "asktray")
	for _, d := range []string{filepath.Dir(real), filepath.Dir(link)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(real, []byte("#!/bin/sh\n"), 0o755); err != nil { //nolint:gosec // an executable stand-in
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	// Not on PATH: the resolved file.
	t.Setenv("PATH", filepath.Join(dir, "elsewhere"))
	if got, err := loginExecutable(link, "asktray"); err != nil || got != real {
		t.Fatalf("got %q %v, want %q", got, err, real)
	}
	// On PATH as a link to the same file: the link, which survives upgrades.
	t.Setenv("PATH", filepath.Dir(link))
	if got, err := loginExecutable(real, "asktray"); err != nil || got != link {
		t.Fatalf("got %q %v, want %q", got, err, link)
	}
	// A go run build is refused with what to do instead.
	tmp := filepath.Join(dir, "go-build123", "b001", "exe", "asktray")
	if err := os.MkdirAll(filepath.Dir(tmp), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tmp, nil, 0o755); err != nil { //nolint:gosec // an executable stand-in
		t.Fatal(err)
	}
	if _, err := loginExecutable(tmp, "asktray"); err == nil || !strings.Contains(err.Error(), "make install") {
		t.Fatalf("go run build: %v", err)
	}
}

func TestLoginArgs_NameTheDataDirAndTheAddrWhenNotDefault(t *testing.T) {
	if got := strings.Join(loginArgs(Options{DataDir: "/data/default", Addr: DefaultAddr}), " "); got != "--background --data-dir /data/default" {
		t.Fatalf("default addr: %q", got)
	}
	if got := strings.Join(loginArgs(Options{DataDir: "/data/other", Addr: "127.0.0.1:8000"}), " "); got != "--background --data-dir /data/other --addr 127.0.0.1:8000" {
		t.Fatalf("others: %q", got)
	}
}

func TestSettingsKeeper_ApplyLoginOnlyWhenItChangesSomething(t *testing.T) {
	var calls []bool
	fail := false
	k := &settingsKeeper{login: func(on bool) error {
		calls = append(calls, on)
		if fail {
			return errors.New("disk full")
		}
		return nil
	}}
	// Off while off leaves a hand-made entry alone; on writes; on again
	// rewrites (the binary may have moved); off removes.
	for _, on := range []bool{false, true, true, false, false} {
		if err := k.applyLogin(on); err != nil {
			t.Fatal(err)
		}
	}
	if got := fmtBools(calls); got != "true,true,false" {
		t.Fatalf("calls %v", calls)
	}
	fail = true
	if err := k.applyLogin(true); err == nil || err.Error() != "start_at_login: disk full" {
		t.Fatalf("failing write: %v", err)
	}
	if k.loginOn {
		t.Fatal("a failed write counts as applied")
	}
}

func fmtBools(b []bool) string {
	s := make([]string, len(b))
	for i, v := range b {
		if v {
			s[i] = "true"
		} else {
			s[i] = "false"
		}
	}
	return strings.Join(s, ",")
}
