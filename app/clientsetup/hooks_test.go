package clientsetup

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
)

const hookDeadline = 300 * time.Second

func hooksFor(t *testing.T, agent, home string, env map[string]string) Hooks {
	t.Helper()
	sys := Sys{GOOS: "linux", Home: home, Getenv: func(k string) string { return env[k] }, Exe: "/opt/asktray/bin/asktray"}
	h, err := BuildHooks(agent, sys, "/data", hookDeadline)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func run(t *testing.T, f func(*bytes.Buffer) error) string {
	t.Helper()
	var out bytes.Buffer
	if err := f(&out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	return out.String()
}

func fileMode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func TestHooks_Paths(t *testing.T) {
	for _, tc := range []struct {
		agent string
		env   map[string]string
		want  string
	}{
		{"claude-code", nil, "/h/.claude/settings.json"},
		{"claude-code", map[string]string{"CLAUDE_CONFIG_DIR": "/cc"}, "/cc/settings.json"},
		{"codex", nil, "/h/.codex/hooks.json"},
		{"codex", map[string]string{"CODEX_HOME": "/cx"}, "/cx/hooks.json"},
		{"copilot-cli", nil, "/h/.copilot/hooks/asktray.json"},
		{"copilot-cli", map[string]string{"COPILOT_HOME": "/cp"}, "/cp/hooks/asktray.json"},
	} {
		if h := hooksFor(t, tc.agent, "/h", tc.env); h.Path != filepath.FromSlash(tc.want) {
			t.Errorf("%s %v: %s, want %s", tc.agent, tc.env, h.Path, tc.want)
		}
	}
	if _, err := BuildHooks("cursor", Sys{}, "", time.Minute); err == nil {
		t.Error("hooks for cursor")
	}
}

// TestHooks_MergeKeepsRemoveRestores merges into a settings file with other
// hooks and settings, runs again, and removes: the first run adds every
// event's hook and keeps the rest, the second changes nothing, the removal
// gives back the very bytes the file had.
func TestHooks_MergeKeepsRemoveRestores(t *testing.T) {
	for _, agent := range []string{"claude-code", "codex"} {
		t.Run(agent, func(t *testing.T) {
			h := hooksFor(t, agent, t.TempDir(), nil)
			const old = "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"PermissionRequest\": [\n" +
				"      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"/opt/relay.sh\", \"timeout\": 30}]}\n" +
				"    ]\n  },\n  \"permissions\": {\"allow\": [\"Bash(ls)\"]}\n}\n"
			if err := os.MkdirAll(filepath.Dir(h.Path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(h.Path, []byte(old), 0o640); err != nil {
				t.Fatal(err)
			}
			out := run(t, func(b *bytes.Buffer) error { return h.Write(b) })
			if !strings.Contains(out, "Added the asktray hooks") {
				t.Errorf("output:\n%s", out)
			}
			var doc struct {
				Model       string
				Permissions map[string][]string
				Hooks       map[string][]struct {
					Matcher string
					Hooks   []struct {
						Type, Command string
						Timeout       int
					}
				}
			}
			b, _ := os.ReadFile(h.Path)
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Model != "opus" || doc.Permissions["allow"][0] != "Bash(ls)" {
				t.Errorf("lost a setting:\n%s", b)
			}
			for _, ev := range hook.Events(hook.Agent(agent)) {
				groups := doc.Hooks[ev]
				if len(groups) == 0 {
					t.Fatalf("no %s hook:\n%s", ev, b)
				}
				g := groups[len(groups)-1]
				if g.Matcher != "" || len(g.Hooks) != 1 || g.Hooks[0].Type != "command" ||
					g.Hooks[0].Command != "/opt/asktray/bin/asktray hook "+agent+" --data-dir /data" || g.Hooks[0].Timeout != 86406 {
					t.Errorf("%s: %+v", ev, g)
				}
			}
			if pr := doc.Hooks["PermissionRequest"]; len(pr) != 2 || pr[0].Hooks[0].Command != "/opt/relay.sh" {
				t.Errorf("the other PermissionRequest hook is gone: %+v", pr)
			}
			if m := fileMode(t, h.Path); m != 0o640 {
				t.Errorf("mode %v", m)
			}
			out = run(t, func(b *bytes.Buffer) error { return h.Write(b) })
			if !strings.Contains(out, "nothing to change") {
				t.Errorf("second run:\n%s", out)
			}
			if bk, _ := filepath.Glob(h.Path + ".bak-*"); len(bk) != 1 {
				t.Errorf("backups %v", bk)
			}
			run(t, func(b *bytes.Buffer) error { return h.Remove(b) })
			if b, _ := os.ReadFile(h.Path); string(b) != old {
				t.Errorf("after --remove:\n%s\nwant:\n%s", b, old)
			}
			if out = run(t, func(b *bytes.Buffer) error { return h.Remove(b) }); !strings.Contains(out, "holds no asktray hooks") {
				t.Errorf("second remove:\n%s", out)
			}
		})
	}
}

// TestHooks_ReplacesOldAndSharedGroups: an asktray hook from an older setup
// (another path, another timeout) is replaced rather than doubled, and one
// sharing a group with someone else's handler leaves that handler alone.
func TestHooks_ReplacesOldAndSharedGroups(t *testing.T) {
	h := hooksFor(t, "claude-code", t.TempDir(), nil)
	old := `{"hooks": {
  "Stop": [{"hooks": [{"type": "command", "command": "'/old place/asktray' hook claude-code", "timeout": 60}]}],
  "Notification": [{"hooks": [
    {"type": "command", "command": "notify-send hi"},
    {"type": "command", "command": "/usr/bin/asktray hook claude-code --timeout 9"}
  ]}]
}}`
	if err := os.MkdirAll(filepath.Dir(h.Path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.Path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	run(t, func(b *bytes.Buffer) error { return h.Write(b) })
	b, _ := os.ReadFile(h.Path)
	if strings.Count(string(b), "hook claude-code") != len(hook.Events(hook.ClaudeCode)) || strings.Contains(string(b), "/old place") {
		t.Errorf("old hooks not replaced:\n%s", b)
	}
	run(t, func(b *bytes.Buffer) error { return h.Remove(b) })
	b, _ = os.ReadFile(h.Path)
	if !sameJSON(b, []byte(`{"hooks": {"Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}]}}`)) {
		t.Errorf("after --remove:\n%s", b)
	}
}

func TestHooks_CopilotOwnFile(t *testing.T) {
	h := hooksFor(t, "copilot-cli", t.TempDir(), nil)
	out := run(t, func(b *bytes.Buffer) error { return h.Write(b) })
	if !strings.Contains(out, "Created "+h.Path) {
		t.Errorf("output:\n%s", out)
	}
	var doc struct {
		Version int
		Hooks   map[string][]map[string]any
	}
	b, _ := os.ReadFile(h.Path)
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, ev := range hook.Events(hook.CopilotCLI) {
		pr := doc.Hooks[ev]
		if doc.Version != 1 || len(pr) != 1 || pr[0]["type"] != "command" || pr[0]["timeoutSec"] != 86406.0 ||
			pr[0]["bash"] != "/opt/asktray/bin/asktray hook copilot-cli --event "+ev+" --data-dir /data" ||
			pr[0]["powershell"] != "& '/opt/asktray/bin/asktray' 'hook' 'copilot-cli' '--event' '"+ev+"' '--data-dir' '/data'" {
			t.Errorf("%s in asktray.json:\n%s", ev, b)
		}
	}
	if !strings.Contains(string(b), `"powershell": "& '`) {
		t.Errorf("the PowerShell command is escaped:\n%s", b)
	}
	if m := fileMode(t, h.Path); m != 0o600 {
		t.Errorf("mode %v", m)
	}
	run(t, func(b *bytes.Buffer) error { return h.Remove(b) })
	if _, err := os.Stat(h.Path); !os.IsNotExist(err) {
		t.Errorf("asktray.json is still there: %v", err)
	}
}

func TestHooks_RefusesWhatItCannotParse(t *testing.T) {
	for _, old := range []string{`{"hooks": []}`, `{"hooks": {"Stop": {}}}`, `[]`, "{\n// c\n}"} {
		h := hooksFor(t, "claude-code", t.TempDir(), nil)
		if err := os.MkdirAll(filepath.Dir(h.Path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(h.Path, []byte(old), 0o600); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := h.Write(&out); err == nil || !strings.Contains(err.Error(), "by hand") {
			t.Errorf("%q: %v", old, err)
		}
		if b, _ := os.ReadFile(h.Path); string(b) != old {
			t.Errorf("%q changed to %q", old, b)
		}
	}
}

func TestHooks_IsOurs(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{"/usr/bin/asktray hook codex", true},
		{"'/Applications/Ask Tray/asktray' hook codex --timeout 5", true},
		{`"C:\Program Files\Asktray\asktray.exe" hook codex`, true},
		{"/usr/bin/asktray hook claude-code", false},
		{"/usr/bin/other hook codex", false},
		{"asktray", false},
		{"echo asktray hook", false},
	} {
		if got := isOurs(tc.cmd, hook.Codex); got != tc.want {
			t.Errorf("%q: %v", tc.cmd, got)
		}
	}
}

func TestHooks_PrintSaysTrustAndTimeout(t *testing.T) {
	h := hooksFor(t, "codex", "/h", nil)
	out := run(t, func(b *bytes.Buffer) error { return h.Print(b) })
	snip, _ := h.Snippet()
	for _, want := range []string{string(snip), "/hooks", "review", "once", "86406 s", "(now 300 s)", "--hooks --remove", "/h/.codex/hooks.json",
		"[features] hooks = false"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "codex_hooks") {
		t.Errorf("the obsolete feature flag:\n%s", out)
	}
}

func TestHooks_OwnExecutableWhateverItsName(t *testing.T) {
	sys := Sys{GOOS: "linux", Home: "/h", Getenv: func(string) string { return "" }, Exe: "/tmp/b/ui.test"}
	h, err := BuildHooks("codex", sys, "/d", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]bool{
		"/tmp/b/ui.test hook codex --timeout 5":     true,
		"& '/tmp/b/ui.test' 'hook' 'codex' '--x'":   true,
		"/tmp/b/ui.test hook claude-code":           false,
		"/tmp/b/ui.test2 hook codex --timeout 5":    false,
		"/tmp/b/ui.test hook codexx --timeout 5 --": false,
	} {
		if got := h.handlerOurs(map[string]any{"command": cmd}); got != want {
			t.Errorf("%q: %v", cmd, got)
		}
	}
}

// TestHooks_HookBinaryBeside: with the hook-only binary beside asktray (an
// executable file), every hook runs it, and a rerun replaces the hooks
// that ran asktray itself; without it (or not executable) they run
// asktray.
func TestHooks_HookBinaryBeside(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	exe := filepath.Join(dir, "asktray")
	hookExe := filepath.Join(dir, HookName)
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	if got := HookBeside(exe); got != "" {
		t.Errorf("no hook binary: HookBeside = %q", got)
	}
	if err := os.WriteFile(hookExe, []byte("#!/bin/sh\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := HookBeside(exe); got != "" {
		t.Errorf("hook binary not executable: HookBeside = %q", got)
	}
	if err := os.Chmod(hookExe, 0o700); err != nil {
		t.Fatal(err)
	}
	if got := HookBeside(exe); got != hookExe {
		t.Fatalf("HookBeside = %q, want %q", got, hookExe)
	}

	home := t.TempDir()
	sys := Sys{GOOS: "linux", Home: home, Getenv: func(string) string { return "" }, Exe: exe}
	old, err := BuildHooks("claude-code", sys, "/data", hookDeadline)
	if err != nil {
		t.Fatal(err)
	}
	run(t, func(b *bytes.Buffer) error { return old.Write(b) })
	sys.HookExe = HookBeside(exe)
	h, err := BuildHooks("claude-code", sys, "/data", hookDeadline)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range h.Entries() {
		if e.Args[0] != hookExe || e.Args[1] != "hook" {
			t.Errorf("%s runs %q, want %s hook", e.Event, e.Args, hookExe)
		}
	}
	run(t, func(b *bytes.Buffer) error { return h.Write(b) })
	b, _ := os.ReadFile(h.Path)
	n := len(hook.Events(hook.ClaudeCode))
	if strings.Count(string(b), hookExe+" hook claude-code") != n || strings.Count(string(b), "hook claude-code") != n {
		t.Errorf("the rerun did not replace the hooks that ran asktray:\n%s", b)
	}
	before := string(b)
	run(t, func(b *bytes.Buffer) error { return h.Write(b) })
	if b, _ := os.ReadFile(h.Path); string(b) != before {
		t.Errorf("a second rerun changed the file:\n%s\nwas\n%s", b, before)
	}
}
