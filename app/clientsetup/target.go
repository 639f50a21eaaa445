package clientsetup

// 'asktray config CLIENT' prints, or with --write merges into the client's own
// config file, the setup that connects an MCP client to Asktray. Where each
// format comes from (checked against the clients' docs and sources):
//
//   - claude-code: https://code.claude.com/docs/en/mcp ('claude mcp add
//     --transport http … --header', scopes); user-scope servers live in the
//     top-level "mcpServers" of ~/.claude.json, or $CLAUDE_CONFIG_DIR/.claude.json
//     (https://github.com/anthropics/claude-code/issues/4193, #48448).
//   - claude-desktop: https://modelcontextprotocol.io/docs/develop/connect-local-servers;
//     its JSON config takes local (stdio) servers only, remote ones are added
//     under Settings > Connectors
//     (https://support.claude.com/en/articles/11503834-building-custom-connectors-via-remote-mcp-servers).
//   - cursor: https://cursor.com/docs/context/mcp (~/.cursor/mcp.json, "url" + "headers").
//   - vscode: https://code.visualstudio.com/docs/copilot/reference/mcp-configuration
//     (top-level "servers", "type": "http", "url", "headers"; user or .vscode/mcp.json).
//   - codex: https://developers.openai.com/codex/mcp and
//     https://developers.openai.com/codex/config-reference; [mcp_servers.NAME]
//     with url + http_headers (literal values, no env var needed), tool_timeout_sec
//     (default 300 s since https://github.com/openai/codex/pull/28234, 60 s
//     and 120 s before); see openai/codex codex-rs/config/src/mcp_types.rs.
//     $CODEX_HOME replaces ~/.codex.
//   - windsurf: https://docs.windsurf.com/windsurf/cascade/mcp
//     (~/.codeium/windsurf/mcp_config.json, "serverUrl" + "headers").

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf8"
)

// ServerName is the name of Asktray's entry in every client's config.
const ServerName = "asktray"

// clients are the MCP clients 'asktray config' knows, in the order it lists them.
var clients = []string{"claude-code", "claude-desktop", "cursor", "vscode", "codex", "windsurf", "gemini-cli", "zed", "opencode", "copilot-cli"}

// codexToolTimeout is the tool_timeout_sec written for Codex, in seconds.
const codexToolTimeout = 600

// Sys is what a setup reads from the machine; tests pin it so that their
// output is stable.
type Sys struct {
	GOOS   string              // runtime.GOOS, decides per-OS config paths
	Home   string              // the home dir
	Getenv func(string) string // CLAUDE_CONFIG_DIR, CODEX_HOME, XDG_CONFIG_HOME, APPDATA
	Exe    string              // absolute path of the asktray binary, for stdio setups
	// HookExe is the hook-only binary (cmd/asktray-hook) beside Exe, which
	// hooks run instead of Exe when it is there; "" when it is not.
	HookExe string
}

// System returns the machine's Sys: the OS, the home dir (os.UserHomeDir, that
// is $HOME, or %USERPROFILE% on Windows), the environment and this
// executable. It does not block on anything but the file system.
func System() (Sys, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Sys{}, fmt.Errorf("find home dir: %w", err)
	}
	exe, err := asktrayPath()
	if err != nil {
		return Sys{}, err
	}
	return Sys{GOOS: runtime.GOOS, Home: home, Getenv: os.Getenv, Exe: exe, HookExe: HookBeside(exe)}, nil
}

// HookName is the hook-only binary's file name.
const HookName = "asktray-hook"

// HookBeside returns the hook-only binary in exe's directory when it is an
// executable file there, else "". It is never looked for on Windows, which
// has none (cmd/asktray-hook). It reads the file system.
func HookBeside(exe string) string {
	if runtime.GOOS == "windows" || exe == "" {
		return ""
	}
	p := filepath.Join(filepath.Dir(exe), HookName)
	if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return ""
	}
	return p
}

// Server is where a client reaches the MCP server.
type Server struct {
	URL, Token string
	Running    bool // false: the instance-less defaults, no app answered
}

// asktrayPath returns the absolute path of this binary, preferring the
// 'asktray' found on $PATH when it is the same file (a stable path such as
// /usr/local/bin/asktray rather than a versioned one behind a symlink).
func asktrayPath() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find the asktray binary: %w", err)
	}
	if exe, err = filepath.Abs(exe); err != nil {
		return "", fmt.Errorf("find the asktray binary: %w", err)
	}
	if p, err := exec.LookPath("asktray"); err == nil {
		if p, err = filepath.Abs(p); err == nil {
			a, errA := os.Stat(p)
			b, errB := os.Stat(exe)
			if errA == nil && errB == nil && os.SameFile(a, b) {
				return p, nil
			}
		}
	}
	return exe, nil
}

// Target is one client's setup: where it goes and what goes there.
type Target struct {
	Client, Title string
	Path          string   // the config file
	Stdio         bool     // the entry runs 'asktray stdio'
	Command       string   // a command line that adds the server, where the client has one
	rootPath      []string // JSON: the object holding the servers; nil for Codex's TOML
	// altRoots are other objects the client reads servers from; an entry
	// found there is updated there, and no second one is added.
	altRoots [][]string
	jsonc    bool // the client reads JSON with comments and trailing commas
	// noTrailing: the client reads comments but refuses trailing commas
	// (Gemini CLI), so none is added and the person's are pointed out.
	noTrailing bool
	entry      any    // the JSON entry
	toml       string // Codex: the [mcp_servers.asktray] table
}

// ownedKeys are the keys of a server entry asktray writes; every other key in
// the entry is the person's and a rewrite keeps it. A key here that the new
// entry lacks goes (a URL when the entry now runs 'asktray stdio', Gemini CLI's
// deprecated httpUrl). Codex's TOML table has its own (codexOwned).
var ownedKeys = []string{"type", "url", "serverUrl", "httpUrl", "headers", "command", "args"}

// defaultKeys are keys asktray writes only into an entry that lacks them:
// Gemini CLI's timeout and Copilot CLI's tools are the person's to change.
var defaultKeys = []string{"timeout", "tools"}

// jsonServer is a server entry in a client's JSON config; its field order is
// the order it is printed and written in.
type jsonServer struct {
	Type      string            `json:"type,omitempty"`
	URL       string            `json:"url,omitempty"`
	ServerURL string            `json:"serverUrl,omitempty"`
	HTTPURL   string            `json:"httpUrl,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"`
	Command   string            `json:"command,omitempty"`
	Args      []string          `json:"args,omitempty"`
	Timeout   int               `json:"timeout,omitempty"`
	Tools     []string          `json:"tools,omitempty"`
}

// opencodeServer is an entry of opencode's "mcp" config, whose local command
// is one array.
type opencodeServer struct {
	Type    string            `json:"type"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Command []string          `json:"command,omitempty"`
}

// build is what every client's builder starts from.
type build struct {
	sys       Sys
	srv       Server
	http      bool
	stdioArgs []string
	headers   map[string]string
}

// entry is the common entry: url + headers, or command + args.
func (b build) entry() jsonServer {
	if b.http {
		return jsonServer{URL: b.srv.URL, Headers: b.headers}
	}
	return jsonServer{Command: b.sys.Exe, Args: b.stdioArgs}
}

// Build makes client's setup. With useHTTP the entry points at srv;
// otherwise it runs 'asktray stdio --data-dir dir'. It only reads the file
// system (to find which of a client's files exists).
func Build(client string, sys Sys, dir string, srv Server, useHTTP bool) (Target, error) {
	b := build{sys: sys, srv: srv, http: useHTTP, stdioArgs: []string{"stdio", "--data-dir", dir},
		headers: map[string]string{"Authorization": "Bearer " + srv.Token}}
	mk, ok := builders[client]
	if !ok {
		return Target{}, fmt.Errorf("unknown client %q", client)
	}
	t := Target{Client: client, Stdio: !useHTTP, rootPath: []string{"mcpServers"}}
	mk(&t, b)
	if client == "codex" {
		var err error
		if t.toml, err = codexTable(useHTTP, srv, sys.Exe, b.stdioArgs); err != nil {
			return t, err
		}
	}
	return t, nil
}

// builders fill in each client's Target.
var builders = map[string]func(*Target, build){
	"claude-code": buildClaudeCode,
	"claude-desktop": func(t *Target, b build) {
		t.Title, t.entry = "Claude Desktop", b.entry()
		t.Path = filepath.Join(appConfigDir(b.sys), "Claude", "claude_desktop_config.json")
	},
	"cursor": func(t *Target, b build) {
		t.Title, t.Path, t.entry = "Cursor", filepath.Join(b.sys.Home, ".cursor", "mcp.json"), b.entry()
	},
	"vscode": func(t *Target, b build) {
		t.Title, t.rootPath, t.jsonc = "VS Code", []string{"servers"}, true
		t.Path = filepath.Join(appConfigDir(b.sys), "Code", "User", "mcp.json")
		e := b.entry()
		e.Type = "stdio"
		if b.http {
			e.Type = "http"
		}
		t.entry = e
	},
	"codex": func(t *Target, b build) {
		t.Title, t.Path, t.rootPath = "Codex", codexPath(b.sys), nil
	},
	"windsurf": func(t *Target, b build) {
		t.Title, t.Path = "Windsurf", filepath.Join(b.sys.Home, ".codeium", "windsurf", "mcp_config.json")
		e := b.entry()
		if b.http {
			e.URL, e.ServerURL = "", b.srv.URL
		}
		t.entry = e
	},
	"gemini-cli":  buildGemini,
	"zed":         buildZed,
	"opencode":    buildOpencode,
	"copilot-cli": buildCopilot,
}

func buildClaudeCode(t *Target, b build) {
	t.Title, t.Path = "Claude Code", claudeCodePath(b.sys)
	e := b.entry()
	if b.http {
		// No 'claude mcp add … --header' line: the token would be in
		// claude's arguments, which every local user reads in
		// /proc/PID/cmdline. The file write (or --stdio) carries none.
		e.Type = "http"
	} else {
		e.Type = "stdio"
		t.Command = shellJoin(b.sys.GOOS, append([]string{"claude", "mcp", "add", "--transport", "stdio", "--scope", "user",
			ServerName, "--", b.sys.Exe}, b.stdioArgs...)...)
	}
	t.entry = e
}

func claudeCodePath(sys Sys) string {
	if d := sys.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, ".claude.json")
	}
	return filepath.Join(sys.Home, ".claude.json")
}

func codexPath(sys Sys) string {
	if d := sys.Getenv("CODEX_HOME"); d != "" {
		return filepath.Join(d, "config.toml")
	}
	return filepath.Join(sys.Home, ".codex", "config.toml")
}

// appConfigDir is where Electron apps such as Claude Desktop and VS Code keep
// their user config: ~/Library/Application Support on macOS, %APPDATA% on
// Windows, $XDG_CONFIG_HOME or ~/.config elsewhere.
func appConfigDir(sys Sys) string {
	switch sys.GOOS {
	case "darwin":
		return filepath.Join(sys.Home, "Library", "Application Support")
	case "windows":
		if d := sys.Getenv("APPDATA"); d != "" {
			return d
		}
		return filepath.Join(sys.Home, "AppData", "Roaming")
	}
	if d := sys.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(sys.Home, ".config")
}

// codexTable returns the [mcp_servers.asktray] table for Codex's config.toml.
func codexTable(useHTTP bool, srv Server, exe string, args []string) (string, error) {
	var b strings.Builder
	b.WriteString("[mcp_servers." + ServerName + "]\n")
	if useHTTP {
		fmt.Fprintf(&b, "url = %s\n", tomlString(srv.URL))
		fmt.Fprintf(&b, "http_headers = { \"Authorization\" = %s }\n", tomlString("Bearer "+srv.Token))
	} else {
		quoted := make([]string, len(args))
		for i, a := range args {
			quoted[i] = tomlString(a)
		}
		fmt.Fprintf(&b, "command = %s\n", tomlString(exe))
		fmt.Fprintf(&b, "args = [%s]\n", strings.Join(quoted, ", "))
	}
	b.WriteString("# Codex gives up on a tool call after 300 s by default (60 s in older versions), but a\n")
	b.WriteString("# question waits for your answer until its deadline, which the agent may set longer.\n")
	fmt.Fprintf(&b, "tool_timeout_sec = %d\n", codexToolTimeout)
	s := b.String()
	if !utf8.ValidString(s) {
		return "", errors.New("the asktray path or data dir is not valid UTF-8, which TOML cannot hold")
	}
	return s, nil
}
