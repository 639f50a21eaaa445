package benchreport

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/clientsetup"
	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

// startBinaryApp runs the binary bin as the headless app on a fresh data
// dir, waits until its control socket answers and stops it when b ends. It
// returns the data dir and a client of the socket.
func startBinaryApp(b *testing.B, bin string) (string, *control.Client) {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "data")
	appCmd := exec.Command(bin, "--headless", "--addr", "127.0.0.1:0", "--data-dir", dir)
	appCmd.Env = append(os.Environ(), "DISPLAY=", "WAYLAND_DISPLAY=")
	if err := appCmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = appCmd.Process.Kill(); _ = appCmd.Wait() })
	c := control.NewClient(filepath.Join(dir, datadir.SocketFile))
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := c.Status(context.Background()); err == nil {
			return dir, c
		}
		if time.Now().After(deadline) {
			b.Fatal("the app did not come up")
		}
	}
}

// bareStatic builds a Go program that does nothing, statically linked
// (CGO_ENABLED=0), into b's temporary dir and returns its path.
func bareStatic(b *testing.B) string {
	b.Helper()
	src := b.TempDir()
	files := map[string]string{"go.mod": "module bare\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {}\n"}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	bin := filepath.Join(src, "bare")
	gobin := os.Getenv("GO")
	if gobin == "" {
		gobin = "go"
	}
	cmd := exec.Command(gobin, "build", "-o", bin, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build the bare binary: %v\n%s", err, out)
	}
	return bin
}

// preToolUse is Claude Code's PreToolUse as recorded in app/hook/testdata
// (auto mode), with the command replaced by command.
func preToolUse(b *testing.B, command string) []byte {
	b.Helper()
	p, err := os.ReadFile(filepath.Join("..", "hook", "testdata", "claude-code", "auto", "allowed-PreToolUse.json"))
	if err != nil {
		b.Fatal(err)
	}
	const recorded = `"rm -rf /home/ada/e2e/victim"`
	if !bytes.Contains(p, []byte(recorded)) {
		b.Fatalf("the recorded PreToolUse no longer runs %s", recorded)
	}
	return bytes.Replace(p, []byte(recorded), []byte(`"`+command+`"`), 1)
}

// runHook execs args with stdin payload and returns its output and the time
// from exec to exit.
func runHook(b *testing.B, args []string, payload []byte) (string, time.Duration) {
	b.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin = bytes.NewReader(payload)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil || errOut.Len() > 0 {
		b.Fatalf("%s: %v, stderr %q", strings.Join(args, " "), err, errOut.String())
	}
	return out.String(), d
}

// installedPreToolUse is the PreToolUse command 'asktray config claude-code
// --hooks' installs for the app binary bin and data dir dir: the hook-only
// binary when it is beside bin (make build puts it there), else bin.
func installedPreToolUse(b *testing.B, bin, dir string) []string {
	b.Helper()
	sys := clientsetup.Sys{GOOS: runtime.GOOS, Home: b.TempDir(), Getenv: func(string) string { return "" },
		Exe: bin, HookExe: clientsetup.HookBeside(bin)}
	h, err := clientsetup.BuildHooks("claude-code", sys, dir, time.Minute)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range h.Entries() {
		if e.Event == string(hook.PreToolUse) {
			return e.Args
		}
	}
	b.Fatal("no PreToolUse entry for Claude Code")
	return nil
}

// BenchmarkReport_HookCost times what Claude Code's PreToolUse hook, which
// runs on every tool call, adds to a call nobody is asked about: the
// installed command, exec'd as the agent does, given a low-risk call that
// no rule matches, from exec to its exit with no decision, next to exec of a
// bare static Go binary (CGO_ENABLED=0, an empty main) in the same run,
// interleaved; when the installed command is the hook-only binary, the
// same call through the desktop binary (`asktray hook`, what was installed
// before it) is timed in the same loop. Before timing, one high-risk call
// through each command is asked in the app and denied, which proves the
// command reaches the app.
func BenchmarkReport_HookCost(b *testing.B) {
	const n = 50
	bin := os.Getenv("ASKTRAY_BIN")
	if bin == "" {
		bin = testkit.Binary(b)
	}
	bare := bareStatic(b)
	dir, c := startBinaryApp(b, bin)
	args := installedPreToolUse(b, bin, dir)
	desktop := append([]string{bin}, args[1:]...)
	hookOnly := args[0] != bin
	provePreToolUseReachesApp(b, c, args)
	if hookOnly {
		provePreToolUseReachesApp(b, c, desktop)
	}
	low := preToolUse(b, "git status")
	var hookD, bareD, desktopD []time.Duration
	for range n * b.N {
		hookD = append(hookD, deferred(b, args, low))
		_, d := runHook(b, []string{bare}, nil)
		bareD = append(bareD, d)
		if hookOnly {
			desktopD = append(desktopD, deferred(b, desktop, low))
		}
	}
	ratio := float64(pct(hookD, 0.5)) / float64(pct(bareD, 0.5))
	comparison := "exec of a bare static Go binary (CGO_ENABLED=0, empty main) to exit, interleaved: p50 " + ms(pct(bareD, 0.5)) + ", p95 " + ms(pct(bareD, 0.95))
	if hookOnly {
		comparison += fmt.Sprintf("; the same call through the desktop binary (`asktray hook claude-code`): p50 %s (%.1f×)",
			ms(pct(desktopD, 0.5)), float64(pct(desktopD, 0.5))/float64(pct(bareD, 0.5)))
	}
	report(fmt.Sprintf("a deferred PreToolUse (low risk, no rule: no decision) through the installed command `%s`, exec to exit, %d runs",
		strings.Join(append([]string{filepath.Base(args[0])}, args[1:3]...), " "), len(hookD)),
		"p50 "+ms(pct(hookD, 0.5))+", p95 "+ms(pct(hookD, 0.95))+", max "+ms(slices.Max(hookD))+fmt.Sprintf(" (%.1f× the bare start; goal at most 3×)", ratio),
		comparison)
	b.ReportMetric(ratio, "x-bare")
}

// deferred runs the low-risk PreToolUse payload through args and returns
// the time it took, failing b unless it printed no decision.
func deferred(b *testing.B, args []string, payload []byte) time.Duration {
	b.Helper()
	out, d := runHook(b, args, payload)
	if out != "" {
		b.Fatalf("a low-risk PreToolUse got %q, want no decision", out)
	}
	return d
}

// provePreToolUseReachesApp runs one high-risk PreToolUse through args,
// waits for its question in the app, denies it and checks that the command
// printed the deny.
func provePreToolUseReachesApp(b *testing.B, c *control.Client, args []string) {
	b.Helper()
	ctx := context.Background()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin = bytes.NewReader(preToolUse(b, "rm -rf /home/ada/src/shop"))
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	var id string
	for deadline := time.Now().Add(30 * time.Second); id == ""; time.Sleep(5 * time.Millisecond) {
		qs, err := c.Pending(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if len(qs) > 0 {
			id = qs[0].ID
		}
		if time.Now().After(deadline) {
			b.Fatal("the high-risk PreToolUse never reached the app")
		}
	}
	if _, err := c.Answer(ctx, id, control.AnswerRequest{Action: question.Decline}); err != nil {
		b.Fatal(err)
	}
	if err := cmd.Wait(); err != nil || !strings.Contains(out.String(), `"permissionDecision":"deny"`) {
		b.Fatalf("high-risk PreToolUse: %v, output %q", err, out.String())
	}
}
