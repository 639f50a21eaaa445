package clientsetup

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Snippet returns what goes into the config file: a JSON object holding only
// the asktray entry, or Codex's TOML table.
func (t Target) Snippet() ([]byte, error) {
	if t.rootPath == nil {
		return []byte(t.toml), nil
	}
	var v any = map[string]any{ServerName: t.entry}
	for _, k := range slices.Backward(t.rootPath) {
		v = map[string]any{k: v}
	}
	return encodeJSON(v)
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
	entry := fmt.Sprintf("the %q entry to %q in", ServerName, strings.Join(t.rootPath, "."))
	fmt.Fprintf(w, "%s\n\n", t.Title)
	switch t.Client {
	case "claude-code":
		if t.Command == "" {
			fmt.Fprintf(w, "Quit Claude Code and let '%s' add\n%s %s\n"+
				"(user scope, for every project; no 'claude mcp add' line is given, as it would put the token\n"+
				"in claude's arguments, where other local users can read it):\n\n", write, entry, t.Path)
			break
		}
		fmt.Fprintf(w, "Run this once (user scope, for every project):\n\n  %s\n\n", t.Command)
		fmt.Fprintf(w, "If an asktray server is there already, first run: claude mcp remove --scope user %s\n", ServerName)
		fmt.Fprintf(w, "Or quit Claude Code and let '%s' add\n%s %s:\n\n", write, entry, t.Path)
	case "claude-desktop":
		fmt.Fprintf(w, "Claude Desktop takes only local servers from its config file, so it runs 'asktray stdio',\n"+
			"which starts Asktray when it is not running. Add %s\n%s\n(or let '%s' do it):\n\n", entry, t.Path, write)
	case "vscode":
		fmt.Fprintf(w, "Add %s your user mcp.json,\n%s (MCP: Open User Configuration),\n"+
			"or let '%s' do it. A workspace's .vscode/mcp.json\ntakes the same entry, for that workspace only:\n\n", entry, t.Path, write)
	case "gemini-cli":
		verb := "Add"
		if t.Command != "" {
			fmt.Fprintf(w, "Run this once (user scope):\n\n  %s\n\n", t.Command)
			verb = "Or add"
		}
		fmt.Fprintf(w, "%s %s %s\n(or let '%s' do it):\n\n", verb, entry, t.Path, write)
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
	case "gemini-cli":
		s = "Gemini CLI connects at its next start; /mcp shows the server. In a folder you have not\n" +
			"trusted, Gemini CLI keeps MCP servers off: trust the folder when it asks (or with /permissions)."
	case "zed":
		s = "Zed connects when it reads its settings; the Agent Panel's settings show the server."
	case "opencode":
		s = "opencode connects at its next start; 'opencode mcp list' shows the server."
	case "copilot-cli":
		s = "Copilot CLI connects at its next start; /mcp shows the server."
	}
	if !t.Stdio {
		s += "\nThe token is a secret: whoever has it can put questions to you. Run this again if it or the port changes."
	}
	return s
}
