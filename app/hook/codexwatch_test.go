package hook

import "testing"

// The processes of Codex 0.171.0 as seen in app/hook/realagents: the
// daemon's copy of the binary under the Codex home, its pid-update helper,
// the terminal UI (the native binary the npm launcher runs), all of one
// user and one Codex home.
const (
	codexHomeDir = "/home/ada/.codex"
	workDir      = "/tmp/realagents/work" // the recorded payloads' cwd
)

var (
	daemonArgv = []string{codexHomeDir + "/packages/app-server-daemon/releases/0.171.0-x86_64-unknown-linux-musl/bin/codex",
		"app-server", "--listen", "unix://", "--analytics-default-enabled", "--managed-daemon"}
	tuiArgv = []string{"/usr/lib/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"}
	adaEnv  = []string{"PATH=/usr/bin:/bin", "HOME=/home/ada"}
)

func codexProcs() map[int]Proc {
	return map[int]Proc{
		500: {Argv: daemonArgv, UID: 1000, Start: 10, Cwd: "/", Env: adaEnv},
		501: {Argv: []string{daemonArgv[0], "app-server", "daemon", "pid-update-loop"}, UID: 1000, Start: 11, Cwd: "/", Env: adaEnv},
		600: {Argv: tuiArgv, UID: 1000, Start: 20, Cwd: workDir, Env: []string{"CODEX_HOME=" + codexHomeDir + "/"}},
		601: {Argv: []string{"node", "/usr/lib/node_modules/@openai/codex/bin/codex.js"}, UID: 1000, Start: 19, Cwd: workDir},
		700: {Argv: []string{"/bin/bash"}, UID: 1000, Start: 5, Cwd: workDir, Env: adaEnv},
	}
}

// TestCodexBind is finding 6 of issue 25: a Codex hook whose parent is
// Codex's app server (read from its command line) watches the one terminal
// UI of the same user and Codex home in the session's directory, and
// otherwise says it cannot tell (detached). Any other parent bounds the
// question itself, and only Codex has a binding.
func TestCodexBind(t *testing.T) {
	t.Parallel()
	p := Payload{Agent: Codex, Event: PermissionRequest, Cwd: workDir}
	cases := []struct {
		name     string
		change   func(map[int]Proc)
		parent   int
		tui      int
		detached bool
	}{
		{name: "the one terminal UI in the session's directory", parent: 500, tui: 600},
		{name: "a parent that is not the app server", parent: 700},
		{name: "the app server's helper as the parent", parent: 501},
		{name: "a parent that is gone", parent: 999},
		{name: "no terminal UI left", parent: 500, detached: true, change: func(m map[int]Proc) { delete(m, 600) }},
		{name: "two terminal UIs in the directory", parent: 500, detached: true, change: func(m map[int]Proc) {
			m[602] = Proc{Argv: append(tuiArgv[:1:1], "--model", "o3", "resume", "01a2"), UID: 1000, Start: 30, Cwd: workDir, Env: adaEnv}
		}},
		{name: "the terminal UI in another directory", parent: 500, detached: true, change: func(m map[int]Proc) {
			p := m[600]
			p.Cwd = "/home/ada/other"
			m[600] = p
		}},
		{name: "others' terminal UIs do not count", parent: 500, tui: 600, change: func(m map[int]Proc) {
			m[603] = Proc{Argv: tuiArgv, UID: 1000, Start: 31, Cwd: workDir, Env: []string{"CODEX_HOME=/home/ada/.codex-work"}} // another Codex home
			m[604] = Proc{Argv: tuiArgv, UID: 1001, Start: 32, Cwd: workDir, Env: adaEnv}                                       // another user
			m[605] = Proc{Argv: append(tuiArgv[:1:1], "exec", "ls"), UID: 1000, Start: 33, Cwd: workDir, Env: adaEnv}
		}},
	}
	sp, _ := Lookup(Codex)
	for _, c := range cases {
		procs := codexProcs()
		if c.change != nil {
			c.change(procs)
		}
		f := NewProcTable(procs)
		b := sp.Bind(p, c.parent, f)
		if (b.Watch != nil) != (c.tui != 0) || b.Detached != c.detached {
			t.Errorf("%s: watches %v, detached %v; want a watch of %d, detached %v", c.name, b.Watch != nil, b.Detached, c.tui, c.detached)
			continue
		}
		if c.tui == 0 {
			continue
		}
		if !b.Watch() {
			t.Errorf("%s: the watched terminal UI is not alive", c.name)
		}
		f.End(700)
		if !b.Watch() {
			t.Errorf("%s: another process ending ended the watch", c.name)
		}
		f.End(c.tui)
		if b.Watch() {
			t.Errorf("%s: the watch outlives terminal UI %d", c.name, c.tui)
		}
	}
	for _, other := range Specs() {
		if other.Name != Codex && other.Bind != nil {
			t.Errorf("%s has a binding; only Codex's hooks run from a daemon", other.Name)
		}
	}
}

// TestCodexWatchTellsAReusedPID: a terminal UI whose pid now names a
// process started at another time (a reused pid) is gone.
func TestCodexWatchTellsAReusedPID(t *testing.T) {
	t.Parallel()
	f := NewProcTable(codexProcs())
	sp, _ := Lookup(Codex)
	b := sp.Bind(Payload{Agent: Codex, Event: PermissionRequest, Cwd: workDir}, 500, f)
	if b.Watch == nil || !b.Watch() {
		t.Fatal("no watch of the terminal UI")
	}
	p := codexProcs()[600]
	p.Start = 21
	f.Put(600, p)
	if b.Watch() {
		t.Fatal("a reused pid counts as the terminal UI")
	}
}
