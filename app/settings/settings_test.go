package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImports: the settings sit below every front end and below MCP: they
// know the question, the rules and the person check, nothing that asks.
func TestImports(t *testing.T) {
	t.Parallel()
	const m = "github.com/asktray/asktray/"
	testkit.ImportsOnly(t, ".", m+"app/atomicfile", m+"app/personcheck", m+"app/policy", m+"app/question",
		m+"app/risk", m+"app/shellcmd", m+"app/toolinput", m+"app/ellipsis", "mvdan.cc/sh/v3", "github.com/msteinert/pam")
}

// TestLoadSaveValidate: a missing file is the defaults, a saved one reads
// back, and a bad value is refused naming the setting and its limit.
func TestLoadSaveValidate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if s, err := Load(dir); err != nil || s.MCPPort != 0 || s.MCPAddr() != "127.0.0.1:7931" {
		t.Fatalf("defaults: %+v %v", s, err)
	}
	want := Settings{MCPPort: 8123, AskMode: "auto", DefaultTimeoutSeconds: 600, AwaySchedule: "weekdays after 18:00, weekends"}
	if err := Save(dir, want); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil || got.MCPPort != 8123 || got.AskMode != "auto" || got.MCPAddr() != "127.0.0.1:8123" ||
		got.Schedule().Describe() != "Mon–Fri 18:00–24:00; Sat, Sun all day" {
		t.Fatalf("loaded %+v %v", got, err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, File)); fi.Mode().Perm() != 0o600 {
		t.Fatalf("settings file mode %v", fi.Mode())
	}
	for s, wantErr := range map[*Settings]string{
		{MCPPort: 80}:                   "mcp_port: must be between 1024 and 65535",
		{AskMode: "always"}:             `ask_mode: must be one of desktop, client, auto, got "always"`,
		{AwaySchedule: "weekdays at 6"}: `away_schedule: "weekdays at 6": invalid: "at 6" is not a time of day`,
	} {
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%+v: %v, want %q", *s, err, wantErr)
		}
	}
}

// TestWelcomed: a data dir is on its first run until MarkWelcomed, with or
// without settings.json; the mark is 0600 and survives.
func TestWelcomed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if Welcomed(dir) {
		t.Fatal("an empty data dir is welcomed")
	}
	if err := Save(dir, Settings{ArmDelayMS: 800}); err != nil {
		t.Fatal(err)
	}
	if Welcomed(dir) {
		t.Fatal("settings.json alone counts as welcomed")
	}
	if err := MarkWelcomed(dir); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, WelcomedFile))
	if err != nil || st.Mode().Perm() != 0o600 || !Welcomed(dir) {
		t.Fatalf("after the mark: %v %v %v", st, err, Welcomed(dir))
	}
	if err := MarkWelcomed(filepath.Join(dir, "missing", "dir")); err == nil || !strings.Contains(err.Error(), "first run") {
		t.Errorf("a mark in a missing dir: %v", err)
	}
}

// TestParseShortcut reads chords in any case and order into the keysym
// the grab needs, writes them back in one spelling, and refuses a chord
// without Ctrl, Alt or Super, a doubled modifier and an unknown key,
// naming what is wrong; Validate names global_shortcut.
func TestParseShortcut(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Shortcut{
		"Ctrl+Alt+A":        {Ctrl: true, Alt: true, Key: "a"},
		"super+shift+f9":    {Super: true, Shift: true, Key: "F9"},
		" control + 7 ":     {Ctrl: true, Key: "7"},
		"Alt+PageDown":      {Alt: true, Key: "Next"},
		"Win+Space":         {Super: true, Key: "space"},
		"Shift+Ctrl+Insert": {Ctrl: true, Shift: true, Key: "Insert"},
	} {
		got, err := ParseShortcut(in)
		if err != nil || got != want {
			t.Errorf("ParseShortcut(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for sc, want := range map[Shortcut]string{
		{Ctrl: true, Alt: true, Key: "a"}: "Ctrl+Alt+A", {Super: true, Shift: true, Key: "F9"}: "Shift+Super+F9", {Alt: true, Key: "Next"}: "Alt+PageDown", {Super: true, Key: "space"}: "Super+Space",
	} {
		if got := sc.String(); got != want {
			t.Errorf("%+v.String() = %q, want %q", sc, got, want)
		}
		if back, err := ParseShortcut(sc.String()); err != nil || back != sc {
			t.Errorf("%q reads back as %+v, %v", sc.String(), back, err)
		}
	}
	for in, why := range map[string]string{
		"A": "needs Ctrl, Alt or Super and a key", "Shift+A": "needs Ctrl, Alt or Super", "Ctrl+Ctrl+A": "Ctrl is there twice",
		"Hyper+A": `"Hyper" is not one of`, "Ctrl+F13": `the key "F13"`, "Ctrl+Alt+": `the key ""`, "Ctrl+é": `the key "é"`,
	} {
		if _, err := ParseShortcut(in); err == nil || !strings.Contains(err.Error(), why) || !strings.Contains(err.Error(), "such as Ctrl+Alt+A") {
			t.Errorf("ParseShortcut(%q): %v, want it to say %q", in, err, why)
		}
	}
	if err := (Settings{GlobalShortcut: "Shift+A"}).Validate(); err == nil || !strings.HasPrefix(err.Error(), "global_shortcut: ") {
		t.Errorf("Validate: %v", err)
	}
	if err := (Settings{GlobalShortcut: "Ctrl+Alt+A"}).Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}
