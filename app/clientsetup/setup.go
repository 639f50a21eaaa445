package clientsetup

import (
	"bytes"
	"fmt"
	"slices"
	"time"
)

// Clients lists the MCP clients that For and 'asktray config' know.
func Clients() []string { return slices.Clone(clients) }

// Setup is how one client connects to the app.
type Setup struct {
	Text    string // what 'asktray config CLIENT' prints
	Snippet string // the config entry (JSON, or TOML for Codex) to paste
	Command string // a command line that does it, where the client has one
	Path    string // the client's config file
}

// For returns the setup for client against the app at url with
// token, the same that 'asktray config CLIENT' prints. It does not block
// and may be called from any goroutine.
func For(client, dataDir, url, token string) (Setup, error) {
	if !slices.Contains(clients, client) {
		return Setup{}, fmt.Errorf("unknown client %q", client)
	}
	sys, err := System()
	if err != nil {
		return Setup{}, err
	}
	useHTTP := UsesHTTP(client)
	t, err := Build(client, sys, dataDir, Server{URL: url, Token: token, Running: true}, useHTTP)
	if err != nil {
		return Setup{}, err
	}
	snip, err := t.Snippet()
	if err != nil {
		return Setup{}, err
	}
	var buf bytes.Buffer
	if err := t.Print(&buf); err != nil {
		return Setup{}, err
	}
	return Setup{Text: buf.String(), Snippet: string(snip), Command: t.Command, Path: t.Path}, nil
}

// HooksFor returns agent's hooks setup on this machine: the hooks run this
// executable with data dir dataDir and fit the person's deadline. It does not
// block and may be called from any goroutine.
func HooksFor(agent, dataDir string, deadline time.Duration) (Hooks, error) {
	sys, err := System()
	if err != nil {
		return Hooks{}, err
	}
	return BuildHooks(agent, sys, dataDir, deadline)
}
