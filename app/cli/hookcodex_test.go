package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// useFakeProcs replaces /proc with the processes of Codex 0.171.0 running
// its hooks (its app server, pid 500, and the terminal UI of the session,
// 600; app/hook's TestCodexBind has the cases) for the test. Tests
// that call it are not parallel.
func useFakeProcs(t *testing.T) *hook.ProcTable {
	t.Helper()
	const bin = "/home/ada/.codex/packages/app-server-daemon/releases/0.171.0-x86_64-unknown-linux-musl/bin/codex"
	env := []string{"HOME=/home/ada"}
	f := hook.NewProcTable(map[int]hook.Proc{
		500: {Argv: []string{bin, "app-server", "--listen", "unix://", "--managed-daemon"}, UID: 1000, Start: 10, Cwd: "/", Env: env},
		600: {Argv: []string{"/usr/lib/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"},
			UID: 1000, Start: 20, Cwd: "/tmp/realagents/work", Env: env}, // the recorded payloads' cwd
	})
	hookProcs = f
	t.Cleanup(func() { hookProcs = hook.SystemProcs })
	return f
}

// TestHook_CodexTerminalClosedEndsTheQuestion: the hook runs under Codex's
// app server (fake /proc, as Codex 0.171.0 runs it); the terminal UI of the
// session closes while the tray asks; the question ends as withdrawn and
// the hook prints nothing. With no terminal UI to watch, the dialog's
// details lead with the line saying Codex may no longer be waiting.
// Not parallel: it stands in for getppid and /proc.
func TestHook_CodexTerminalClosedEndsTheQuestion(t *testing.T) {
	h := newHookApp(t)
	f := useFakeProcs(t)
	getppid = func() int { return 500 }
	parentOf = func(int) (int, bool) { return 1, true } // the daemon, re-parented long ago
	parentPoll = 10 * time.Millisecond
	t.Cleanup(func() { getppid, parentOf, parentPoll = os.Getppid, procParent, 200*time.Millisecond })
	line := present.AsksFromBackground("Codex")

	run := goHook(recorded(t, hook.Codex, filepath.Join("real", "PermissionRequest")), "codex", "--data-dir", h.dir)
	q := wait(t, h.asked)
	if strings.Contains(q.Details, line) {
		t.Fatalf("a watched terminal, and the details say Codex may not wait:\n%s", q.Details)
	}
	f.End(600)
	if r := wait(t, run); r.code != 0 || r.out != "" {
		t.Fatalf("hook printed %+v", r)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, res, _ := h.b.Get(q.ID); res != nil {
			if res.Outcome != question.Withdrawn {
				t.Fatalf("outcome %+v", res)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the question stayed open after Codex's terminal closed")
		}
	}

	// No terminal UI left to watch: asked, and the details say so first.
	run = goHook(recorded(t, hook.Codex, filepath.Join("real", "PermissionRequest")), "codex", "--data-dir", h.dir)
	q = wait(t, h.asked)
	if !strings.HasPrefix(q.Details, "_"+line+"_") {
		t.Fatalf("details do not lead with %q:\n%s", line, q.Details)
	}
	if err := h.b.Answer(q.ID, question.Response{Action: question.Cancel}); err != nil {
		t.Fatal(err)
	}
	if r := wait(t, run); r.code != 0 || r.out != "" {
		t.Fatalf("hook printed %+v", r)
	}
}
