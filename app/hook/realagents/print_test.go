//go:build realagents

package realagents

import (
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
)

// TestClaudeCodePrint: PermissionRequest fires in `claude -p` too (Claude
// Code's docs say that non-interactive sessions cannot prompt): an allow in
// the tray runs the command and -p prints the model's reply; a dismissal
// leaves -p with no decision, and it denies by itself.
func TestClaudeCodePrint(t *testing.T) {
	t.Parallel()
	s := prepareSession(t, claude)
	for _, allow := range []bool{true, false} {
		name := map[bool]string{true: "print-allow", false: "print-dismiss"}[allow]
		t.Run(name, func(t *testing.T) {
			s.t, s.app.t = t, t
			path, command := s.marker(name)
			wait, out := claudePrint(t, s, command)
			q := s.app.waitQuestion(path, askBound)
			if allow {
				s.app.allow(q.ID)
			} else {
				s.app.answer(q.ID, "--cancel")
			}
			t.Logf("claude -p: %v\n%s", wait(), out.String())
			if exists(path) != allow {
				t.Errorf("tray allow %v: the command ran: %v", allow, exists(path))
			}
			if allow && !strings.Contains(out.String(), "REPLY<<ran-"+name) {
				t.Errorf("claude -p did not print the model's reply with the command's output:\n%s", out.String())
			}
			fired := false
			for _, h := range s.hooksFor(path) {
				fired = fired || strings.Contains(h.Stdin, `"hook_event_name":"PermissionRequest"`)
			}
			if !fired {
				t.Errorf("no PermissionRequest hook recorded for claude -p")
			}
		})
	}
}

// claudePrint starts `claude -p` in s's workspace, in Claude Code's default
// permission mode, with a prompt that has the fake model run command. It
// returns at once; wait blocks until claude -p exits and returns its exit
// error, or kills it and fails the test when it still runs askBound later.
// out holds its combined output.
func claudePrint(t *testing.T, s *session, command string) (wait func() error, out *testkit.SyncBuffer) {
	t.Helper()
	return claudePrintIn(t, s.work, s.env, nil, command)
}

// claudePrintIn is claudePrint in dir with exactly env, run with attr (as
// another user, for one) unless nil.
func claudePrintIn(t *testing.T, dir string, env []string, attr *syscall.SysProcAttr, command string) (wait func() error, out *testkit.SyncBuffer) {
	t.Helper()
	cmd := exec.Command(agentBin(t, "claude-code"), "-p", "RUN<<"+command+">>", "--model", fakeModel, "--permission-mode", "default") //nolint:gosec // the pinned agent
	cmd.Dir, cmd.Env, cmd.SysProcAttr = dir, env, attr
	out = &testkit.SyncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	return func() error {
		t.Helper()
		select {
		case err := <-done:
			return err
		case <-time.After(askBound):
			_ = cmd.Process.Kill()
			t.Fatalf("claude -p still running %v after the tray answered:\n%s", askBound, out.String())
			return nil
		}
	}, out
}
