package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/remote"
)

// remoteSetupWait bounds 'asktray remote add' and rm's ssh calls.
const remoteSetupWait = time.Minute

// cmdRemote is 'asktray remote add|list|rm': the hosts whose agents ask
// this desktop over SSH (app/remote, docs/remote.md).
func cmdRemote(ctx context.Context, args []string, stdio IO) error {
	if len(args) == 0 {
		return usagef("usage: asktray remote add [user@]host[:port] | list [--json] | rm HOST")
	}
	switch args[0] {
	case "add":
		return remoteAdd(ctx, args[1:], stdio)
	case "list":
		return remoteList(ctx, args[1:], stdio)
	case "rm":
		return remoteRm(ctx, args[1:], stdio)
	}
	return usagef("unknown remote command %q (want add, list or rm)", args[0])
}

// remoteAdd sets the host up (remote.Add: a key, its channel over ssh,
// the hooks of the agents found there), says what it did and has the
// running app connect it.
func remoteAdd(ctx context.Context, args []string, stdio IO) error {
	f := newFlags("remote add")
	name, err := oneArg(f, args, "usage: asktray remote add [user@]host[:port]")
	if err != nil {
		return err
	}
	if _, err := remote.ParseName(name); err != nil {
		return usagef("%v", err)
	}
	c, dir, err := connect(f)
	if err != nil {
		return err
	}
	sctx, cancel := context.WithTimeout(ctx, remoteSetupWait)
	defer cancel()
	a, err := remote.Add(sctx, dir, os.Getenv("ASKTRAY_SSH_COMMAND"), name)
	if err != nil {
		if a.Host.Name != "" { // added; setting the hooks up failed
			fmt.Fprintln(stdio.Out, a.Report()[0])
		}
		return err
	}
	for _, line := range a.Report() {
		fmt.Fprintln(stdio.Out, line)
	}
	return syncApp(ctx, c, name, stdio)
}

// syncApp has the running app reread the hosts file, saying what became
// of host name.
func syncApp(ctx context.Context, c *control.Client, name string, stdio IO) error {
	states, err := c.SyncRemotes(ctx)
	if errors.Is(err, control.ErrNoApp) {
		fmt.Fprintln(stdio.Out, "The app is not running; it connects its hosts when it starts.")
		return nil
	}
	if err != nil {
		return err
	}
	// Say how the first connection went, when it is over within a while.
	deadline := time.Now().Add(remoteConnectWait)
	for {
		s, ok := stateOf(states, name)
		switch {
		case !ok:
			return fmt.Errorf("the app does not serve %s: see its log", name)
		case s.State == remote.Connected:
			fmt.Fprintf(stdio.Out, "The app is connected to %s.\n", name)
			return nil
		case s.State == remote.Down:
			fmt.Fprintf(stdio.Out, "The app could not connect to %s yet: %s\n", name, s.Error)
			return nil
		case time.Now().After(deadline):
			fmt.Fprintf(stdio.Out, "The app is still connecting to %s; 'asktray remote list' shows how it goes.\n", name)
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if states, err = c.Remotes(ctx); err != nil {
			return err
		}
	}
}

// remoteConnectWait is how long 'remote add' waits to say whether the app
// connected the host.
const remoteConnectWait = 15 * time.Second

// stateOf finds host name's state.
func stateOf(states []remote.State, name string) (remote.State, bool) {
	for _, s := range states {
		if s.Name == name {
			return s, true
		}
	}
	return remote.State{}, false
}

// remoteList shows each host and, when the app runs, its connection.
func remoteList(ctx context.Context, args []string, stdio IO) error {
	f := newFlags("remote list")
	asJSON := f.Bool("json", false, "JSON output")
	if err := noArgs(f, args); err != nil {
		return err
	}
	c, dir, err := connect(f)
	if err != nil {
		return err
	}
	hs, err := remote.Load(filepath.Join(dir, datadir.HostsFile))
	if err != nil {
		return err
	}
	states, err := c.Remotes(ctx)
	if err != nil && !errors.Is(err, control.ErrNoApp) {
		return err
	}
	byName := map[string]remote.State{}
	for _, s := range states {
		byName[s.Name] = s
	}
	out := make([]remote.State, 0, len(hs.Hosts))
	for _, h := range hs.Hosts {
		s, ok := byName[h.Name]
		if !ok {
			s = remote.State{Name: h.Name, State: "app not running"}
		}
		out = append(out, s)
	}
	if *asJSON {
		return json.NewEncoder(stdio.Out).Encode(out)
	}
	if len(out) == 0 {
		fmt.Fprintln(stdio.Out, "No remote hosts. Add one with 'asktray remote add [user@]host'.")
		return nil
	}
	tw := tabwriter.NewWriter(stdio.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "HOST\tSTATE\tSINCE\tLAST ERROR")
	now := time.Now()
	for _, s := range out {
		since := ""
		if !s.Since.IsZero() {
			since = ago(now, s.Since)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", oneLine(s.Name, 40), s.State, since, oneLine(s.Error, 80))
	}
	return tw.Flush()
}

// remoteRm revokes a host (remote.Remove): its key leaves the hosts file,
// the running app ends its connection at once, then the host's key file
// and sockets are removed over ssh when it can be reached.
func remoteRm(ctx context.Context, args []string, stdio IO) error {
	f := newFlags("remote rm")
	host, err := oneArg(f, args, "usage: asktray remote rm HOST")
	if err != nil {
		return err
	}
	c, dir, err := connect(f)
	if err != nil {
		return err
	}
	sctx, cancel := context.WithTimeout(ctx, remoteSetupWait)
	defer cancel()
	h, tidy, err := remote.Remove(sctx, dir, os.Getenv("ASKTRAY_SSH_COMMAND"), host, func() error {
		if _, err := c.SyncRemotes(ctx); err != nil && !errors.Is(err, control.ErrNoApp) {
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdio.Out, "Removed %s: its key is revoked and its connection ended.\n", h.Name)
	if tidy != nil {
		fmt.Fprintf(stdio.Err, "asktray: %v (the key is revoked here all the same)\n", tidy)
	}
	return nil
}
