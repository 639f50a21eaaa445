package cli

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// fakeProcs stands in for /proc: readProc and listPIDs read it, and the test
// may end a process while a hook runs.
type fakeProcs struct {
	mu    sync.Mutex
	procs map[int]procInfo
}

func (f *fakeProcs) read(pid int) (procInfo, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.procs[pid]
	return p, ok
}

func (f *fakeProcs) pids() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []int
	for pid := range f.procs {
		out = append(out, pid)
	}
	return out
}

func (f *fakeProcs) end(pid int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.procs, pid)
}

// useFakeProcs replaces /proc with procs for the test. Tests that call it
// are not parallel.
func useFakeProcs(t *testing.T, procs map[int]procInfo) *fakeProcs {
	t.Helper()
	f := &fakeProcs{procs: procs}
	readProc, listPIDs = f.read, f.pids
	t.Cleanup(func() { readProc, listPIDs = procRead, procPIDs })
	return f
}

// The processes of Codex 0.171.0 as seen in app/hook/realagents: the
// daemon's copy of the binary under the Codex home, its pid-update helper,
// the terminal UI (the native binary the npm launcher runs), all of one
// user and one Codex home.
const (
	codexHome = "/home/ada/.codex"
	workDir   = "/tmp/realagents/work" // the recorded payloads' cwd
)

var (
	daemonArgv = []string{codexHome + "/packages/app-server-daemon/releases/0.171.0-x86_64-unknown-linux-musl/bin/codex",
		"app-server", "--listen", "unix://", "--analytics-default-enabled", "--managed-daemon"}
	tuiArgv = []string{"/usr/lib/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"}
)

func codexProcs() map[int]procInfo {
	return map[int]procInfo{
		500: {argv: daemonArgv, uid: 1000, start: 10, cwd: "/", codexHome: codexHome},
		501: {argv: []string{daemonArgv[0], "app-server", "daemon", "pid-update-loop"}, uid: 1000, start: 11, cwd: "/", codexHome: codexHome},
		600: {argv: tuiArgv, uid: 1000, start: 20, cwd: workDir, codexHome: codexHome},
		601: {argv: []string{"node", "/usr/lib/node_modules/@openai/codex/bin/codex.js"}, uid: 1000, start: 19, cwd: workDir},
		700: {argv: []string{"/bin/bash"}, uid: 1000, start: 5, cwd: workDir},
	}
}

// TestCodexBound is finding 6 of issue 25: a Codex hook whose parent is
// Codex's app server (read from its command line) watches the one terminal
// UI of the same user and Codex home in the session's directory, and
// otherwise says it cannot tell (detached). Any other parent bounds the
// question itself.
// Not parallel: it stands in for /proc.
func TestCodexBound(t *testing.T) {
	p := hook.Payload{Agent: hook.Codex, Event: hook.PermissionRequest, Cwd: workDir}
	cases := []struct {
		name     string
		change   func(map[int]procInfo)
		parent   int
		agent    hook.Agent
		tui      int
		detached bool
	}{
		{name: "the one terminal UI in the session's directory", parent: 500, tui: 600},
		{name: "a parent that is not the app server", parent: 700},
		{name: "the app server's helper as the parent", parent: 501},
		{name: "a parent that is gone", parent: 999},
		{name: "another agent", parent: 500, agent: hook.ClaudeCode},
		{name: "no terminal UI left", parent: 500, detached: true, change: func(m map[int]procInfo) { delete(m, 600) }},
		{name: "two terminal UIs in the directory", parent: 500, detached: true, change: func(m map[int]procInfo) {
			m[602] = procInfo{argv: append(tuiArgv[:1:1], "--model", "o3", "resume", "01a2"), uid: 1000, start: 30, cwd: workDir, codexHome: codexHome}
		}},
		{name: "the terminal UI in another directory", parent: 500, detached: true, change: func(m map[int]procInfo) {
			p := m[600]
			p.cwd = "/home/ada/other"
			m[600] = p
		}},
		{name: "others' terminal UIs do not count", parent: 500, tui: 600, change: func(m map[int]procInfo) {
			m[603] = procInfo{argv: tuiArgv, uid: 1000, start: 31, cwd: workDir, codexHome: "/home/ada/.codex-work"} // another Codex home
			m[604] = procInfo{argv: tuiArgv, uid: 1001, start: 32, cwd: workDir, codexHome: codexHome}               // another user
			m[605] = procInfo{argv: append(tuiArgv[:1:1], "exec", "ls"), uid: 1000, start: 33, cwd: workDir, codexHome: codexHome}
		}},
	}
	for _, c := range cases {
		procs := codexProcs()
		if c.change != nil {
			c.change(procs)
		}
		useFakeProcs(t, procs)
		q := p
		if c.agent != "" {
			q.Agent = c.agent
		}
		tui, detached := codexBound(q, c.parent)
		if tui.pid != c.tui || detached != c.detached {
			t.Errorf("%s: watches %d, detached %v; want %d, %v", c.name, tui.pid, detached, c.tui, c.detached)
		}
		if c.tui != 0 && tui.start != procs[c.tui].start {
			t.Errorf("%s: start %d, want %d", c.name, tui.start, procs[c.tui].start)
		}
	}
}

// TestCodexTUIAlive: a terminal UI whose pid names a process started at
// another time (a reused pid) is gone.
// Not parallel: it stands in for /proc.
func TestCodexTUIAlive(t *testing.T) {
	f := useFakeProcs(t, codexProcs())
	if !(codexTUI{pid: 600, start: 20}).alive() || (codexTUI{pid: 600, start: 21}).alive() {
		t.Fatal("alive tells a reused pid apart badly")
	}
	f.end(600)
	if (codexTUI{pid: 600, start: 20}).alive() {
		t.Fatal("an ended terminal UI is alive")
	}
}

// TestHook_CodexTerminalClosedEndsTheQuestion: the hook runs under Codex's
// app server (fake /proc, as Codex 0.171.0 runs it); the terminal UI of the
// session closes while the tray asks; the question ends as withdrawn and
// the hook prints nothing. With no terminal UI to watch, the dialog's
// details lead with the line saying Codex may no longer be waiting.
// Not parallel: it stands in for getppid and /proc.
func TestHook_CodexTerminalClosedEndsTheQuestion(t *testing.T) {
	h := newHookApp(t)
	f := useFakeProcs(t, codexProcs())
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
	f.end(600)
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
