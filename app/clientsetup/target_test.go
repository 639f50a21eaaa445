package clientsetup

import (
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
