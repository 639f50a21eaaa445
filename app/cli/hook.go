package cli

import (
	"context"
	"os"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/hookrun"
)

// getppid, parentOf, parentPoll and hookProcs let tests stand in for the
// agent exiting and for the processes an agent's binding reads.
var (
	getppid    = os.Getppid
	parentOf   = procParent
	parentPoll = 200 * time.Millisecond
	hookProcs  = hook.SystemProcs
)

// cmdHook runs `asktray hook AGENT` (hookrun.Main, which the hook-only
// binary cmd/asktray-hook runs too): read the agent's payload on stdin, ask
// the running app, which must run this very executable, over the control
// socket, print the decision in the agent's format. Whatever goes wrong it
// prints nothing; it never allows or denies by itself. It blocks until the
// app answers, the wait ends, the agent exits, or for hook.Handshake when
// the app does not acknowledge the request.
func cmdHook(ctx context.Context, args []string, stdio IO) {
	hookrun.Main(ctx, args, hookrun.IO{In: stdio.In, Out: stdio.Out, Err: stdio.Err}, hookrun.Options{
		Dial: control.Dial, Getppid: getppid, ParentOf: parentOf, ParentPoll: parentPoll, Procs: hookProcs,
	})
}

// hookWait is how long the hook may wait for the person (hookrun.Wait).
func hookWait(timeoutSec int) time.Duration { return hookrun.Wait(timeoutSec) }

// procParent reads pid's parent from /proc (Linux); ok is false elsewhere
// or when pid is gone.
func procParent(pid int) (int, bool) { return hookrun.ProcParent(pid) }
