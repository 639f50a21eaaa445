//go:build !windows

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

func TestMain(m *testing.M) {
	os.Exit(testkit.Main(m, nil))
}

// TestImports: the binary every hook call starts links no UI toolkit, MCP
// library, store or PAM (it builds with CGO_ENABLED=0).
func TestImports(t *testing.T) {
	t.Parallel()
	const m = "github.com/asktray/asktray/"
	testkit.ImportsOnly(t, ".", m+"app/hook", m+"app/hookclient", m+"app/hookrun", m+"app/datadir", m+"app/atomicfile",
		m+"app/procfs", m+"app/ellipsis", "golang.org/x/sys")
	testkit.ImportsNone(t, ".", "net/http", "crypto/tls")
}

var (
	hookOnce sync.Once
	hookBin  string
	hookErr  error
)

// hookBeside builds asktray-hook (static, CGO_ENABLED=0, as make build
// does) beside the asktray binary testkit builds, and returns both paths.
func hookBeside(t *testing.T) (app, hookExe string) {
	t.Helper()
	app = testkit.Binary(t)
	hookOnce.Do(func() {
		hookBin = filepath.Join(filepath.Dir(app), "asktray-hook")
		cmd := exec.Command("go", "build", "-tags", "migrated_fynedo", "-o", hookBin, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			hookErr = err
			t.Logf("%s", out)
		}
	})
	if hookErr != nil {
		t.Fatal(hookErr)
	}
	return app, hookBin
}

// startApp runs app headless on a fresh data dir until the test ends.
func startApp(t *testing.T, app string) (string, *control.Client) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	cmd := exec.Command(app, "--headless", "--addr", "127.0.0.1:0", "--data-dir", dir)
	cmd.Env = append(os.Environ(), "DISPLAY=", "WAYLAND_DISPLAY=")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	c := control.NewClient(filepath.Join(dir, datadir.SocketFile))
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := c.Status(context.Background()); err == nil {
			return dir, c
		}
		if time.Now().After(deadline) {
			t.Fatal("the app did not come up")
		}
	}
}

// preToolUse is a recorded Claude Code PreToolUse running command.
func preToolUse(t *testing.T, command string) []byte {
	t.Helper()
	p, err := os.ReadFile(filepath.Join("..", "..", "app", "hook", "testdata", "claude-code", "auto", "allowed-PreToolUse.json"))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Replace(p, []byte(`"rm -rf /home/ada/e2e/victim"`), []byte(`"`+command+`"`), 1)
}

func hookCmd(exe, dir string, payload []byte) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	cmd := exec.Command(exe, "hook", "claude-code", "--data-dir", dir)
	cmd.Stdin = bytes.NewReader(payload)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	return cmd, &out, &errOut
}

// TestHookBinary_AsksTheAppBesideIt: the hook-only binary takes a
// high-risk call to the app that runs the asktray beside it (denied there,
// it prints the deny) and leaves a low-risk one with no decision.
func TestHookBinary_AsksTheAppBesideIt(t *testing.T) {
	t.Parallel()
	app, exe := hookBeside(t)
	dir, c := startApp(t, app)
	ctx := context.Background()

	cmd, out, errOut := hookCmd(exe, dir, preToolUse(t, "rm -rf /home/ada/src/shop"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var id string
	for deadline := time.Now().Add(30 * time.Second); id == ""; time.Sleep(10 * time.Millisecond) {
		qs, err := c.Pending(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(qs) > 0 {
			id = qs[0].ID
		}
		if time.Now().After(deadline) {
			t.Fatalf("no question pending; hook stderr %q", errOut.String())
		}
	}
	if _, err := c.Answer(ctx, id, control.AnswerRequest{Action: question.Decline}); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil || !strings.Contains(out.String(), `"permissionDecision":"deny"`) {
		t.Fatalf("high risk, denied: %v, output %q, stderr %q", err, out.String(), errOut.String())
	}

	cmd, out, errOut = hookCmd(exe, dir, preToolUse(t, "git status"))
	if err := cmd.Run(); err != nil || out.Len() != 0 || errOut.Len() != 0 {
		t.Fatalf("low risk: %v, output %q, stderr %q; want no decision and nothing said", err, out.String(), errOut.String())
	}
}

// TestHookBinary_StepsAsideFromAnotherApp: a hook-only binary with no
// asktray beside it (or another one) does not trust the app on the socket:
// it says so, prints no decision, and asks nothing.
func TestHookBinary_StepsAsideFromAnotherApp(t *testing.T) {
	t.Parallel()
	app, exe := hookBeside(t)
	dir, c := startApp(t, app)
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	alone := filepath.Join(t.TempDir(), "asktray-hook")
	if err := os.WriteFile(alone, b, 0o700); err != nil { //nolint:gosec // a copy of the binary under test
		t.Fatal(err)
	}
	cmd, out, errOut := hookCmd(alone, dir, preToolUse(t, "rm -rf /home/ada/src/shop"))
	if err := cmd.Run(); err != nil || out.Len() != 0 {
		t.Fatalf("%v, output %q; want no decision", err, out.String())
	}
	if !strings.Contains(errOut.String(), "stepping aside") {
		t.Errorf("stderr %q, want it to say it steps aside", errOut.String())
	}
	if qs, err := c.Pending(context.Background()); err != nil || len(qs) != 0 {
		t.Errorf("pending %v (%v), want nothing asked", qs, err)
	}
}

// TestHookBinary_NoAppNoDecision: with the app down the hook exits with no
// decision within about a second.
func TestHookBinary_NoAppNoDecision(t *testing.T) {
	t.Parallel()
	_, exe := hookBeside(t)
	cmd, out, _ := hookCmd(exe, t.TempDir(), preToolUse(t, "rm -rf /home/ada/src/shop"))
	start := time.Now()
	if err := cmd.Run(); err != nil || out.Len() != 0 {
		t.Fatalf("%v, output %q; want no decision", err, out.String())
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %s with the app down, want about a second at most", took)
	}
}
