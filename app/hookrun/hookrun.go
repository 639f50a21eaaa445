// Package hookrun is the process an agent starts for each hook call:
// `asktray hook AGENT` and the hook-only binary (cmd/asktray-hook) both run
// Main. It reads the agent's payload on stdin, asks the running app over
// the control socket (app/hookclient) and prints the decision in the
// agent's format. It imports little (the standard library, app/hook,
// app/hookclient, app/datadir, app/procfs), because Claude Code starts it
// for every tool call.
package hookrun

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/hookclient"
	"github.com/asktray/asktray/app/procfs"
)

// IO is the hook's standard streams.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
}

// Options say how the hook reaches the app and let tests stand in for the
// agent exiting and for the processes an agent's binding reads. Dial is
// required; the other fields, left zero, take the defaults named beside
// them.
type Options struct {
	// Dial connects to the control socket at path (hookclient.Dial on unix).
	Dial func(ctx context.Context, path string) (net.Conn, error)
	// AppExe is the executable the running app must run (see RunningApp);
	// "" means this process's own executable.
	AppExe     string
	Getppid    func() int                // os.Getppid
	ParentOf   func(pid int) (int, bool) // ProcParent
	ParentPoll time.Duration             // 200 ms
	Procs      hook.Procs                // hook.SystemProcs
}

func (o Options) withDefaults() Options {
	if o.Getppid == nil {
		o.Getppid = os.Getppid
	}
	if o.ParentOf == nil {
		o.ParentOf = ProcParent
	}
	if o.ParentPoll <= 0 {
		o.ParentPoll = 200 * time.Millisecond
	}
	if o.Procs == nil {
		o.Procs = hook.SystemProcs
	}
	return o
}

// Main runs `asktray hook AGENT [flags]` with args after "hook": read the
// agent's payload on stdin, ask the running app over the control socket
// (or, on a remote host, the desktop's app over the host's channel, see
// RemoteChannel), print the decision in the agent's format. Whatever goes wrong (no app, an
// error, a timeout) it prints nothing, so that the agent asks in its own
// prompt, or, where the agent's mode would run the call unasked (Gemini
// CLI in yolo mode), the answer that opens that prompt (hook.StepAside);
// it never allows or denies by itself. Malformed input or a bad
// command line costs one line on stderr. It blocks until the app answers,
// the wait ends, the agent (the parent process) exits, or for
// hook.Handshake when the app does not acknowledge the request (a stopped
// or stuck app).
func Main(ctx context.Context, args []string, stdio IO, o Options) {
	o = o.withDefaults()
	p, dir, wait, err := parseCall(args, stdio.In)
	if err != nil {
		fmt.Fprintf(stdio.Err, "asktray hook: %v\n", err)
		return
	}
	sock := filepath.Join(dir, datadir.SocketFile)
	var check func(int) error
	if hookclient.ServerPIDs {
		check = RunningApp(dir, o.AppExe)
	}
	ch, err := RemoteChannel(dir)
	if err != nil {
		fmt.Fprintf(stdio.Err, "asktray hook: %v; stepping aside\n", err)
		_, _ = stdio.Out.Write(hook.StepAside(p))
		return
	}
	if ch.Key != "" {
		sock, check = ch.Socket, SSHServes
	}
	dial := func(ctx context.Context) (net.Conn, error) { return o.Dial(ctx, sock) }
	if sp, _ := hook.Lookup(p.Agent); sp.Mode != nil && p.PermissionMode == "" {
		p.PermissionMode = sp.Mode(ancestorArgv(o.Getppid(), 4, o))
	}
	out, ok := ask(ctx, hookclient.CheckedDial(dial, check), sock, ch.Key, p, wait, stdio, o)
	if !ok {
		out = hook.StepAside(p)
	}
	_, _ = stdio.Out.Write(out)
}

// ancestorArgv is the command lines of pid and up to n-1 of its ancestors,
// nearest first, for an agent whose payload names no permission mode
// (hook.Spec.Mode). It blocks on reading /proc only.
func ancestorArgv(pid, n int, o Options) [][]string {
	var out [][]string
	for i := 0; pid > 1 && i < n; i++ {
		if p, ok := o.Procs.Read(pid); ok {
			out = append(out, p.Argv)
		}
		next, ok := o.ParentOf(pid)
		if !ok {
			break
		}
		pid = next
	}
	return out
}

// parseCall reads the command line and the payload: the first JSON value
// on in. It returns the payload, the data dir and how long to wait.
func parseCall(args []string, in io.Reader) (hook.Payload, string, time.Duration, error) {
	fs := flag.NewFlagSet("hook", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dataDir := fs.String("data-dir", "", "data dir")
	timeoutSec := fs.Int("timeout", 0, "the agent's timeout for this hook, in seconds")
	event := fs.String("event", "", "the hook event, for payloads that do not name it (Copilot CLI)")
	pos, err := parseInterleaved(fs, args)
	if err == nil && len(pos) != 1 {
		err = fmt.Errorf("usage: asktray hook %s [--timeout S] [--event E]", hook.Names("|"))
	}
	var agent hook.Agent
	if err == nil {
		agent, err = hook.ParseAgent(pos[0])
	}
	if err != nil {
		return hook.Payload{}, "", 0, err
	}
	if in == nil {
		in = os.Stdin
	}
	// The first JSON value is the payload: an agent that leaves stdin open
	// does not keep the hook waiting.
	var data json.RawMessage
	if err := json.NewDecoder(io.LimitReader(in, hook.MaxPayload)).Decode(&data); err != nil {
		return hook.Payload{}, "", 0, fmt.Errorf("stdin: not one JSON object of at most %d MiB: %w", hook.MaxPayload>>20, err)
	}
	p, err := hook.Parse(agent, *event, data)
	if err != nil {
		return hook.Payload{}, "", 0, err
	}
	dir, err := dataDirOf(*dataDir)
	if err != nil {
		return hook.Payload{}, "", 0, fmt.Errorf("data dir: %w; the agent asks in its own prompt", err)
	}
	return p, dir, Wait(*timeoutSec), nil
}

// parseInterleaved parses args, with flags and positional arguments in any
// order, and returns the positional ones ("--" ends the flags).
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// dataDirOf is the data dir --data-dir names (~/ for the home dir), or the
// default one.
func dataDirOf(d string) (string, error) {
	if d == "" {
		return datadir.Default()
	}
	if strings.HasPrefix(d, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		d = home + d[1:]
	}
	return d, nil
}

// Wait is how long the hook may wait for the person: the agent's timeout
// for it less hook.Margin, at least a second. Without --timeout the agent's
// timeout is the one 'asktray config AGENT --hooks' writes
// (hook.InstalledTimeout); the app holds the wait to the person's deadline.
func Wait(timeoutSec int) time.Duration {
	t := time.Duration(hook.InstalledTimeout()) * time.Second
	if timeoutSec > 0 {
		t = time.Duration(timeoutSec) * time.Second
	}
	return max(t-hook.Margin, time.Second)
}

// ask sends p to the app over a connection from dial, with key when it is
// not "" (a remote host's), and returns what to print. It gives
// up, printing nothing, when the app does not acknowledge the request within
// hook.Handshake (a stopped or stuck app), after wait (plus a second for the
// app's own answer) or when the parent process exits. When the socket is
// served by something other than the running app, or the app does not
// acknowledge, it says so in one line on stdio's Err and prints nothing.
func ask(ctx context.Context, dial hookclient.Dialer, sock, key string, p hook.Payload, wait time.Duration, stdio IO, o Options) ([]byte, bool) {
	ctx, cancel := context.WithTimeout(ctx, wait+time.Second)
	req := hook.Request{Payload: p, WaitMS: wait.Milliseconds(), SentMS: time.Now().UnixMilli()}
	var b hook.Binding
	if sp, _ := hook.Lookup(p.Agent); sp.Bind != nil && p.Event == hook.PermissionRequest {
		b = sp.Bind(p, o.Getppid(), o.Procs)
	}
	req.Detached = b.Detached
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		watchParent(ctx, cancel, b.Watch, o)
	}()
	defer func() {
		cancel()
		<-watched
	}()
	rep, err := hookclient.CallKeyed(ctx, dial, sock, key, req)
	if errors.Is(err, hookclient.ErrWrongServer) || errors.Is(err, hookclient.ErrNoAck) {
		fmt.Fprintf(stdio.Err, "asktray hook: %v; stepping aside\n", err)
	}
	if err != nil {
		return nil, false
	}
	out := hook.Format(p, rep)
	return out, len(out) > 0
}

// watchParent calls cancel when the agent exits: the hook's parent, or the
// parent's parent when the agent ran the hook through a shell that stayed,
// is gone and its child re-parented; or, when the agent's binding has a
// watch (hook.Spec.Bind: the Codex terminal UI that asks), that turns
// false, while the hook's parent (Codex's app server) would wait on. Nobody
// waits for the answer then. It returns when ctx ends.
func watchParent(ctx context.Context, cancel func(), watch func() bool, o Options) {
	parent := o.Getppid()
	grand, haveGrand := o.ParentOf(parent)
	t := time.NewTicker(o.ParentPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if o.Getppid() != parent {
				cancel()
				return
			}
			if g, ok := o.ParentOf(parent); haveGrand && (!ok || g != grand) {
				cancel()
				return
			}
			if watch != nil && !watch() {
				cancel()
				return
			}
		}
	}
}

// ProcParent reads pid's parent from /proc (Linux); ok is false elsewhere
// or when pid is gone.
func ProcParent(pid int) (int, bool) {
	st, err := procfs.ReadStat(pid)
	return st.PPID, err == nil
}
