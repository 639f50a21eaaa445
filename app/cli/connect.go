package cli

// 'asktray connect' lists the agents and MCP clients found on this machine
// and what of their setup is there; 'asktray connect AGENT' writes its MCP
// entry and installs its hooks at once, as the first-run window's Connect
// does (clientsetup.Connect, below both).

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/asktray/asktray/app/clientsetup"
)

func cmdConnect(ctx context.Context, args []string, stdio IO) error {
	f := newFlags("connect")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("connect takes at most one agent, got %q", pos)
	}
	dir, sys, err := configTarget(f)
	if err != nil {
		return err
	}
	agents := clientsetup.Detect(sys)
	if len(pos) == 0 {
		return listAgents(stdio, agents, sys, dir)
	}
	if !slices.ContainsFunc(agents, func(a clientsetup.Agent) bool { return a.Name == pos[0] }) {
		var names []string
		for _, a := range agents {
			names = append(names, a.Name)
		}
		return usagef("unknown agent %q; pick one of: %s", pos[0], strings.Join(names, ", "))
	}
	srv, err := configServer(ctx, dir)
	if err != nil {
		return err
	}
	if !srv.Running {
		fmt.Fprintf(stdio.Err, "asktray: no app is running for %s, so the MCP entry uses %s (the mcp_port setting, or the default port).\n", dir, srv.URL)
	}
	return clientsetup.Connect(pos[0], sys, dir, srv, personDeadline(dir), stdio.Out)
}

// listAgents prints every agent and client: whether it was found on this
// machine and what of its setup is there.
func listAgents(stdio IO, agents []clientsetup.Agent, sys clientsetup.Sys, dir string) error {
	tw := tabwriter.NewWriter(stdio.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tFOUND\tCONNECTED")
	for _, a := range agents {
		found := a.Found
		if found == "" {
			found = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", a.Name, found, connectedWords(a.Name, sys, dir))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(stdio.Out, "'asktray connect AGENT' writes its MCP entry and installs its hooks.")
	return err
}

// connectedWords says what of agent's setup its files hold: "yes", "MCP
// only", "hooks only", "2 of 7 hooks", "no", or why it cannot tell.
func connectedWords(agent string, sys clientsetup.Sys, dir string) string {
	c, err := clientsetup.Connected(agent, sys, dir)
	switch {
	case err != nil:
		return "cannot tell: " + err.Error()
	case c.Done():
		return "yes"
	case c.Hooks > 0 && c.Hooks < c.HooksWant:
		return fmt.Sprintf("%d of %d hooks", c.Hooks, c.HooksWant)
	case c.MCP:
		return "MCP only"
	case c.Hooks > 0:
		return "hooks only"
	}
	return "no"
}
