package cli

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/clientsetup"
)

// configPath returns where cmdConfig writes client's setup under home.
func configPath(t *testing.T, client, home string) string {
	t.Helper()
	sys := clientsetup.Sys{GOOS: "linux", Home: home, Getenv: func(string) string { return "" }}
	tg, err := clientsetup.Build(client, sys, testDataDir, clientsetup.Server{}, true)
	if err != nil {
		t.Fatal(err)
	}
	return tg.Path
}

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func backups(t *testing.T, path string) []string {
	t.Helper()
	m, err := filepath.Glob(path + ".bak-*")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// readServers decodes the JSON config at path and returns its rootKey object.
func readServers(t *testing.T, path, rootKey string) (root, servers map[string]any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
	servers, _ = root[rootKey].(map[string]any)
	return root, servers
}

func TestConfigWrite_CreatesFiles(t *testing.T) {
	for _, client := range clientsetup.Clients() {
		t.Run(client, func(t *testing.T) {
			home := t.TempDir()
			fakeConfig(t, home, nil, false)
			out, _, err := runConfig(t, client, "--write", "--data-dir", testDataDir)
			if err != nil {
				t.Fatal(err)
			}
			path := configPath(t, client, home)
			if !strings.Contains(out, "Created "+path) {
				t.Errorf("output does not name %s:\n%s", path, out)
			}
			if m := mode(t, path); m != 0o600 {
				t.Errorf("%s has mode %v", path, m)
			}
			for d := filepath.Dir(path); d != home; d = filepath.Dir(d) {
				if m := mode(t, d); m != 0o700 {
					t.Errorf("%s has mode %v", d, m)
				}
			}
			if b := backups(t, path); len(b) != 0 {
				t.Errorf("backups of a new file: %v", b)
			}
			b, _ := os.ReadFile(path)
			if client == "codex" {
				if !strings.HasPrefix(string(b), "[mcp_servers.asktray]\nurl = \""+testURL+"\"\n") {
					t.Errorf("config.toml:\n%s", b)
				}
				return
			}
			if !json.Valid(b) || !strings.Contains(string(b), `"asktray"`) || !strings.HasSuffix(string(b), "}\n") {
				t.Errorf("%s:\n%s", path, b)
			}
		})
	}
}

func TestConfigWrite_MergesJSON(t *testing.T) {
	home := t.TempDir()
	fakeConfig(t, home, nil, false)
	path := configPath(t, "cursor", home)
	old := `{
    "mcpServers": {
        "other": {"command": "other-server", "args": ["-x"]},
        "asktray": {"url": "http://127.0.0.1:1/mcp"}
    },
    "big": 12345678901234567890123,
    "nested": {"keep": [1, 2.50, "<&>"]}
}`
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runConfig(t, "cursor", "--write")
	if err != nil {
		t.Fatal(err)
	}
	root, servers := readServers(t, path, "mcpServers")
	want := map[string]any{
		"other":   map[string]any{"command": "other-server", "args": []any{"-x"}},
		"asktray": map[string]any{"url": testURL, "headers": map[string]any{"Authorization": "Bearer " + testToken}},
	}
	if !reflect.DeepEqual(servers, want) {
		t.Errorf("servers = %v", servers)
	}
	if root["big"] != json.Number("12345678901234567890123") || len(root) != 3 {
		t.Errorf("root = %v", root)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "2.50,") || !strings.Contains(string(b), `"<&>"`) {
		t.Errorf("a value lost its text:\n%s", b)
	}
	if m := mode(t, path); m != 0o600 {
		t.Errorf("mode %v, want 0600 for a file holding the token", m)
	}
	if !strings.Contains(out, "mode was 0644; it is now 0600") {
		t.Errorf("output does not say the mode changed:\n%s", out)
	}
	bk := backups(t, path)
	if len(bk) != 1 {
		t.Fatalf("backups %v", bk)
	}
	if b, _ := os.ReadFile(bk[0]); string(b) != old {
		t.Errorf("backup holds %q", b)
	}
	if m := mode(t, bk[0]); m != 0o600 {
		t.Errorf("backup mode %v", m)
	}
	if !strings.Contains(out, path) || !strings.Contains(out, bk[0]) {
		t.Errorf("output does not name the file and the backup:\n%s", out)
	}

	// A second run finds nothing to change and makes no backup.
	out, _, err = runConfig(t, "cursor", "--write")
	if err != nil || !strings.Contains(out, "nothing to change") || len(backups(t, path)) != 1 {
		t.Errorf("second run: %v\n%s", err, out)
	}
}

func TestConfigWrite_RefusesWhatItCannotParse(t *testing.T) {
	for _, tc := range []struct{ client, content string }{
		{"cursor", "{\n  // JSONC\n  \"mcpServers\": {}\n}\n"},
		{"zed", `{"context_servers": []}`},
		{"opencode", `{"mcp": {"servers": 1}}`},
		{"cursor", `{"mcpServers": {},}`},
		{"windsurf", `{"mcpServers": ["not", "an", "object"]}`},
		{"claude-code", `[]`},
		{"claude-desktop", `{"mcpServers": {}} {}`},
		{"codex", "mcp_servers.asktray.command = \"x\"\n"},
		{"codex", "[mcp_servers]\nasktray = { command = \"x\" }\n"},
		{"codex", "mcp_servers = { other = { command = \"x\" } }\n"},
		{"codex", "[[mcp_servers.asktray]]\ncommand = \"x\"\n"},
		{"codex", "a = \"unterminated\n"},
		{"codex", "a = [\n1,\n"},
	} {
		home := t.TempDir()
		fakeConfig(t, home, nil, false)
		path := configPath(t, tc.client, home)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
			t.Fatal(err)
		}
		out, _, err := runConfig(t, tc.client, "--write")
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "by hand") {
			t.Errorf("%s %q: err = %v", tc.client, tc.content, err)
		}
		if !strings.Contains(out, clientsetup.ServerName) {
			t.Errorf("%s: the snippet is not printed:\n%s", tc.client, out)
		}
		if b, _ := os.ReadFile(path); string(b) != tc.content {
			t.Errorf("%s: the file changed to %q", tc.client, b)
		}
		if b := backups(t, path); len(b) != 0 {
			t.Errorf("%s: backups %v", tc.client, b)
		}
	}
}

func TestConfigWrite_FollowsSymlink(t *testing.T) {
	home := t.TempDir()
	fakeConfig(t, home, nil, false)
	path := configPath(t, "windsurf", home)
	real := filepath.Join(home, "dotfiles", "mcp_config.json")
	for _, d := range []string{filepath.Dir(path), filepath.Dir(real)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(real, []byte(`{"mcpServers": {"x": {"serverUrl": "http://x"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "windows" {
		t.Skip("creating a symlink needs a privilege on Windows; CI runs this on Linux")
	}
	if err := os.Symlink(real, path); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runConfig(t, "windsurf", "--write"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi, err)
	}
	_, servers := readServers(t, real, "mcpServers")
	if len(servers) != 2 || servers["asktray"].(map[string]any)["serverUrl"] != testURL {
		t.Errorf("servers = %v", servers)
	}
	if len(backups(t, real)) != 1 {
		t.Errorf("no backup next to %s", real)
	}
}

const codexHTTPTable = `[mcp_servers.asktray]
url = "http://127.0.0.1:7931/mcp"
http_headers = { "Authorization" = "Bearer ` + testToken + `" }
# Codex gives up on a tool call after 300 s by default (60 s in older versions), but a
# question waits for your answer until its deadline, which the agent may set longer.
tool_timeout_sec = 600
`

func TestConfigWrite_CodexTOML(t *testing.T) {
	const head = `model = "gpt-5"   # a comment

[mcp_servers.other]
command = "other"
args = [
  "--flag",
  "[mcp_servers.asktray]",
]
description = """
[mcp_servers.asktray]
not a header
"""
note = '''
[mcp_servers.asktray]'''
`
	const tail = `
# profiles follow
[profiles.fast]
model = "gpt-5-mini"
`
	for _, tc := range []struct{ name, old, want string }{
		{
			name: "replace",
			old: head + `
[ mcp_servers . "asktray" ]
command = "/old/asktray"
args = ["stdio"]

[mcp_servers.asktray.env]
X = "1"

[mcp_servers.asktray.tools.notify]
approval_mode = "approve"
` + tail,
			// The header stays as it was written, and so does the
			// person's tools table: only asktray's keys change. The env
			// table goes with the switch to HTTP: Codex refuses env for
			// a streamable_http server, and with it the whole config.
			want: head + "\n[ mcp_servers . \"asktray\" ]\n" + strings.TrimPrefix(codexHTTPTable, "[mcp_servers.asktray]\n") +
				"\n[mcp_servers.asktray.tools.notify]\napproval_mode = \"approve\"\n" + tail,
		},
		{name: "append", old: head + tail, want: head + tail + "\n" + codexHTTPTable},
		{name: "append without final newline", old: `model = "x"`, want: "model = \"x\"\n\n" + codexHTTPTable},
		{name: "empty", old: "", want: codexHTTPTable},
		{
			name: "crlf",
			old:  "a = 1\r\n[mcp_servers.asktray]\r\nurl = \"old\"\r\n[b]\r\n",
			want: "a = 1\r\n" + strings.ReplaceAll(codexHTTPTable, "\n", "\r\n") + "[b]\r\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			fakeConfig(t, home, nil, false)
			path := configPath(t, "codex", home)
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tc.old), 0o640); err != nil {
				t.Fatal(err)
			}
			if _, _, err := runConfig(t, "codex", "--write"); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(path); string(b) != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", b, tc.want)
			}
			if m := mode(t, path); m != 0o600 {
				t.Errorf("mode %v, want 0600 for a file holding the token", m)
			}
			if bk := backups(t, path); len(bk) != 1 {
				t.Errorf("backups %v", bk)
			}
		})
	}
}

func TestConfigWrite_KeepsComments(t *testing.T) {
	for _, tc := range []struct{ client, old, want string }{
		{"vscode", "{\n\t// my servers\n\t\"servers\": {\n\t\t\"other\": {\"url\": \"http://x\"}, // keep me\n\t},\n\t/* tail */\n}\n",
			"{\n\t// my servers\n\t\"servers\": {\n\t\t\"other\": {\"url\": \"http://x\"}, // keep me\n\t\t\"asktray\": {\n\t\t\t\"type\": \"http\",\n\t\t\t\"url\": \"" + testURL + "\",\n\t\t\t\"headers\": {\n\t\t\t\t\"Authorization\": \"Bearer " + testToken + "\"\n\t\t\t}\n\t\t},\n\t},\n\t/* tail */\n}\n"},
		{"zed", "// Zed settings\n{\n  \"theme\": \"One Dark\", // dark\n}\n",
			"// Zed settings\n{\n  \"theme\": \"One Dark\", // dark\n  \"context_servers\": {\n    \"asktray\": {\n      \"url\": \"" + testURL + "\",\n      \"headers\": {\n        \"Authorization\": \"Bearer " + testToken + "\"\n      }\n    }\n  },\n}\n"},
	} {
		t.Run(tc.client, func(t *testing.T) {
			home := t.TempDir()
			fakeConfig(t, home, nil, false)
			path := configPath(t, tc.client, home)
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tc.old), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, _, err := runConfig(t, tc.client, "--write"); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(path); string(b) != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", b, tc.want)
			}
			out, _, err := runConfig(t, tc.client, "--write")
			if err != nil || !strings.Contains(out, "nothing to change") || len(backups(t, path)) != 1 {
				t.Errorf("second run: %v, %d backups\n%s", err, len(backups(t, path)), out)
			}
		})
	}
}

func TestConfigWrite_StdioKeepsMode(t *testing.T) {
	home := t.TempDir()
	fakeConfig(t, home, nil, false)
	path := configPath(t, "cursor", home)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"mcpServers": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runConfig(t, "cursor", "--write", "--stdio")
	if err != nil {
		t.Fatal(err)
	}
	if m := mode(t, path); m != 0o644 || strings.Contains(out, "mode was") {
		t.Errorf("a file without the token changed mode to %v:\n%s", m, out)
	}
}

func TestConfigWrite_TightensModeWhenUnchanged(t *testing.T) {
	home := t.TempDir()
	fakeConfig(t, home, nil, false)
	if _, _, err := runConfig(t, "windsurf", "--write"); err != nil {
		t.Fatal(err)
	}
	path := configPath(t, "windsurf", home)
	if err := os.Chmod(path, 0o664); err != nil {
		t.Fatal(err)
	}
	out, _, err := runConfig(t, "windsurf", "--write")
	if err != nil || !strings.Contains(out, "nothing to change") || !strings.Contains(out, "now 0600") {
		t.Fatalf("%v\n%s", err, out)
	}
	if m := mode(t, path); m != 0o600 {
		t.Errorf("mode %v", m)
	}
}
