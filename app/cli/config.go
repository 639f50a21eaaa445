package cli

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
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/control"
)

// configServerName is the name of Asktray's entry in every client's config.
const configServerName = "asktray"

// configClients are the clients 'asktray config' knows, in the order it lists them.
var configClients = []string{"claude-code", "claude-desktop", "cursor", "vscode", "codex", "windsurf"}

// codexToolTimeout is the tool_timeout_sec written for Codex, in seconds.
const codexToolTimeout = 600

// configSys is what cmdConfig reads from the machine.
type configSys struct {
	goos   string              // runtime.GOOS, decides per-OS config paths
	home   string              // the home dir
	getenv func(string) string // CLAUDE_CONFIG_DIR, CODEX_HOME, XDG_CONFIG_HOME, APPDATA
	exe    string              // absolute path of the asktray binary, for stdio setups
}

// configSystem returns the machine's configSys. Tests replace it to pin the
// OS, the home dir (normally os.UserHomeDir, that is $HOME, or %USERPROFILE% on
// Windows), the environment and the executable, so their output is stable.
var configSystem = func() (configSys, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return configSys{}, fmt.Errorf("find home dir: %w", err)
	}
	exe, err := asktrayPath()
	if err != nil {
		return configSys{}, err
	}
	return configSys{goos: runtime.GOOS, home: home, getenv: os.Getenv, exe: exe}, nil
}

// serverInfo is where a client reaches the MCP server.
type serverInfo struct {
	URL, Token string
	Running    bool // false: the instance-less defaults, no app answered
}

// configServer finds the MCP URL and token for data dir dir; tests replace it.
var configServer = lookupServer

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

// lookupServer asks the app running on dir for its URL and reads its token.
// With no app running it falls back to the address of the mcp_port setting
// (or the default) and the token in dir (made if missing), so that a client can be set up before the first start.
func lookupServer(ctx context.Context, dir string) (serverInfo, error) {
	c := control.NewClient(filepath.Join(dir, app.SocketFile))
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	st, err := c.Status(sctx)
	if err == nil {
		tok, err := os.ReadFile(filepath.Join(dir, app.TokenFile))
		if err != nil {
			return serverInfo{}, fmt.Errorf("read token: %w", err)
		}
		return serverInfo{URL: st.URL, Token: strings.TrimSpace(string(tok)), Running: true}, nil
	}
	if !errors.Is(err, control.ErrNoApp) {
		return serverInfo{}, err
	}
	if err := app.EnsureDataDir(dir); err != nil {
		return serverInfo{}, err
	}
	tok, err := app.LoadOrCreateToken(dir)
	if err != nil {
		return serverInfo{}, err
	}
	set, err := app.LoadSettings(dir)
	if err != nil {
		return serverInfo{}, err
	}
	return serverInfo{URL: "http://" + set.MCPAddr() + "/mcp", Token: tok}, nil
}

// configTarget is one client's setup: where it goes and what goes there.
type configTarget struct {
	client, title string
	path          string // the config file
	stdio         bool   // the entry runs 'asktray stdio'
	rootKey       string // JSON: the object holding the servers; "" for Codex's TOML
	entry         jsonServer
	toml          string // Codex: the [mcp_servers.asktray] table
	command       string // Claude Code: the 'claude mcp add' command line
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

func cmdConfig(ctx context.Context, args []string, stdio IO) error {
	f := newFlags("config")
	write := f.Bool("write", false, "merge the setup into the client's config file")
	useStdio := f.Bool("stdio", false, "use 'asktray stdio' even where the client takes HTTP")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	names := strings.Join(configClients, ", ")
	switch {
	case len(pos) == 0:
		return usagef("config takes a client: %s", names)
	case len(pos) > 1:
		return usagef("config takes one client, got %q", pos)
	}
	client := pos[0]
	if !slices.Contains(configClients, client) {
		return usagef("unknown client %q; pick one of: %s", client, names)
	}
	dir, err := f.dir()
	if err != nil {
		return err
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return err
	}
	sys, err := configSystem()
	if err != nil {
		return err
	}
	useHTTP := !*useStdio && client != "claude-desktop"
	var srv serverInfo
	if useHTTP {
		if srv, err = configServer(ctx, dir); err != nil {
			return err
		}
		if !srv.Running {
			fmt.Fprintf(stdio.Err, "asktray: no app is running for %s, so this uses %s (the mcp_port setting, or the default port) and the token in %s;\n"+
				"start Asktray without --addr for it to match.\n", dir, srv.URL, filepath.Join(dir, app.TokenFile))
		}
	}
	t, err := buildTarget(client, sys, dir, srv, useHTTP)
	if err != nil {
		return err
	}
	if *write {
		return writeTarget(t, stdio)
	}
	return printTarget(t, stdio.Out)
}

// buildTarget makes client's setup. With useHTTP the entry points at srv;
// otherwise it runs 'asktray stdio --data-dir dir'.
func buildTarget(client string, sys configSys, dir string, srv serverInfo, useHTTP bool) (configTarget, error) {
	t := configTarget{client: client, stdio: !useHTTP, rootKey: "mcpServers"}
	headers := map[string]string{"Authorization": "Bearer " + srv.Token}
	stdioArgs := []string{"stdio", "--data-dir", dir}
	if useHTTP {
		t.entry = jsonServer{URL: srv.URL, Headers: headers}
	} else {
		t.entry = jsonServer{Command: sys.exe, Args: stdioArgs}
	}
	switch client {
	case "claude-code":
		t.title, t.path = "Claude Code", claudeCodePath(sys)
		if useHTTP {
			t.entry.Type = "http"
			t.command = shellJoin(sys.goos, "claude", "mcp", "add", "--transport", "http", "--scope", "user",
				configServerName, srv.URL, "--header", "Authorization: Bearer "+srv.Token)
		} else {
			t.entry.Type = "stdio"
			t.command = shellJoin(sys.goos, append([]string{"claude", "mcp", "add", "--transport", "stdio", "--scope", "user",
				configServerName, "--", sys.exe}, stdioArgs...)...)
		}
	case "claude-desktop":
		t.title = "Claude Desktop"
		t.path = filepath.Join(appConfigDir(sys), "Claude", "claude_desktop_config.json")
	case "cursor":
		t.title, t.path = "Cursor", filepath.Join(sys.home, ".cursor", "mcp.json")
	case "vscode":
		t.title, t.rootKey = "VS Code", "servers"
		t.path = filepath.Join(appConfigDir(sys), "Code", "User", "mcp.json")
		t.entry.Type = "stdio"
		if useHTTP {
			t.entry.Type = "http"
		}
	case "codex":
		t.title, t.path, t.rootKey = "Codex", codexPath(sys), ""
		var err error
		if t.toml, err = codexTable(useHTTP, srv, sys.exe, stdioArgs); err != nil {
			return t, err
		}
	case "windsurf":
		t.title, t.path = "Windsurf", filepath.Join(sys.home, ".codeium", "windsurf", "mcp_config.json")
		if useHTTP {
			t.entry.URL, t.entry.ServerURL = "", srv.URL
		}
	}
	return t, nil
}

func claudeCodePath(sys configSys) string {
	if d := sys.getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, ".claude.json")
	}
	return filepath.Join(sys.home, ".claude.json")
}

func codexPath(sys configSys) string {
	if d := sys.getenv("CODEX_HOME"); d != "" {
		return filepath.Join(d, "config.toml")
	}
	return filepath.Join(sys.home, ".codex", "config.toml")
}

// appConfigDir is where Electron apps such as Claude Desktop and VS Code keep
// their user config: ~/Library/Application Support on macOS, %APPDATA% on
// Windows, $XDG_CONFIG_HOME or ~/.config elsewhere.
func appConfigDir(sys configSys) string {
	switch sys.goos {
	case "darwin":
		return filepath.Join(sys.home, "Library", "Application Support")
	case "windows":
		if d := sys.getenv("APPDATA"); d != "" {
			return d
		}
		return filepath.Join(sys.home, "AppData", "Roaming")
	}
	if d := sys.getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(sys.home, ".config")
}

// codexTable returns the [mcp_servers.asktray] table for Codex's config.toml.
func codexTable(useHTTP bool, srv serverInfo, exe string, args []string) (string, error) {
	var b strings.Builder
	b.WriteString("[mcp_servers." + configServerName + "]\n")
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

// snippet returns what goes into the config file: a JSON object holding only
// the asktray entry, or Codex's TOML table.
func (t configTarget) snippet() ([]byte, error) {
	if t.rootKey == "" {
		return []byte(t.toml), nil
	}
	return encodeJSON(map[string]any{t.rootKey: map[string]any{configServerName: t.entry}})
}

// printTarget prints the heading, the file and the snippet for t.
func printTarget(t configTarget, w io.Writer) error {
	snip, err := t.snippet()
	if err != nil {
		return err
	}
	write := "asktray config " + t.client + " --write"
	if t.stdio && t.client != "claude-desktop" {
		write += " --stdio"
	}
	entry := fmt.Sprintf("the %q entry to %q in", configServerName, t.rootKey)
	fmt.Fprintf(w, "%s\n\n", t.title)
	switch t.client {
	case "claude-code":
		fmt.Fprintf(w, "Run this once (user scope, for every project):\n\n  %s\n\n", t.command)
		fmt.Fprintf(w, "If an asktray server is there already, first run: claude mcp remove --scope user %s\n", configServerName)
		fmt.Fprintf(w, "Or quit Claude Code and let '%s' add\n%s %s:\n\n", write, entry, t.path)
	case "claude-desktop":
		fmt.Fprintf(w, "Claude Desktop takes only local servers from its config file, so it runs 'asktray stdio',\n"+
			"which starts Asktray when it is not running. Add %s\n%s\n(or let '%s' do it):\n\n", entry, t.path, write)
	case "vscode":
		fmt.Fprintf(w, "Add %s your user mcp.json,\n%s (MCP: Open User Configuration),\n"+
			"or let '%s' do it. A workspace's .vscode/mcp.json\ntakes the same entry, for that workspace only:\n\n", entry, t.path, write)
	case "codex":
		fmt.Fprintf(w, "Add this table to %s\n(or let '%s' do it):\n\n", t.path, write)
	default:
		fmt.Fprintf(w, "Add %s %s\n(or let '%s' do it):\n\n", entry, t.path, write)
	}
	if _, err := w.Write(snip); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\n", t.afterNote())
	return nil
}

// afterNote says how the client picks the setup up, and what to keep in mind.
func (t configTarget) afterNote() string {
	var s string
	switch t.client {
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
	if !t.stdio {
		s += "\nThe token is a secret: whoever has it can put questions to you. Run this again if it or the port changes."
	}
	return s
}
