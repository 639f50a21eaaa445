//go:build realagents

package realagents

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// term is an agent running interactively in its own tmux server, as a
// person runs it in a terminal: the test types into it and reads its screen
// as rendered.
type term struct {
	t    *testing.T
	sock string
	pid  int // the agent's, the leader of the pane's session
}

// startTerm runs argv in dir on a new 200×50 tmux terminal with exactly the
// environment env (nothing of the test's own leaks in). The terminal and
// everything in it end with the test.
func startTerm(t *testing.T, dir string, env []string, argv ...string) *term {
	t.Helper()
	tm := &term{t: t, sock: filepath.Join(tempDir(t), "s")}
	args := []string{"-f", "/dev/null", "-S", tm.sock, "new-session", "-d", "-x", "200", "-y", "50", "-c", dir, "--", "env", "-i"}
	args = append(append(args, env...), argv...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	// Keep the pane when the agent exits, so that its last screen can be read.
	tm.tmux("set-option", "-g", "remain-on-exit", "on")
	tm.pid, _ = strconv.Atoi(strings.TrimSpace(tm.tmux("display-message", "-p", "#{pane_pid}")))
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last screen:\n%s", tm.screen())
		}
		_ = exec.Command("tmux", "-S", tm.sock, "kill-server").Run()
		tm.reap()
	})
	return tm
}

func (tm *term) tmux(args ...string) string {
	out, err := exec.Command("tmux", append([]string{"-S", tm.sock}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Logf("tmux %v: %v %s", args, err, out)
	}
	return string(out)
}

// screen is what the terminal shows now, lines joined where they wrapped.
func (tm *term) screen() string {
	return tm.tmux("capture-pane", "-p", "-J")
}

// waitFor waits up to limit until the screen shows want, and reports whether
// it did.
func (tm *term) waitFor(want string, limit time.Duration) bool {
	return waitUntil(limit, func() bool { return strings.Contains(tm.screen(), want) })
}

// expect is waitFor that fails the test.
func (tm *term) expect(want string, limit time.Duration) {
	tm.t.Helper()
	if !tm.waitFor(want, limit) {
		tm.t.Fatalf("the terminal did not show %q within %v", want, limit)
	}
}

// typeLine types s as a person would and presses Enter a moment after the
// screen shows the end of s (the agents take text typed too fast for a
// paste, and Enter within it for a new line; a TUI on a loaded machine may
// take seconds to draw what was typed). It blocks at most about 10 s.
func (tm *term) typeLine(s string) {
	tm.tmux("send-keys", "-l", s)
	if !tm.waitFor(lineTail(s), 10*time.Second) {
		tm.t.Logf("the terminal does not show %q 10 s after it was typed; pressing Enter anyway", lineTail(s))
	}
	time.Sleep(300 * time.Millisecond)
	tm.tmux("send-keys", "Enter")
}

// lineTail is the end of a typed line that a terminal shows whole: a long
// line may be wrapped or scrolled in an input box.
func lineTail(s string) string {
	if len(s) > 24 {
		return s[len(s)-24:]
	}
	return s
}

// keys presses keys (tmux key names: Enter, Escape, Down, C-c, or text).
func (tm *term) keys(keys ...string) {
	tm.tmux(append([]string{"send-keys"}, keys...)...)
}

// reap waits until every process of the agent's session has exited after
// the terminal's hangup (the agents save their state on the way out), and
// kills what is left after 10 s.
func (tm *term) reap() {
	if tm.pid <= 0 {
		return
	}
	if waitUntil(10*time.Second, func() bool { return len(sessionProcs(tm.pid)) == 0 }) {
		return
	}
	for _, pid := range sessionProcs(tm.pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	waitUntil(5*time.Second, func() bool { return len(sessionProcs(tm.pid)) == 0 })
}

// sessionProcs lists the live processes of session sid (from /proc).
func sessionProcs(sid int) []int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []int
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp session ...: comm may hold spaces.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(s[i+1:])
		if len(fields) < 4 || fields[0] == "Z" {
			continue
		}
		if id, _ := strconv.Atoi(fields[3]); id == sid {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
			out = append(out, pid)
		}
	}
	return out
}
