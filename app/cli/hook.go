package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/procfs"
)

// getppid, parentOf, parentPoll and hookProcs let tests stand in for the
// agent exiting and for the processes an agent's binding reads.
var (
	getppid    = os.Getppid
	parentOf   = procParent
	parentPoll = 200 * time.Millisecond
	hookProcs  = hook.SystemProcs
)

// cmdHook runs `asktray hook AGENT`: read the agent's payload on stdin, ask
// the running app over the control socket, print the decision in the
// agent's format. Whatever goes wrong (no app, an error, a timeout) it
// prints nothing, so that the agent asks in its own prompt; it never allows
// or denies by itself. Malformed input or a bad command line costs one line
// on stderr. It blocks until the app answers, the wait ends, the agent (the
// parent process) exits, or for hook.Handshake when the app does not
// acknowledge the request (a stopped or stuck app).
func cmdHook(ctx context.Context, args []string, stdio IO) {
	f := newFlags("hook")
	timeoutSec := f.Int("timeout", 0, "the agent's timeout for this hook, in seconds")
	event := f.String("event", "", "the hook event, for payloads that do not name it (Copilot CLI)")
	pos, err := f.parse(args)
	if err == nil && len(pos) != 1 {
		err = fmt.Errorf("usage: asktray hook %s [--timeout S] [--event E]", hook.Names("|"))
	}
	var agent hook.Agent
	if err == nil {
		agent, err = hook.ParseAgent(pos[0])
	}
	if err != nil {
		fmt.Fprintf(stdio.Err, "asktray hook: %v\n", err)
		return
	}
	in := stdio.In
	if in == nil {
		in = os.Stdin
	}
	// The first JSON value is the payload: an agent that leaves stdin open
	// does not keep the hook waiting.
	var data json.RawMessage
	if err := json.NewDecoder(io.LimitReader(in, hook.MaxPayload)).Decode(&data); err != nil {
		fmt.Fprintf(stdio.Err, "asktray hook: stdin: not one JSON object of at most %d MiB: %v\n", hook.MaxPayload>>20, err)
		return
	}
	p, err := hook.Parse(agent, *event, data)
	if err != nil {
		fmt.Fprintf(stdio.Err, "asktray hook: %v\n", err)
		return
	}
	dir, err := f.dir()
	if err != nil {
		fmt.Fprintf(stdio.Err, "asktray hook: data dir: %v; the agent asks in its own prompt\n", err)
		return
	}
	out, ok := askHook(ctx, control.NewCheckedClient(filepath.Join(dir, datadir.SocketFile), runningApp(dir)), p, hookWait(*timeoutSec), stdio)
	if ok {
		_, _ = stdio.Out.Write(out)
	}
}

// hookWait is how long the hook may wait for the person: the agent's
// timeout for it less hook.Margin, at least a second. Without --timeout the
// agent's timeout is the one 'asktray config AGENT --hooks' writes
// (hook.InstalledTimeout); the app holds the wait to the person's deadline.
func hookWait(timeoutSec int) time.Duration {
	t := time.Duration(hook.InstalledTimeout()) * time.Second
	if timeoutSec > 0 {
		t = time.Duration(timeoutSec) * time.Second
	}
	return max(t-hook.Margin, time.Second)
}

// askHook sends p to the app through c and returns what to print. It gives
// up, printing nothing, when the app does not acknowledge the request within
// hook.Handshake (a stopped or stuck app), after wait (plus a second for the
// app's own answer) or when the parent process exits. When the socket is
// served by something other than the running app, or the app does not
// acknowledge, it says so in one line on stdio's Err and prints nothing.
func askHook(ctx context.Context, c *control.Client, p hook.Payload, wait time.Duration, stdio IO) ([]byte, bool) {
	ctx, cancel := context.WithTimeout(ctx, wait+time.Second)
	req := hook.Request{Payload: p, WaitMS: wait.Milliseconds()}
	var b hook.Binding
	if sp, _ := hook.Lookup(p.Agent); sp.Bind != nil && p.Event == hook.PermissionRequest {
		b = sp.Bind(p, getppid(), hookProcs)
	}
	req.Detached = b.Detached
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		watchParent(ctx, cancel, b.Watch)
	}()
	defer func() {
		cancel()
		<-watched
	}()
	rep, err := c.Hook(ctx, req)
	if errors.Is(err, control.ErrWrongServer) || errors.Is(err, control.ErrNoAck) {
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
func watchParent(ctx context.Context, cancel func(), watch func() bool) {
	parent := getppid()
	grand, haveGrand := parentOf(parent)
	t := time.NewTicker(parentPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if getppid() != parent {
				cancel()
				return
			}
			if g, ok := parentOf(parent); haveGrand && (!ok || g != grand) {
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

// procParent reads pid's parent from /proc (Linux); ok is false elsewhere or
// when pid is gone.
func procParent(pid int) (int, bool) {
	st, err := procfs.ReadStat(pid)
	return st.PPID, err == nil
}
