package clientsetup

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

const (
	testToken   = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	testURL     = "http://127.0.0.1:7931/mcp"
	testExe     = "/opt/asktray/bin/asktray"
	testDataDir = "/home/ada/.local/share/asktray"
)

func TestPaths(t *testing.T) {
	for _, tc := range []struct {
		goos, client string
		env          map[string]string
		want         string
	}{
		{"linux", "claude-desktop", nil, "/h/.config/Claude/claude_desktop_config.json"},
		{"linux", "vscode", map[string]string{"XDG_CONFIG_HOME": "/x"}, "/x/Code/User/mcp.json"},
		{"linux", "vscode", map[string]string{"XDG_CONFIG_HOME": "relative"}, "/h/.config/Code/User/mcp.json"},
		{"darwin", "claude-desktop", nil, "/h/Library/Application Support/Claude/claude_desktop_config.json"},
		{"darwin", "vscode", nil, "/h/Library/Application Support/Code/User/mcp.json"},
		{"windows", "vscode", map[string]string{"APPDATA": "/appdata"}, "/appdata/Code/User/mcp.json"},
		{"windows", "claude-desktop", nil, "/h/AppData/Roaming/Claude/claude_desktop_config.json"},
		{"linux", "claude-code", nil, "/h/.claude.json"},
		{"linux", "claude-code", map[string]string{"CLAUDE_CONFIG_DIR": "/cc"}, "/cc/.claude.json"},
		{"linux", "codex", nil, "/h/.codex/config.toml"},
		{"linux", "codex", map[string]string{"CODEX_HOME": "/cx"}, "/cx/config.toml"},
		{"windows", "cursor", nil, "/h/.cursor/mcp.json"},
		{"darwin", "windsurf", nil, "/h/.codeium/windsurf/mcp_config.json"},
		{"linux", "gemini-cli", nil, "/h/.gemini/settings.json"},
		{"linux", "zed", nil, "/h/.config/zed/settings.json"},
		{"darwin", "zed", map[string]string{"XDG_CONFIG_HOME": "/x"}, "/x/zed/settings.json"},
		{"windows", "zed", map[string]string{"APPDATA": "/appdata"}, "/appdata/Zed/settings.json"},
		{"linux", "opencode", nil, "/h/.config/opencode/opencode.json"},
		{"linux", "copilot-cli", nil, "/h/.copilot/mcp-config.json"},
		{"linux", "copilot-cli", map[string]string{"COPILOT_HOME": "/cp"}, "/cp/mcp-config.json"},
	} {
		sys := Sys{GOOS: tc.goos, Home: "/h", Getenv: func(k string) string { return tc.env[k] }, Exe: testExe}
		tg, err := Build(tc.client, sys, testDataDir, Server{URL: testURL, Token: testToken}, true)
		if err != nil {
			t.Fatal(err)
		}
		if tg.Path != filepath.FromSlash(tc.want) {
			t.Errorf("%s %s %v: %s, want %s", tc.goos, tc.client, tc.env, tg.Path, tc.want)
		}
	}
}

func TestTOMLQuoting(t *testing.T) {
	for _, s := range []string{`C:\Program Files\Asktray\asktray.exe`, `a "quoted" path`, "tab\tnew\nline\x01\x7f", "ünïcode ✓", ""} {
		q := tomlString(s)
		if strings.ContainsAny(q, "\n\t\x01\x7f") {
			t.Errorf("%q: raw control character in %s", s, q)
		}
		if back, err := strconv.Unquote(q); err != nil || back != s {
			t.Errorf("%q -> %s -> %q, %v", s, q, back, err)
		}
		if lines, err := scanTOML("[" + q + ".b]\n"); err != nil || !reflect.DeepEqual(lines[0].header, []string{s, "b"}) {
			t.Errorf("%q: header %v, %v", s, lines, err)
		}
	}
}

func TestShellQuoting(t *testing.T) {
	for _, tc := range []struct{ goos, in, want string }{
		{"linux", "/usr/bin/asktray", "/usr/bin/asktray"},
		{"linux", "Authorization: Bearer x", `"Authorization: Bearer x"`},
		{"linux", "/my $dir/`a`\\b\"", `"/my \$dir/\` + "`a\\`" + `\\b\""`},
		{"linux", "/wow!/it's", `'/wow!/it'\''s'`},
		{"linux", "", `""`},
		{"windows", `C:\Program Files\asktray.exe`, `"C:\Program Files\asktray.exe"`},
	} {
		if got := shellQuote(tc.goos, tc.in); got != tc.want {
			t.Errorf("%s %q: %s, want %s", tc.goos, tc.in, got, tc.want)
		}
	}
}

// TestOpencodeJSONC: opencode's config may be opencode.jsonc; the setup goes
// into that file when it is there.
func TestOpencodeJSONC(t *testing.T) {
	home := t.TempDir()
	sys := Sys{GOOS: "linux", Home: home, Getenv: func(string) string { return "" }, Exe: testExe}
	dir := filepath.Join(home, ".config", "opencode")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "opencode.jsonc"), []byte("{\n  // mine\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tg, err := Build("opencode", sys, testDataDir, Server{URL: testURL, Token: testToken}, true)
	if err != nil || tg.Path != filepath.Join(dir, "opencode.jsonc") {
		t.Fatalf("%v %s", err, tg.Path)
	}
	var out strings.Builder
	if err := tg.Write(&out); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(tg.Path)
	if !strings.Contains(string(b), "// mine") || !strings.Contains(string(b), `"type": "remote"`) {
		t.Errorf("opencode.jsonc:\n%s", b)
	}
}
