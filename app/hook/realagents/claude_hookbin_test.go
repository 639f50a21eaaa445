//go:build realagents

package realagents

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
)

// TestClaudeCodeHookBinary (issue 32 item 6): the real Claude Code in its
// default auto mode with its hooks installed as `asktray config claude-code
// --hooks --write` installs them when the hook-only binary (built as make
// build builds it, CGO_ENABLED=0) is beside asktray: every entry runs
// asktray-hook, a low-risk command runs unasked and without the desktop
// binary starting for it, and a high-risk one comes to the tray through
// asktray-hook, whose deny and note reach the model.
func TestClaudeCodeHookBinary(t *testing.T) {
	t.Parallel()
	s := prepareSession(t, claudeHookBin)
	hookExe := installHookBinary(t, s)
	s.term = startTerm(t, s.work, s.env, s.spec.argv(s)...)
	s.term.expect(s.spec.ready, 60*time.Second)
	runTurns(t, s, []scenario{
		{"low risk runs unasked, no desktop binary started", func(t *testing.T, s *session) { hookBinLowRisk(t, s, hookExe) }},
		{"high risk denied in the tray", autoHighDenied},
	})
}

// claudeHookBin is Claude Code in auto mode (no --permission-mode), with
// no MCP entry and no rules.
var claudeHookBin = func() agentSpec {
	s := claude
	s.argv = func(s *session) []string {
		return []string{agentBin(s.t, "claude-code"), "--model", fakeModel}
	}
	s.ready = "auto mode on"
	return s
}()

// installHookBinary puts asktray (a hard link of this test binary, the one
// the app runs) and asktray-hook in a directory of their own, reruns
// 'asktray config claude-code --hooks --write' from there, checks that
// every entry now runs asktray-hook, and returns its path.
func installHookBinary(t *testing.T, s *session) string {
	t.Helper()
	dir := tempDir(t)
	exe := filepath.Join(dir, "asktray")
	if err := os.Link(asktrayExe(t), exe); err != nil {
		t.Fatalf("link the app's binary beside the hook binary: %v", err)
	}
	hookExe := filepath.Join(dir, "asktray-hook")
	build := exec.Command("go", "build", "-tags", "migrated_fynedo", "-o", hookExe, "github.com/asktray/asktray/cmd/asktray-hook")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build asktray-hook: %v\n%s", err, out)
	}
	cfg := exec.Command(exe, "config", "claude-code", "--hooks", "--write", "--data-dir", s.data)
	cfg.Env = append(append(os.Environ(), testkit.ChildEnv), s.env...)
	if r := testkit.Run(t, cfg); r.Code != 0 {
		t.Fatalf("asktray config claude-code --hooks --write beside asktray-hook: %+v", r)
	}
	b, err := os.ReadFile(filepath.Join(s.home, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if n, all := strings.Count(string(b), hookExe+" hook claude-code"), strings.Count(string(b), "hook claude-code"); n == 0 || n != all {
		t.Fatalf("%d of %d entries run %s:\n%s", n, all, hookExe, b)
	}
	return hookExe
}

// hookBinLowRisk: a low-risk command runs with no tray question, and no
// hook run of the desktop binary (this test binary, which records each)
// happened for it: PreToolUse ran asktray-hook.
func hookBinLowRisk(t *testing.T, s *session, hookExe string) {
	path, cmd := s.marker("hookbinlow")
	s.ask(cmd)
	if !waitUntil(askBound, func() bool { return exists(path) }) {
		t.Fatalf("the low-risk command did not run")
	}
	s.term.expect("REPLY<<", askBound)
	if recs := s.hooksFor(path); len(recs) != 0 {
		t.Errorf("the desktop binary ran %d hooks for %s, want none (the entries run %s)", len(recs), path, hookExe)
	}
	if qs := s.app.askedAbout(path); len(qs) != 0 {
		t.Errorf("asked in the tray: %+v", qs)
	}
}
