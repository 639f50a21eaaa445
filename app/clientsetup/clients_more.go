package clientsetup

// The MCP clients added after the first six. Where each format comes from:
//
//   - gemini-cli: https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/mcp-server.md
//     ("mcpServers" in ~/.gemini/settings.json; "url" with "type": "http" is
//     Streamable HTTP, "httpUrl" its deprecated spelling (Gemini CLI 0.61
//     says so); "headers"; "timeout" in ms, whose default is 10 minutes).
//     Gemini CLI strips comments from its settings files before parsing
//     them, so the file may hold comments, but it rejects trailing commas.
//     'gemini mcp add --scope user --transport http --header …' does the same.
//   - zed: https://zed.dev/docs/ai/mcp ("context_servers" in the settings
//     file; a remote server is "url" + "headers", a local one "command" +
//     "args"); the settings file is JSONC (https://zed.dev/docs/configuring-zed),
//     at ~/.config/zed/settings.json on Linux and macOS ($XDG_CONFIG_HOME
//     respected) and %APPDATA%\Zed\settings.json on Windows.
//   - opencode: https://opencode.ai/docs/mcp-servers/ (OpenCode 2 keeps servers
//     under "mcp" → "servers"; a remote one is "type": "remote" + "url" +
//     "headers", a local one "type": "local" + "command" as one array);
//     global config ~/.config/opencode/opencode.json or opencode.jsonc, JSONC.
//     OpenCode 1 read servers straight under "mcp"
//     (https://opencode.ai/docs/migrate-v1/), and opencode 1.18 reads both.
//   - copilot-cli: https://docs.github.com/en/copilot/how-tos/use-copilot-agents/use-copilot-cli
//     (~/.copilot/mcp-config.json, or $COPILOT_HOME/mcp-config.json; its
//     "mcpServers" entries take "type": "http" | "local", "url", "headers",
//     "command", "args" and "tools", with "*" for every tool, and ${VAR} is
//     expanded in them; https://github.com/github/copilot-cli/blob/main/changelog.md);
//     Copilot CLI 1.0.102 reads the file with comments and trailing commas.

import (
	"os"
	"path/filepath"
)

// geminiToolTimeoutMS is the "timeout" written for Gemini CLI: its default
// (10 minutes), said out loud so that a question waiting for the person is
// not cut short if the default changes.
const geminiToolTimeoutMS = 600_000

func buildGemini(t *Target, b build) {
	t.Title, t.jsonc, t.noTrailing = "Gemini CLI", true, true
	t.Path = filepath.Join(b.sys.Home, ".gemini", "settings.json")
	e := b.entry()
	if b.http {
		// Gemini CLI 0.61 calls httpUrl deprecated: "migrate to url with
		// type: \"http\"".
		// No 'gemini mcp add --header' line: the token would be in its
		// arguments, which every local user reads in /proc/PID/cmdline.
		e.Type, e.Timeout = "http", geminiToolTimeoutMS
	}
	t.entry = e
}

func buildZed(t *Target, b build) {
	t.Title, t.rootPath, t.jsonc = "Zed", []string{"context_servers"}, true
	dir := filepath.Join(xdgConfigDir(b.sys), "zed")
	if b.sys.GOOS == "windows" {
		dir = filepath.Join(appConfigDir(b.sys), "Zed")
	}
	t.Path = filepath.Join(dir, "settings.json")
	t.entry = b.entry()
}

func buildOpencode(t *Target, b build) {
	// opencode 1.18 reads servers both under "mcp" → "servers" and straight
	// under "mcp" (OpenCode 1's place): an entry in either is updated there.
	t.Title, t.rootPath, t.jsonc = "opencode", []string{"mcp", "servers"}, true
	t.altRoots = [][]string{{"mcp"}}
	dir := filepath.Join(xdgConfigDir(b.sys), "opencode")
	t.Path = filepath.Join(dir, "opencode.json")
	if _, err := os.Stat(filepath.Join(dir, "opencode.jsonc")); err == nil {
		t.Path = filepath.Join(dir, "opencode.jsonc")
	}
	if b.http {
		t.entry = opencodeServer{Type: "remote", URL: b.srv.URL, Headers: b.headers}
	} else {
		t.entry = opencodeServer{Type: "local", Command: append([]string{b.sys.Exe}, b.stdioArgs...)}
	}
}

func buildCopilot(t *Target, b build) {
	// Copilot CLI reads its config with comments and trailing commas.
	t.Title, t.jsonc = "Copilot CLI", true
	t.Path = filepath.Join(copilotHome(b.sys), "mcp-config.json")
	e := b.entry()
	e.Type, e.Tools = "local", []string{"*"}
	if b.http {
		e.Type = "http"
	}
	t.entry = e
}

// copilotHome is $COPILOT_HOME, or ~/.copilot.
func copilotHome(sys Sys) string {
	if d := sys.Getenv("COPILOT_HOME"); d != "" {
		return d
	}
	return filepath.Join(sys.Home, ".copilot")
}

// xdgConfigDir is $XDG_CONFIG_HOME when it is absolute, or ~/.config, on
// every OS (tools such as opencode and Zed use it on macOS too).
func xdgConfigDir(sys Sys) string {
	if d := sys.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(sys.Home, ".config")
}
