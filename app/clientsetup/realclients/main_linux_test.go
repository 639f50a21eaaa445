package realclients

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
)

// TestMain removes the asktray binary that testkit.Binary built.
func TestMain(m *testing.M) { os.Exit(testkit.Main(m, nil)) }

// dirEnv names the dir .ci/realclients.sh installed the clients into (it
// holds node_modules); the tests run only when it is set.
const dirEnv = "ASKTRAY_REALCLIENTS_DIR"

// lockStamp is where .ci/realclients.sh records the sha256 of the
// package-lock.json it installed from, under the install dir.
const lockStamp = "node_modules/.asktray-lock-sha256"

var (
	installOnce sync.Once
	installDir  string
	installErr  string
)

// requireClients returns the install dir, skipping the test when
// ASKTRAY_REALCLIENTS_DIR is unset (make test; .ci/realclients.sh sets it and
// CI runs that) and failing it when the install there is missing, stale or
// not the pinned versions.
func requireClients(t *testing.T) string {
	t.Helper()
	if os.Getenv(dirEnv) == "" {
		t.Skip(dirEnv + " is unset: these tests run from .ci/realclients.sh, which installs the clients (CI runs it)")
	}
	installOnce.Do(func() { installDir, installErr = checkInstall(os.Getenv(dirEnv)) })
	if installErr != "" {
		t.Fatal(installErr)
	}
	return installDir
}

// checkInstall checks that dir holds what package-lock.json pins.
func checkInstall(dir string) (string, string) {
	lock, err := os.ReadFile("package-lock.json")
	if err != nil {
		return "", "read package-lock.json: " + err.Error()
	}
	sum := sha256.Sum256(lock)
	stamp, err := os.ReadFile(filepath.Join(dir, lockStamp))
	switch {
	case err != nil:
		return "", "the real clients are not installed in " + dir + " (" + err.Error() + "): run bash .ci/realclients.sh"
	case strings.TrimSpace(string(stamp)) != hex.EncodeToString(sum[:]):
		return "", dir + " was installed from another package-lock.json: run bash .ci/realclients.sh"
	}
	return dir, ""
}

// pinned returns the version package.json pins for pkg.
func pinned(t *testing.T, pkg string) string {
	t.Helper()
	b, err := os.ReadFile("package.json")
	if err != nil {
		t.Fatal(err)
	}
	var p struct{ Dependencies map[string]string }
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	return p.Dependencies[pkg]
}

// scratch is one client's scratch HOME and project dir.
type scratch struct {
	home, proj string
	install    string
	app        *app
}

// newScratch makes a scratch HOME with a project dir in it.
func newScratch(t *testing.T, install string, a *app) *scratch {
	t.Helper()
	home := t.TempDir()
	proj := filepath.Join(home, "project")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	return &scratch{home: home, proj: proj, install: install, app: a}
}

// env is the environment every command of s runs with: the scratch HOME,
// Node 22 from the install first on PATH, no config dir of the machine's
// own, no update checks, telemetry or colours.
func (s *scratch) env(extra ...string) []string {
	bin := filepath.Join(s.install, "node_modules", ".bin")
	env := []string{
		"HOME=" + s.home,
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"NO_COLOR=1", "TERM=dumb", "LANG=C.UTF-8",
		"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1",
		"COPILOT_AUTO_UPDATE=false", "OPENCODE_DISABLE_AUTOUPDATE=true", "OPENCODE_DISABLE_MODELS_FETCH=true",
		"OPENCODE_DISABLE_DEFAULT_PLUGINS=true", "OPENCODE_DISABLE_LSP_DOWNLOAD=true", "OPENCODE_DISABLE_SHARE=true",
		"npm_config_update_notifier=false", "NO_UPDATE_NOTIFIER=1",
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "TMPDIR", "USER", "LOGNAME", "SHELL", "CI":
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// nativeBins are the clients whose npm command is a stub that an install
// script replaces with the native binary; no install script runs here
// (package.json's allowScripts lets only Node's), so the native binary from
// the platform's optional package is run.
var nativeBins = map[string]string{
	"claude":   "@anthropic-ai/claude-code-linux-x64/claude",
	"opencode": "opencode-linux-x64/bin/opencode",
}

// result is how a command ended.
type result struct {
	code   int
	stdout string
	stderr string
}

// run runs name (a client in the install, or asktray) with args in s's
// project dir, in a process group of its own that is killed after limit.
func (s *scratch) run(t *testing.T, limit time.Duration, stdin io.Reader, name string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := s.command(ctx, name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Stdin = &out, &errb, stdin
	err := cmd.Run()
	code := cmd.ProcessState.ExitCode()
	if ctx.Err() != nil {
		t.Fatalf("%s %v did not end within %v:\n%s\n%s", name, args, limit, out.String(), errb.String())
	}
	if _, ok := errors.AsType[*exec.ExitError](err); err != nil && !ok {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return result{code, stripANSI(out.String()), stripANSI(errb.String())}
}

// command makes the command for name in s, in its own process group, which
// ctx's end kills whole (a client's stdio servers with it).
func (s *scratch) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	path := filepath.Join(s.install, "node_modules", ".bin", name)
	if native, ok := nativeBins[name]; ok {
		path = filepath.Join(s.install, "node_modules", native)
	}
	if name == "asktray" {
		path = s.app.bin
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir, cmd.Env = s.proj, s.env()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// config runs 'asktray config CLIENT --write' (with extra flags) in s and
// returns what it printed.
func (s *scratch) config(t *testing.T, client string, flags ...string) string {
	t.Helper()
	args := append([]string{"config", client, "--write", "--data-dir", s.app.dir}, flags...)
	r := s.run(t, 30*time.Second, nil, "asktray", args...)
	if r.code != 0 {
		t.Fatalf("asktray %v: exit %d\n%s\n%s", args, r.code, r.stdout, r.stderr)
	}
	return r.stdout + r.stderr
}

// file returns the file at rel under s's HOME.
func (s *scratch) file(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.home, rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// put writes testdata/name to rel under s's HOME.
func (s *scratch) put(t *testing.T, name, rel string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	s.putBytes(t, rel, b)
}

// putBytes writes b to rel under s's HOME, making its dirs.
func (s *scratch) putBytes(t *testing.T, rel string, b []byte) {
	t.Helper()
	full := filepath.Join(s.home, rel)
	if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

func stripANSI(s string) string { return ansi.ReplaceAllString(s, "") }

// app is a running headless asktray, the real binary, on a free port.
type app struct {
	bin, dir, url string
}

// startApp starts the real asktray binary headless on a fresh data dir and
// waits until it serves; the test's end stops it.
func startApp(t *testing.T) *app {
	t.Helper()
	a := &app{bin: testkit.Binary(t), dir: filepath.Join(t.TempDir(), "data")}
	cmd := exec.Command(a.bin, "--headless", "--addr", "127.0.0.1:0", "--data-dir", a.dir)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	stderr := &testkit.SyncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("app stderr:\n%s", stderr.String())
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stderr.String(), "MCP at http://") {
		select {
		case <-exited:
			t.Fatalf("app exited before serving:\n%s", stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("app did not serve within 30 s:\n%s", stderr.String())
		}
	}
	out, err := exec.Command(a.bin, "url", "--json", "--data-dir", a.dir).Output()
	var info struct{ URL string }
	if err != nil || json.Unmarshal(out, &info) != nil || !strings.HasPrefix(info.URL, "http://127.0.0.1:") {
		t.Fatalf("asktray url --json: %v %s", err, out)
	}
	a.url = info.URL
	return a
}
