package cli

import (
	"path/filepath"

	"github.com/asktray/asktray/app/hook"
)

// Codex runs its hooks from its app server, a daemon (`codex app-server
// --listen unix:// --managed-daemon`, in a session of its own) that the first
// terminal UI starts and that outlives it; later terminal UIs connect to the
// same daemon (Codex 0.171.0, app/hook/realagents). The hook's parent is
// then the daemon, which bounds nothing of the person's terminal: closing
// it leaves the daemon waiting on the hook, and a tray allow runs the
// command. So the hook looks for the terminal UI that asks and watches it;
// when it cannot tell which one that is, it says so in the request
// (hook.Request.Detached) and the dialog tells the person.

// procInfo is what the hook reads of a process.
type procInfo struct {
	argv  []string
	uid   int
	start uint64 // start time (clock ticks after boot): tells a reused pid apart
	cwd   string
	// codexHome is the process's $CODEX_HOME, else $HOME/.codex, where
	// Codex keeps its state and its daemon's socket; "" when unreadable.
	codexHome string
}

// readProc and listPIDs read /proc (Linux; elsewhere they find nothing, so
// no parent is taken for Codex's app server); tests stand in for them.
// readProc reports false when pid is gone or unreadable.
var (
	readProc = procRead
	listPIDs = procPIDs
)

// codexTUI is the Codex terminal UI a hook watches: its pid and start time.
type codexTUI struct {
	pid   int
	start uint64
}

// codexBound tells how a Codex hook whose parent is parent can bound its
// question: when parent is not Codex's app server, the parent itself does
// (watchParent), and both results are zero. When it is, tui is the one
// terminal UI of the same user and Codex home whose working directory is
// the session's (cwd), and detached is true when there is no such UI or
// more than one, which could be any session's. It does not block beyond
// reading /proc.
func codexBound(p hook.Payload, parent int) (tui codexTUI, detached bool) {
	if p.Agent != hook.Codex {
		return codexTUI{}, false
	}
	server, ok := readProc(parent)
	if !ok || !isCodexAppServer(server.argv) {
		return codexTUI{}, false
	}
	var found []codexTUI
	for _, pid := range listPIDs() {
		if pid == parent {
			continue
		}
		pr, ok := readProc(pid)
		if ok && isCodexTUI(pr.argv) && pr.uid == server.uid && pr.codexHome != "" && pr.codexHome == server.codexHome && sameDir(pr.cwd, p.Cwd) {
			found = append(found, codexTUI{pid: pid, start: pr.start})
		}
	}
	if len(found) != 1 {
		return codexTUI{}, true
	}
	return found[0], false
}

// isCodexAppServer reports whether argv runs Codex's app server: `codex
// app-server …` (not its helpers, `codex app-server daemon …`).
func isCodexAppServer(argv []string) bool {
	return len(argv) >= 2 && isCodexExe(argv[0]) && argv[1] == "app-server" && (len(argv) == 2 || argv[2] != "daemon")
}

// isCodexTUI reports whether argv runs Codex's terminal UI: the codex
// executable with none of the subcommands that run something else
// (codexOther) among its arguments; `codex`, `codex "a prompt"`, `codex
// resume` and `codex --model m fork` are. An argument that merely equals
// one of those words makes a terminal UI not count, which can only leave
// the hook unable to tell (detached), never watching the wrong one.
func isCodexTUI(argv []string) bool {
	if len(argv) == 0 || !isCodexExe(argv[0]) {
		return false
	}
	for _, a := range argv[1:] {
		if codexOther[a] {
			return false
		}
	}
	return true
}

// codexOther are Codex's subcommands that run no terminal UI (`codex
// --help`, Codex 0.171.0; mcp-server from older versions). `agents`,
// `resume` and `fork` open the terminal UI.
var codexOther = map[string]bool{
	"exec": true, "e": true, "review": true, "login": true, "logout": true, "mcp": true, "mcp-server": true,
	"plugin": true, "app-server": true, "remote-control": true, "completion": true, "update": true, "doctor": true,
	"sandbox": true, "debug": true, "apply": true, "a": true, "queue": true, "archive": true, "delete": true,
	"migrate-rollouts": true, "migrate-nfs-db": true, "unarchive": true, "cloud": true, "exec-server": true,
	"features": true, "help": true,
}

// isCodexExe reports whether arg0 names the codex executable.
func isCodexExe(arg0 string) bool {
	return filepath.Base(arg0) == "codex"
}

// sameDir reports whether a, a resolved directory from /proc, is b, a
// directory an agent reported (possibly through a symbolic link).
func sameDir(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	r, err := filepath.EvalSymlinks(b)
	return err == nil && filepath.Clean(a) == r
}

// alive reports whether t is still running: its pid names a process that
// started when t did.
func (t codexTUI) alive() bool {
	pr, ok := readProc(t.pid)
	return ok && pr.start == t.start
}
