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
//     (default 60 s); see openai/codex codex-rs/config/src/mcp_types.rs.
//     $CODEX_HOME replaces ~/.codex.
//   - windsurf: https://docs.windsurf.com/windsurf/cascade/mcp
//     (~/.codeium/windsurf/mcp_config.json, "serverUrl" + "headers").

import (
	"errors"
	"fmt"
	"io"
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
var clients = []string{"claude-code", "claude-desktop", "cursor", "vscode", "codex", "windsurf"}

// codexToolTimeout is the tool_timeout_sec written for Codex, in seconds.
const codexToolTimeout = 600

// Sys is what a setup reads from the machine; tests pin it so that their
// output is stable.
type Sys struct {
	GOOS   string              // runtime.GOOS, decides per-OS config paths
	Home   string              // the home dir
	Getenv func(string) string // CLAUDE_CONFIG_DIR, CODEX_HOME, XDG_CONFIG_HOME, APPDATA
	Exe    string              // absolute path of the asktray binary, for stdio setups
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
	return Sys{GOOS: runtime.GOOS, Home: home, Getenv: os.Getenv, Exe: exe}, nil
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
	Path          string // the config file
	Stdio         bool   // the entry runs 'asktray stdio'
	Command       string // Claude Code: the 'claude mcp add' command line
	rootKey       string // JSON: the object holding the servers; "" for Codex's TOML
	entry         jsonServer
	toml          string // Codex: the [mcp_servers.asktray] table
}

// jsonServer is a server entry in a client's JSON config; its field order is
// the order it is printed and written in.
type jsonServer struct {
	Type      string            `json:"type,omitempty"`
	URL       string            `json:"url,omitempty"`
	ServerURL string            `json:"serverUrl,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"`
	Command   string            `json:"command,omitempty"`
	Args      []string          `json:"args,omitempty"`
}

// Build makes client's setup. With useHTTP the entry points at srv;
// otherwise it runs 'asktray stdio --data-dir dir'.
func Build(client string, sys Sys, dir string, srv Server, useHTTP bool) (Target, error) {
	t := Target{Client: client, Stdio: !useHTTP, rootKey: "mcpServers"}
	headers := map[string]string{"Authorization": "Bearer " + srv.Token}
	stdioArgs := []string{"stdio", "--data-dir", dir}
	if useHTTP {
		t.entry = jsonServer{URL: srv.URL, Headers: headers}
	} else {
		t.entry = jsonServer{Command: sys.Exe, Args: stdioArgs}
	}
	switch client {
	case "claude-code":
		t.Title, t.Path = "Claude Code", claudeCodePath(sys)
		if useHTTP {
			t.entry.Type = "http"
			t.Command = shellJoin(sys.GOOS, "claude", "mcp", "add", "--transport", "http", "--scope", "user",
				ServerName, srv.URL, "--header", "Authorization: Bearer "+srv.Token)
		} else {
			t.entry.Type = "stdio"
			t.Command = shellJoin(sys.GOOS, append([]string{"claude", "mcp", "add", "--transport", "stdio", "--scope", "user",
				ServerName, "--", sys.Exe}, stdioArgs...)...)
		}
	case "claude-desktop":
		t.Title = "Claude Desktop"
		t.Path = filepath.Join(appConfigDir(sys), "Claude", "claude_desktop_config.json")
	case "cursor":
		t.Title, t.Path = "Cursor", filepath.Join(sys.Home, ".cursor", "mcp.json")
	case "vscode":
		t.Title, t.rootKey = "VS Code", "servers"
		t.Path = filepath.Join(appConfigDir(sys), "Code", "User", "mcp.json")
		t.entry.Type = "stdio"
		if useHTTP {
			t.entry.Type = "http"
		}
	case "codex":
		t.Title, t.Path, t.rootKey = "Codex", codexPath(sys), ""
		var err error
		if t.toml, err = codexTable(useHTTP, srv, sys.Exe, stdioArgs); err != nil {
			return t, err
		}
	case "windsurf":
		t.Title, t.Path = "Windsurf", filepath.Join(sys.Home, ".codeium", "windsurf", "mcp_config.json")
		if useHTTP {
			t.entry.URL, t.entry.ServerURL = "", srv.URL
		}
	}
	return t, nil
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
	b.WriteString("# Codex gives up on a tool call after 60 s by default, but a question waits for\n")
	b.WriteString("# your answer until its deadline (300 s unless the agent asks for longer).\n")
	fmt.Fprintf(&b, "tool_timeout_sec = %d\n", codexToolTimeout)
	s := b.String()
	if !utf8.ValidString(s) {
		return "", errors.New("the asktray path or data dir is not valid UTF-8, which TOML cannot hold")
	}
	return s, nil
}

// Snippet returns what goes into the config file: a JSON object holding only
// the asktray entry, or Codex's TOML table.
func (t Target) Snippet() ([]byte, error) {
	if t.rootKey == "" {
		return []byte(t.toml), nil
	}
	return encodeJSON(map[string]any{t.rootKey: map[string]any{ServerName: t.entry}})
}

// Print writes the heading, the file and the snippet for t to w, as 'asktray
// config CLIENT' prints them.
func (t Target) Print(w io.Writer) error {
	snip, err := t.Snippet()
	if err != nil {
		return err
	}
	write := "asktray config " + t.Client + " --write"
	if t.Stdio && t.Client != "claude-desktop" {
		write += " --stdio"
	}
	entry := fmt.Sprintf("the %q entry to %q in", ServerName, t.rootKey)
	fmt.Fprintf(w, "%s\n\n", t.Title)
	switch t.Client {
	case "claude-code":
		fmt.Fprintf(w, "Run this once (user scope, for every project):\n\n  %s\n\n", t.Command)
		fmt.Fprintf(w, "If an asktray server is there already, first run: claude mcp remove --scope user %s\n", ServerName)
		fmt.Fprintf(w, "Or quit Claude Code and let '%s' add\n%s %s:\n\n", write, entry, t.Path)
	case "claude-desktop":
		fmt.Fprintf(w, "Claude Desktop takes only local servers from its config file, so it runs 'asktray stdio',\n"+
			"which starts Asktray when it is not running. Add %s\n%s\n(or let '%s' do it):\n\n", entry, t.Path, write)
	case "vscode":
		fmt.Fprintf(w, "Add %s your user mcp.json,\n%s (MCP: Open User Configuration),\n"+
			"or let '%s' do it. A workspace's .vscode/mcp.json\ntakes the same entry, for that workspace only:\n\n", entry, t.Path, write)
	case "codex":
		fmt.Fprintf(w, "Add this table to %s\n(or let '%s' do it):\n\n", t.Path, write)
	default:
		fmt.Fprintf(w, "Add %s %s\n(or let '%s' do it):\n\n", entry, t.Path, write)
	}
	if _, err := w.Write(snip); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\n", t.AfterNote())
	return nil
}

// AfterNote says how the client picks the setup up, and what to keep in mind.
func (t Target) AfterNote() string {
	var s string
	switch t.Client {
	case "claude-code":
		s = "Claude Code connects at its next start; 'claude mcp get asktray' or /mcp shows the server."
	case "claude-desktop":
		s = "Quit Claude Desktop completely and start it again to connect."
	case "cursor":
		s = "Cursor picks it up in Settings > MCP (restart Cursor if it does not show)."
	case "vscode":
		s = "Start the server from the mcp.json editor or MCP: List Servers."
	case "codex":
		s = "Codex connects at its next start; /mcp shows the server."
	case "windsurf":
		s = "Press Refresh in Cascade's MCP panel to connect."
	}
	if !t.Stdio {
		s += "\nThe token is a secret: whoever has it can put questions to you. Run this again if it or the port changes."
	}
	return s
}
