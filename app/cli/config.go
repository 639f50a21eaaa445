package cli

// 'asktray config CLIENT' prints, or with --write merges into the client's own
// config file, the setup that connects an MCP client to Asktray; package
// clientsetup knows the clients and their files.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/asktray/asktray/app/clientsetup"
	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/settings"
)

// configSystem returns the machine's clientsetup.Sys; tests replace it to pin
// the OS, the home dir, the environment and the executable.
var configSystem = clientsetup.System

// configTarget returns the absolute data directory f names and the
// machine's clientsetup.Sys, which config and connect write against. It
// does not block.
func configTarget(f *flags) (string, clientsetup.Sys, error) {
	dir, err := f.dir()
	if err != nil {
		return "", clientsetup.Sys{}, err
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return "", clientsetup.Sys{}, fmt.Errorf("data directory: %w", err)
	}
	sys, err := configSystem()
	return dir, sys, err
}

// configServer finds the MCP URL and token for data dir dir; tests replace it.
var configServer = lookupServer

// lookupServer asks the app running on dir for its URL and reads its token.
// With no app running it falls back to the address of the mcp_port setting
// (or the default) and the token in dir (made if missing), so that a client can be set up before the first start.
func lookupServer(ctx context.Context, dir string) (clientsetup.Server, error) {
	c := control.NewClient(filepath.Join(dir, datadir.SocketFile))
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	st, err := c.Status(sctx)
	if err == nil {
		tok, err := os.ReadFile(filepath.Join(dir, datadir.TokenFile))
		if err != nil {
			return clientsetup.Server{}, fmt.Errorf("read token: %w", err)
		}
		return clientsetup.Server{URL: st.URL, Token: strings.TrimSpace(string(tok)), Running: true}, nil
	}
	if !errors.Is(err, control.ErrNoApp) {
		return clientsetup.Server{}, err
	}
	if err := datadir.Ensure(dir); err != nil {
		return clientsetup.Server{}, err
	}
	tok, err := datadir.LoadOrCreateToken(dir)
	if err != nil {
		return clientsetup.Server{}, err
	}
	set, err := settings.Load(dir)
	if err != nil {
		return clientsetup.Server{}, err
	}
	return clientsetup.Server{URL: "http://" + set.MCPAddr() + "/mcp", Token: tok}, nil
}

func cmdConfig(ctx context.Context, args []string, stdio IO) error {
	f := newFlags("config")
	write := f.Bool("write", false, "merge the setup into the client's config file")
	useStdio := f.Bool("stdio", false, "use 'asktray stdio' even where the client takes HTTP")
	hooks := f.Bool("hooks", false, "set up the agent's hooks instead of its MCP server")
	remove := f.Bool("remove", false, "with --hooks: take the hooks out of the agent's file")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if *hooks || *remove {
		return cmdConfigHooks(pos, f, *write, *remove, *hooks, stdio)
	}
	names := strings.Join(clientsetup.Clients(), ", ")
	switch {
	case len(pos) == 0:
		return usagef("config takes a client: %s", names)
	case len(pos) > 1:
		return usagef("config takes one client, got %q", pos)
	}
	client := pos[0]
	if !slices.Contains(clientsetup.Clients(), client) {
		return usagef("unknown client %q; pick one of: %s", client, names)
	}
	dir, sys, err := configTarget(f)
	if err != nil {
		return err
	}
	useHTTP := !*useStdio && clientsetup.UsesHTTP(client)
	var srv clientsetup.Server
	if useHTTP {
		if srv, err = configServer(ctx, dir); err != nil {
			return err
		}
		if !srv.Running {
			fmt.Fprintf(stdio.Err, "asktray: no app is running for %s, so this uses %s (the mcp_port setting, or the default port) and the token in %s;\n"+
				"start Asktray without --addr for it to match.\n", dir, srv.URL, filepath.Join(dir, datadir.TokenFile))
		}
	}
	t, err := clientsetup.Build(client, sys, dir, srv, useHTTP)
	if err != nil {
		return err
	}
	if *write {
		return t.Write(stdio.Out)
	}
	return t.Print(stdio.Out)
}

// cmdConfigHooks is 'asktray config AGENT --hooks [--write] [--remove]'.
func cmdConfigHooks(pos []string, f *flags, write, remove, hooks bool, stdio IO) error {
	names := strings.Join(clientsetup.HookAgents(), ", ")
	switch {
	case !hooks:
		return usagef("--remove goes with --hooks: asktray config AGENT --hooks --remove")
	case len(pos) != 1:
		return usagef("config --hooks takes one agent: %s", names)
	case !slices.Contains(clientsetup.HookAgents(), pos[0]):
		return usagef("%q has no hooks asktray can answer; pick one of: %s", pos[0], names)
	}
	dir, sys, err := configTarget(f)
	if err != nil {
		return err
	}
	h, err := clientsetup.BuildHooks(pos[0], sys, dir, personDeadline(dir))
	if err != nil {
		return err
	}
	switch {
	case remove:
		return h.Remove(stdio.Out)
	case write:
		return h.Write(stdio.Out)
	}
	return h.Print(stdio.Out)
}

// personDeadline is the person's question deadline: the
// default_timeout_seconds setting of dir, or the default.
func personDeadline(dir string) time.Duration {
	if set, err := settings.Load(dir); err == nil && set.DefaultTimeoutSeconds > 0 {
		return question.TimeoutSeconds(int64(set.DefaultTimeoutSeconds))
	}
	return question.DefaultTimeout
}
