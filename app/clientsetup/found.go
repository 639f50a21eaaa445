package clientsetup

// Which agents and MCP clients are on this machine, and connecting one in
// full (its MCP entry and its hooks): the first-run window (ui) and
// 'asktray connect' (app/cli) both call Detect and Connect, which write
// through the same Target.Write and Hooks.Write as 'asktray config' and the
// Connect window.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/asktray/asktray/app/hook"
)

// clientPrograms are the commands of the MCP clients that have no hooks
// (the agents' own are hook.Spec.Program). Claude Desktop installs none on
// Linux; its folder tells.
var clientPrograms = map[string]string{"cursor": "cursor", "vscode": "code", "windsurf": "windsurf", "zed": "zed"}

// Agent is one agent or MCP client that Connect can set up, as this
// machine has it.
type Agent struct {
	Name  string // "claude-code": as 'asktray config' and the rules name it
	Title string // "Claude Code"
	MCP   bool   // Connect writes its MCP entry
	Hooks bool   // Connect installs its hooks
	// Found says why it is taken to be on this machine ("claude on PATH",
	// "~/.claude exists"); "" when nothing says it is.
	Found string
}

// Detect lists every agent with hooks (in the agent table's order), then
// every other MCP client, each with why it is taken to be on this machine:
// its program on sys's PATH or in ~/.local/bin, or the folder of its
// settings (or the folder above it), never the home dir or the XDG config
// dir themselves. It blocks on the file system only.
func Detect(sys Sys) []Agent {
	var out []Agent
	for _, sp := range hook.Specs() {
		a := Agent{Name: string(sp.Name), Title: sp.Title, Hooks: true, MCP: slices.Contains(clients, string(sp.Name))}
		a.Found = foundBy(sys, sp.Program, sp.Settings.File(sys.Home, sys.Getenv))
		out = append(out, a)
	}
	for _, c := range clients {
		if slices.Contains(HookAgents(), c) {
			continue
		}
		t, err := Build(c, sys, "", Server{}, false)
		if err != nil {
			continue
		}
		out = append(out, Agent{Name: c, Title: t.Title, MCP: true, Found: foundBy(sys, clientPrograms[c], t.Path)})
	}
	return out
}

// foundBy says why a tool whose program is prog and whose settings file is
// file is taken to be on this machine, or "".
func foundBy(sys Sys, prog, file string) string {
	if prog != "" {
		dirs := filepath.SplitList(sys.Getenv("PATH"))
		for _, d := range append(dirs, filepath.Join(sys.Home, ".local", "bin")) {
			if st, err := os.Stat(filepath.Join(d, prog)); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 && filepath.IsAbs(d) {
				return prog + " in " + homePath(d, sys.Home)
			}
		}
	}
	generic := []string{sys.Home, xdgConfigDir(sys), filepath.Dir(sys.Home), string(filepath.Separator), "."}
	dir := filepath.Dir(file)
	for range 2 {
		if slices.Contains(generic, dir) {
			break
		}
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return homePath(dir, sys.Home) + " exists"
		}
		dir = filepath.Dir(dir)
	}
	return ""
}

// homePath is p with the home dir shown as ~.
func homePath(p, home string) string {
	if home != "" && (p == home || strings.HasPrefix(p, home+string(filepath.Separator))) {
		return "~" + p[len(home):]
	}
	return p
}

// UsesHTTP reports whether client's MCP entry points at the app's URL with
// the token rather than running 'asktray stdio': Claude Desktop's config
// file takes local (stdio) servers only.
func UsesHTTP(client string) bool { return client != "claude-desktop" }

// Connect sets agent up in full, as 'asktray config AGENT --write' and
// 'asktray config AGENT --hooks --write' would one after the other: its MCP
// entry (pointing at srv, or 'asktray stdio --data-dir dataDir' where the
// client takes no URL) and its hooks, where it has them. It reports what it
// did to out; an error of one part does not keep the other from being
// written. It blocks on the file system only; any goroutine may call it.
func Connect(agent string, sys Sys, dataDir string, srv Server, deadline time.Duration, out io.Writer) error {
	mcp, hooks := slices.Contains(clients, agent), slices.Contains(HookAgents(), agent)
	if !mcp && !hooks {
		return fmt.Errorf("connect: unknown agent %q", agent)
	}
	var errs []error
	if mcp {
		t, err := Build(agent, sys, dataDir, srv, UsesHTTP(agent))
		if err == nil {
			err = t.Write(out)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s's MCP entry: %w", agent, err))
		}
	}
	if hooks {
		h, err := BuildHooks(agent, sys, dataDir, deadline)
		if err == nil {
			err = h.Write(out)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s's hooks: %w", agent, err))
		}
	}
	return errors.Join(errs...)
}

// Connection is what of an agent's setup its files hold now.
type Connection struct {
	MCP       bool   // its file has an asktray MCP entry
	MCPPath   string // that file
	Hooks     int    // how many of the hooks asktray installs are in its hooks file
	HooksWant int    // how many asktray installs (0: the agent has none)
	HooksPath string // its hooks file
}

// Done reports whether everything Connect writes for the agent is there.
func (c Connection) Done() bool {
	return (c.MCPPath == "" || c.MCP) && c.Hooks == c.HooksWant
}

// Connected reads agent's files and says what of its setup is there. A file
// that cannot be read or parsed is an error naming it. It blocks on the
// file system only.
func Connected(agent string, sys Sys, dataDir string) (Connection, error) {
	var c Connection
	if slices.Contains(clients, agent) {
		t, err := Build(agent, sys, dataDir, Server{}, UsesHTTP(agent))
		if err != nil {
			return c, err
		}
		c.MCPPath = t.Path
		f, err := t.Installed()
		if err != nil {
			return c, err
		}
		c.MCP = f.Key != ""
	}
	if slices.Contains(HookAgents(), agent) {
		h, err := BuildHooks(agent, sys, dataDir, 0)
		if err != nil {
			return c, err
		}
		c.HooksPath = h.Path
		if c.Hooks, c.HooksWant, _, err = h.Count(); err != nil {
			return c, err
		}
	}
	return c, nil
}

// Count says how many of the hooks asktray installs (want) are in h's
// file (have), each event with its matcher; exists is false when there is
// no file. It blocks on the file system only.
func (h Hooks) Count() (have, want int, exists bool, err error) {
	found, exists, err := h.Installed()
	if err != nil {
		return 0, len(h.entries), exists, err
	}
	for _, e := range h.entries {
		if slices.ContainsFunc(found, func(f FoundHook) bool { return f.Event == e.Event && f.Matcher == e.Matcher }) {
			have++
		}
	}
	return have, len(h.entries), exists, nil
}
