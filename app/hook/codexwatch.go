package hook

import (
	"path/filepath"
	"strings"
)

// Codex runs its hooks from its app server, a daemon (`codex app-server
// --listen unix:// --managed-daemon`, in a session of its own) that the first
// terminal UI starts and that outlives it; later terminal UIs connect to the
// same daemon (Codex 0.171.0, app/hook/realagents). The hook's parent is
// then the daemon, which bounds nothing of the person's terminal: closing
// it leaves the daemon waiting on the hook, and a tray allow runs the
// command. So the hook looks for the terminal UI that asks and watches it;
// when it cannot tell which one that is, it says so in the request
// (Request.Detached) and the dialog tells the person.

// codexBind is Codex's Spec.Bind: when parent, the hook's parent, is
// Codex's app server, the binding watches the one terminal UI of the same
// user and Codex home whose working directory is the session's (p.Cwd),
// and is detached when there is no such UI or more than one, which could be
// any session's. Otherwise the parent itself bounds the question and the
// binding is empty. It does not block beyond reading procs.
func codexBind(p Payload, parent int, procs Procs) Binding {
	server, ok := readCodex(procs, parent)
	if !ok || !isCodexAppServer(server.Argv) {
		return Binding{}
	}
	serverHome := codexHome(server.Env)
	var found []Proc
	for _, pid := range procs.PIDs() {
		if pid == parent {
			continue
		}
		pr, ok := readCodex(procs, pid)
		if ok && isCodexTUI(pr.Argv) && pr.UID == server.UID && serverHome != "" && codexHome(pr.Env) == serverHome && sameDir(pr.Cwd, p.Cwd) {
			found = append(found, pr)
		}
	}
	if len(found) != 1 {
		return Binding{Detached: true}
	}
	tui := found[0]
	return Binding{Watch: func() bool {
		pr, ok := procs.Read(tui.PID)
		return ok && procs.Detail(&pr) && pr.Start == tui.Start
	}}
}

// readCodex reads pid's command line and, for a codex process (the only
// ones the binding looks at), its details.
func readCodex(procs Procs, pid int) (Proc, bool) {
	pr, ok := procs.Read(pid)
	if !ok || len(pr.Argv) == 0 {
		return Proc{}, false
	}
	if !isCodexExe(pr.Argv[0]) {
		return pr, true
	}
	return pr, procs.Detail(&pr)
}

// codexHome is a Codex process's $CODEX_HOME, else $HOME/.codex, where
// Codex keeps its state and its daemon's socket; "" when its environment
// says neither.
func codexHome(env []string) string {
	home := ""
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "CODEX_HOME="); ok && v != "" {
			return filepath.Clean(v)
		}
		if v, ok := strings.CutPrefix(e, "HOME="); ok && v != "" {
			home = filepath.Join(v, ".codex")
		}
	}
	return home
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
