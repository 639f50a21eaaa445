package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// go test ./app/cli -run Config -update-config rewrites testdata/config/*.txt.
var updateConfig = flag.Bool("update-config", false, "rewrite the golden files in testdata/config")

const (
	testToken   = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	testURL     = "http://127.0.0.1:7931/mcp"
	testExe     = "/opt/asktray/bin/asktray"
	testDataDir = "/home/ada/.local/share/asktray"
)

// fakeConfig pins what cmdConfig reads from the machine: Linux, home, env and
// testExe; and, unless realServer, an app at testURL with testToken.
func fakeConfig(t *testing.T, home string, env map[string]string, realServer bool) {
	t.Helper()
	oldSys, oldSrv := configSystem, configServer
	t.Cleanup(func() { configSystem, configServer = oldSys, oldSrv })
	configSystem = func() (configSys, error) {
		return configSys{goos: "linux", home: home, getenv: func(k string) string { return env[k] }, exe: testExe}, nil
	}
	if !realServer {
		configServer = func(context.Context, string) (serverInfo, error) {
			return serverInfo{URL: testURL, Token: testToken, Running: true}, nil
		}
	}
}

func runConfig(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = cmdConfig(t.Context(), args, IO{Out: &out, Err: &errb})
	return out.String(), errb.String(), err
}

func TestConfig_Golden(t *testing.T) {
	fakeConfig(t, "/home/ada", nil, false)
	for _, client := range configClients {
		for _, viaStdio := range []bool{false, true} {
			name, args := client, []string{client, "--data-dir", testDataDir}
			if viaStdio {
				if client == "claude-desktop" {
					continue // always stdio
				}
				name, args = client+"-stdio", append(args, "--stdio")
			}
			t.Run(name, func(t *testing.T) {
				out, errOut, err := runConfig(t, args...)
				if err != nil || errOut != "" {
					t.Fatalf("err %v, stderr %q", err, errOut)
				}
				golden := filepath.Join("testdata", "config", name+".txt")
				if *updateConfig {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run with -update-config to create it)", err)
				}
				if out != string(want) {
					t.Errorf("output differs from %s (run with -update-config to accept it):\n%s", golden, out)
				}
			})
		}
	}
}

func TestConfig_Usage(t *testing.T) {
	fakeConfig(t, t.TempDir(), nil, false)
	for _, args := range [][]string{{}, {"emacs"}, {"cursor", "vscode"}, {"cursor", "--bogus"}} {
		_, _, err := runConfig(t, args...)
		if _, ok := errors.AsType[*usageError](err); !ok {
			t.Errorf("%q: want a usage error, got %v", args, err)
			continue
		}
		if code := exitCode(err, IO{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}); code != ExitUsage {
			t.Errorf("%q: exit code %d", args, code)
		}
		if len(args) < 2 {
			for _, c := range configClients {
				if !strings.Contains(err.Error(), c) {
					t.Errorf("%q: %q does not list %s", args, err, c)
				}
			}
		}
	}
}

func TestConfig_Paths(t *testing.T) {
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
		sys := configSys{goos: tc.goos, home: "/h", getenv: func(k string) string { return tc.env[k] }, exe: testExe}
		tg, err := buildTarget(tc.client, sys, testDataDir, serverInfo{URL: testURL, Token: testToken}, true)
		if err != nil {
			t.Fatal(err)
		}
		if tg.path != filepath.FromSlash(tc.want) {
			t.Errorf("%s %s %v: %s, want %s", tc.goos, tc.client, tc.env, tg.path, tc.want)
		}
	}
}

func TestConfig_TOMLQuoting(t *testing.T) {
	for _, s := range []string{`C:\Program Files\Asktray\asktray.exe`, `a "quoted" path`, "tab\tnew\nline\x01\x7f", "ünïcode ✓", ""} {
		q := tomlString(s)
		if strings.ContainsAny(q, "\n\t\x01\x7f") {
			t.Errorf("%q: raw control character in %s", s, q)
		}
		if back, err := strconv.Unquote(q); err != nil || back != s {
			t.Errorf("%q -> %s -> %q, %v", s, q, back, err)
		}
		if key, err := parseDottedKey(q + `.b`); err != nil || !reflect.DeepEqual(key, []string{s, "b"}) {
			t.Errorf("%q: key %q, %v", s, key, err)
		}
	}
}

func TestConfig_ShellQuoting(t *testing.T) {
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

func TestConfig_NoRunningApp(t *testing.T) {
	fakeConfig(t, t.TempDir(), nil, true)
	dir := shortTempDir(t)
	out, errOut, err := runConfig(t, "cursor", "--data-dir", dir)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := os.ReadFile(filepath.Join(dir, "token"))
	if err != nil {
		t.Fatal(err)
	}
	if m := mode(t, filepath.Join(dir, "token")); m != 0o600 {
		t.Errorf("token mode %v", m)
	}
	if !strings.Contains(out, `"url": "http://127.0.0.1:7931/mcp"`) || !strings.Contains(out, "Bearer "+strings.TrimSpace(string(tok))) {
		t.Errorf("output:\n%s", out)
	}
	if !strings.Contains(errOut, "no app is running") {
		t.Errorf("stderr: %q", errOut)
	}

	// Stdio setups need neither the app nor a token.
	dir2 := shortTempDir(t)
	if _, errOut, err = runConfig(t, "claude-desktop", "--data-dir", dir2); err != nil || errOut != "" {
		t.Errorf("claude-desktop: %v %q", err, errOut)
	}
	if _, err := os.Stat(dir2); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a stdio setup touched the data dir: %v", err)
	}
}

func TestConfig_RunningApp(t *testing.T) {
	fakeConfig(t, t.TempDir(), nil, true)
	dir := shortTempDir(t)
	startApp(t, dir)
	r := run(t, dir, "url", "--json")
	var info URLInfo
	if err := json.Unmarshal([]byte(r.stdout), &info); err != nil {
		t.Fatalf("url --json: %v %q", err, r.stdout)
	}
	out, errOut, err := runConfig(t, "vscode", "--data-dir", dir)
	if err != nil || errOut != "" {
		t.Fatalf("%v %q", err, errOut)
	}
	if !strings.Contains(out, `"url": "`+info.URL+`"`) || !strings.Contains(out, "Bearer "+info.Token) {
		t.Errorf("output does not hold %v:\n%s", info, out)
	}
}
