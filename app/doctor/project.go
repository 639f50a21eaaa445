package doctor

// Project entries: an asktray server a client reads for the current folder
// only, which wins over the user-level entry 'asktray config' writes. A
// stale one there is why a client that looks set up does not connect.
//
//   - claude-code: local scope, "projects" → FOLDER → "mcpServers" in
//     ~/.claude.json, and project scope, "mcpServers" in FOLDER/.mcp.json
//     (https://code.claude.com/docs/en/mcp, "MCP installation scopes":
//     local wins over project, project over user).
//   - cursor: FOLDER/.cursor/mcp.json (https://cursor.com/docs/context/mcp).
//   - vscode: "servers" in FOLDER/.vscode/mcp.json
//     (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration).
//   - gemini-cli: FOLDER/.gemini/settings.json, read in a trusted folder
//     (https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/mcp-server.md).

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/asktray/asktray/app/clientsetup"
)

// projectPlace is one place a client reads a folder's servers from.
type projectPlace struct {
	file string   // the file
	root []string // the object holding the servers, from the top
}

// projectPlaces are client's places for folder cwd, in the order the client
// prefers them.
func projectPlaces(env Env, client, userFile string) []projectPlace {
	cwd := env.Cwd
	switch client {
	case "claude-code":
		return []projectPlace{{userFile, []string{"projects", cwd, "mcpServers"}}, {filepath.Join(cwd, ".mcp.json"), []string{"mcpServers"}}}
	case "cursor":
		return []projectPlace{{filepath.Join(cwd, ".cursor", "mcp.json"), []string{"mcpServers"}}}
	case "vscode":
		return []projectPlace{{filepath.Join(cwd, ".vscode", "mcp.json"), []string{"servers"}}}
	case "gemini-cli":
		return []projectPlace{{filepath.Join(cwd, ".gemini", "settings.json"), []string{"mcpServers"}}}
	}
	return nil
}

// checkProjectMCP checks the asktray entries client reads for the current
// folder, which win over the user-level one in userFile.
func checkProjectMCP(ctx context.Context, r *Report, env Env, client, userFile string) {
	if env.Cwd == "" {
		return
	}
	for _, p := range projectPlaces(env, client, userFile) {
		if p.file == userFile && len(p.root) == 1 {
			continue // the folder is the home dir: this is the user entry itself
		}
		m, _, err := clientsetup.ReadJSON(p.file)
		if err != nil {
			r.add(Line{Status: Note, Client: client, What: "MCP", File: p.file, Text: "cannot read it: " + err.Error()})
			continue
		}
		entry, ok := dig(m, append(p.root, clientsetup.ServerName))
		if !ok {
			continue
		}
		f := clientsetup.Found{Path: p.file, Exists: true, Key: dottedKey(append(p.root, clientsetup.ServerName)), Entry: entry}
		fix := fmt.Sprintf("this entry, for %s only, wins over the user one: update it (or remove it and use 'asktray config %s --write')", env.Cwd, client)
		lines := mcpHTTP(ctx, env, client, f, fix)
		if lines == nil {
			lines = mcpStdio(ctx, env, client, f, fix)
		}
		for _, l := range lines {
			l.Client, l.What, l.File = client, "MCP", p.file
			if l.Key == "" {
				l.Key = f.Key
			}
			if l.Status == Fine {
				l.Text += " (for " + env.Cwd + " only; it wins over the user entry)"
			}
			r.add(l)
		}
	}
}

// dig returns the object at path in m.
func dig(m map[string]any, path []string) (map[string]any, bool) {
	cur := m
	for _, k := range path {
		next, ok := cur[k].(map[string]any)
		if !ok {
			return nil, false
		}
		cur = next
	}
	return cur, true
}

// dottedKey joins path with dots, quoting a part that holds a dot, a space
// or a path separator (a folder name).
func dottedKey(path []string) string {
	parts := make([]string, len(path))
	for i, k := range path {
		if filepath.IsAbs(k) || strings.ContainsAny(k, "./ ") {
			k = strconv.Quote(k)
		}
		parts[i] = k
	}
	return strings.Join(parts, ".")
}
