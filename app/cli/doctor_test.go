package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

// doctorHome runs the built asktray binary with a scratch HOME and data dir,
// as a person's shell would.
type doctorHome struct {
	t         *testing.T
	bin, home string
	dir, cwd  string
}

func (d *doctorHome) cmd(args ...string) *exec.Cmd {
	c := exec.Command(d.bin, append(args, "--data-dir", d.dir)...) //nolint:gosec // the asktray binary the test built
	c.Env = append(os.Environ(), "HOME="+d.home, "CLAUDE_CONFIG_DIR=", "CODEX_HOME=", "COPILOT_HOME=", "XDG_CONFIG_HOME=", "ASKTRAY_DATA_DIR=")
	c.Dir = d.cwd
	c.SysProcAttr = noTerminal()
	return c
}

func (d *doctorHome) run(args ...string) result {
	d.t.Helper()
	r := testkit.Run(d.t, d.cmd(args...))
	return result{r.Code, r.Stdout, r.Stderr}
}

// TestDoctor_RealApp sets up Claude Code's and Copilot CLI's hooks and
// Cursor's MCP entry with 'asktray config … --write', runs 'asktray doctor'
// against a running app (the same binary) and checks its exit codes: 0 when
// all is fine, and its test requests, sent through the installed hook
// command lines, are notices in the app (nothing pending to approve, nothing
// allowed); 1 with a FIX line naming the file and key for a stale hook and
// for the app down.
func TestDoctor_RealApp(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	d := &doctorHome{t: t, bin: testkit.Binary(t), home: home, dir: filepath.Join(home, "data"), cwd: filepath.Join(home, "project")}
	if err := os.MkdirAll(d.cwd, 0o700); err != nil {
		t.Fatal(err)
	}
	// Claude Code, where its native installer puts it: without it the
	// doctor says its hooks do nothing.
	claude := filepath.Join(home, ".local", "bin", "claude")
	if err := os.MkdirAll(filepath.Dir(claude), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(claude, []byte("#!/bin/sh\n"), 0o700); err != nil { //nolint:gosec // a stand-in executable
		t.Fatal(err)
	}
	app := d.cmd("--headless", "--addr", "127.0.0.1:0")
	var appErr bytes.Buffer
	app.Stderr = &appErr
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Process.Kill(); _ = app.Wait() })
	for deadline := time.Now().Add(20 * time.Second); d.run("url").code != 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("app did not come up: %s", appErr.String())
		}
	}
	for _, args := range [][]string{{"config", "claude-code", "--hooks", "--write"}, {"config", "copilot-cli", "--hooks", "--write"}, {"config", "cursor", "--write"}, {"config", "claude-desktop", "--write"}} {
		if r := d.run(args...); r.code != 0 {
			t.Fatalf("%v: %+v", args, r)
		}
	}
	r := d.run("doctor")
	if r.code != 0 || !strings.HasSuffix(r.stdout, "Everything is fine.\n") || strings.Count(r.stdout, "a test request through this command reached Asktray") != 2 ||
		!strings.Contains(r.stdout, "ok   cursor MCP: "+filepath.Join(home, ".cursor", "mcp.json")+" mcpServers.asktray: connects to http://127.0.0.1:") ||
		!strings.Contains(r.stdout, "Asktray answers there and takes the token") ||
		!strings.Contains(r.stdout, "ok   claude-desktop MCP: ") || !strings.Contains(r.stdout, "an MCP initialize through it reached Asktray") {
		t.Fatalf("doctor, all fine: %+v", r)
	}
	var pending []question.Question
	if p := d.run("pending", "--json"); p.code != 0 || json.Unmarshal([]byte(p.stdout), &pending) != nil || len(pending) != 2 {
		t.Fatalf("pending after the test requests: %+v", p)
	}
	for _, q := range pending {
		if q.Kind != question.KindNotice || !strings.Contains(q.Message, "nothing was allowed") || !strings.Contains(r.stdout, q.ID) {
			t.Errorf("test request shown as %+v", q)
		}
	}

	// A stale hook: Claude Code's entry for another data dir.
	settings := filepath.Join(home, ".claude", "settings.json")
	b, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, bytes.Replace(b, []byte(d.dir), []byte("/elsewhere"), 1), 0o600); err != nil {
		t.Fatal(err)
	}
	r = d.run("doctor", "--no-test")
	if want := "FIX  claude-code hooks: " + settings + " hooks."; r.code != ExitError || !strings.Contains(r.stdout, want) ||
		!strings.Contains(r.stdout, "uses the data dir /elsewhere") || !strings.Contains(r.stderr, "doctor found 1 problem") {
		t.Fatalf("doctor, stale hook: %+v", r)
	}
	r = d.run("doctor", "--no-test", "--json")
	var rep struct {
		OK    bool `json:"ok"`
		Lines []struct{ Status, Client, What, File, Key, Text string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != ExitError || rep.OK {
		t.Fatalf("doctor --json, stale hook: %+v %v", r, err)
	}
	var fixes []string
	for _, l := range rep.Lines {
		if l.Status == "fix" {
			fixes = append(fixes, l.Client+" "+l.File+" "+l.Key)
		}
	}
	if len(fixes) != 1 || !strings.HasPrefix(fixes[0], "claude-code "+settings+" hooks.") || !strings.HasSuffix(fixes[0], ".command") {
		t.Fatalf("doctor --json fixes: %q", fixes)
	}
	if err := os.WriteFile(settings, b, 0o600); err != nil {
		t.Fatal(err)
	}

	// The app down: the test requests step aside, and doctor says so.
	_ = app.Process.Kill()
	_ = app.Wait()
	r = d.run("doctor")
	if r.code != ExitError || !strings.Contains(r.stdout, "FIX  app: "+filepath.Join(d.dir, "control.sock")) || !strings.Contains(r.stdout, "no test request sent: Asktray is not running") {
		t.Fatalf("doctor, app down: %+v", r)
	}
	if r := d.run("doctor", "extra"); r.code != ExitUsage {
		t.Fatalf("doctor extra: %+v", r)
	}
}
