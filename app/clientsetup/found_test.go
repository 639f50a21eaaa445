package clientsetup

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeMachine is a scratch home with a PATH of its own: what Detect reads.
func fakeMachine(t *testing.T) (Sys, string) {
	t.Helper()
	home := t.TempDir()
	bin := filepath.Join(t.TempDir(), "bin")
	env := map[string]string{"PATH": bin}
	for _, d := range []string{bin, filepath.Join(home, ".config"), filepath.Join(home, ".local", "bin")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return Sys{GOOS: "linux", Home: home, Getenv: func(k string) string { return env[k] }, Exe: "/opt/asktray/bin/asktray"}, bin
}

func touch(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), mode); err != nil {
		t.Fatal(err)
	}
}

// TestDetect finds an agent by its program on PATH or in ~/.local/bin, or
// by its own folder (or the one above its hooks file's), never by the home
// dir or ~/.config alone, and not by a file that cannot run.
func TestDetect(t *testing.T) {
	t.Parallel()
	sys, bin := fakeMachine(t)
	touch(t, filepath.Join(bin, "codex"), 0o755)
	touch(t, filepath.Join(bin, "gemini"), 0o644) // not executable
	touch(t, filepath.Join(sys.Home, ".local", "bin", "kilo"), 0o755)
	for _, d := range []string{".claude", ".copilot", ".cursor", ".config/opencode"} {
		if err := os.MkdirAll(filepath.Join(sys.Home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]Agent{}
	var order []string
	for _, a := range Detect(sys) {
		got[a.Name] = a
		order = append(order, a.Name)
	}
	want := map[string]string{
		"claude-code": "~/.claude exists", "codex": "codex in " + bin, "copilot-cli": "~/.copilot exists",
		"kilo": "kilo in ~/.local/bin", "opencode": "~/.config/opencode exists", "cursor": "~/.cursor exists",
		"gemini-cli": "", "qwen": "", "droid": "", "vscode": "", "zed": "", "windsurf": "", "claude-desktop": "",
	}
	for name, found := range want {
		a, ok := got[name]
		if !ok {
			t.Errorf("%s is not listed: %q", name, order)
			continue
		}
		if a.Found != found {
			t.Errorf("%s found %q, want %q", name, a.Found, found)
		}
	}
	if a := got["claude-code"]; !a.MCP || !a.Hooks || a.Title != "Claude Code" {
		t.Errorf("claude-code: %+v", a)
	}
	if a := got["cursor"]; !a.MCP || a.Hooks || a.Title != "Cursor" {
		t.Errorf("cursor: %+v", a)
	}
	if a := got["kilo"]; a.MCP || !a.Hooks {
		t.Errorf("kilo: %+v", a)
	}
	if order[len(order)-1] == "claude-code" || got[order[0]].Hooks == false {
		t.Errorf("agents with hooks come first: %q", order)
	}
}

// TestConnect writes an agent's MCP entry and its hooks in one go, into
// the files 'asktray config' writes; Connected reads them back, and a
// second Connect changes nothing.
func TestConnect(t *testing.T) {
	t.Parallel()
	sys, _ := fakeMachine(t)
	srv := Server{URL: "http://127.0.0.1:7931/mcp", Token: "tok", Running: true}
	c, err := Connected("claude-code", sys, "/data")
	if err != nil || c.Done() || c.MCP || c.Hooks != 0 || c.HooksWant == 0 {
		t.Fatalf("before: %+v %v", c, err)
	}
	var out bytes.Buffer
	if err := Connect("claude-code", sys, "/data", srv, 5*time.Minute, &out); err != nil {
		t.Fatalf("connect: %v\n%s", err, out.String())
	}
	b, err := os.ReadFile(filepath.Join(sys.Home, ".claude.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		MCPServers map[string]struct {
			URL     string
			Headers map[string]string
		}
	}
	if err := json.Unmarshal(b, &cfg); err != nil || cfg.MCPServers["asktray"].URL != srv.URL || cfg.MCPServers["asktray"].Headers["Authorization"] != "Bearer tok" {
		t.Errorf("~/.claude.json: %s (%v)", b, err)
	}
	hooks, err := os.ReadFile(filepath.Join(sys.Home, ".claude", "settings.json"))
	if err != nil || !strings.Contains(string(hooks), "PermissionRequest") || !strings.Contains(string(hooks), "hook claude-code") {
		t.Errorf("hooks: %s %v", hooks, err)
	}
	if c, err = Connected("claude-code", sys, "/data"); err != nil || !c.Done() || !c.MCP || c.Hooks != c.HooksWant {
		t.Errorf("after: %+v %v", c, err)
	}
	out.Reset()
	if err := Connect("claude-code", sys, "/data", srv, 5*time.Minute, &out); err != nil || !strings.Contains(out.String(), "nothing to change") {
		t.Errorf("again: %v\n%s", err, out.String())
	}
	if err := Connect("nosuch", sys, "/data", srv, time.Minute, &out); err == nil || !strings.Contains(err.Error(), `"nosuch"`) {
		t.Errorf("unknown agent: %v", err)
	}
}

// TestConnect_HooksOnlyAndMCPOnly: an agent without an MCP entry gets its
// hooks, a client without hooks its MCP entry; Claude Desktop's runs
// 'asktray stdio'.
func TestConnect_HooksOnlyAndMCPOnly(t *testing.T) {
	t.Parallel()
	sys, _ := fakeMachine(t)
	srv := Server{URL: "http://127.0.0.1:7931/mcp", Token: "tok", Running: true}
	var out bytes.Buffer
	for _, a := range []string{"qwen", "cursor", "claude-desktop"} {
		if err := Connect(a, sys, "/data", srv, time.Minute, &out); err != nil {
			t.Fatalf("%s: %v\n%s", a, err, out.String())
		}
		if c, err := Connected(a, sys, "/data"); err != nil || !c.Done() {
			t.Errorf("%s: %+v %v", a, c, err)
		}
	}
	if c, _ := Connected("qwen", sys, "/data"); c.MCPPath != "" || c.HooksWant == 0 {
		t.Errorf("qwen: %+v", c)
	}
	desk, err := os.ReadFile(filepath.Join(sys.Home, ".config", "Claude", "claude_desktop_config.json"))
	if err != nil || !strings.Contains(string(desk), `"stdio"`) || strings.Contains(string(desk), "tok") {
		t.Errorf("Claude Desktop: %s %v", desk, err)
	}
}
