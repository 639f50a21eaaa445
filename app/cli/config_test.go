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
	"strings"
	"testing"

	"github.com/asktray/asktray/app/clientsetup"
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
	configSystem = func() (clientsetup.Sys, error) {
		return clientsetup.Sys{GOOS: "linux", Home: home, Getenv: func(k string) string { return env[k] }, Exe: testExe}, nil
	}
	if !realServer {
		configServer = func(context.Context, string) (clientsetup.Server, error) {
			return clientsetup.Server{URL: testURL, Token: testToken, Running: true}, nil
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
	for _, client := range clientsetup.Clients() {
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
			for _, c := range clientsetup.Clients() {
				if !strings.Contains(err.Error(), c) {
					t.Errorf("%q: %q does not list %s", args, err, c)
				}
			}
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

func TestConfig_Hooks(t *testing.T) {
	home := t.TempDir()
	fakeConfig(t, home, nil, false)
	dir := shortTempDir(t)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(`{"default_timeout_seconds": 600}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, err := runConfig(t, "codex", "--hooks", "--data-dir", dir)
	if err != nil || !strings.Contains(out, `"timeout": 86406`) || !strings.Contains(out, "(now 600 s)") || !strings.Contains(out, "/hooks") {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, _, err := runConfig(t, "codex", "--hooks", "--write", "--data-dir", dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, ".codex", "hooks.json")
	if b, err := os.ReadFile(path); err != nil || !strings.Contains(string(b), `"`+testExe+" hook codex --data-dir "+dir+`"`) {
		t.Fatalf("%v\n%s", err, b)
	}
	if out, _, err = runConfig(t, "codex", "--hooks", "--remove", "--data-dir", dir); err != nil || !strings.Contains(out, "Removed") {
		t.Fatalf("%v\n%s", err, out)
	}
	if b, _ := os.ReadFile(path); strings.Contains(string(b), "asktray") {
		t.Errorf("hooks left after --remove:\n%s", b)
	}
	for _, args := range [][]string{{"cursor", "--hooks"}, {"codex", "--remove"}, {"--hooks"}} {
		if _, _, err := runConfig(t, args...); !isUsage(err) {
			t.Errorf("%q: want a usage error, got %v", args, err)
		}
	}
}

func isUsage(err error) bool {
	_, ok := errors.AsType[*usageError](err)
	return ok
}
