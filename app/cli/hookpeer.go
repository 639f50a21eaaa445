package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
)

// runningApp returns the check the hook makes of the process serving the
// control socket of data dir dir before it sends the agent's request or
// prints a decision (see control.NewCheckedClient): that process must be the
// one the instance file names, and run the same executable as the hook
// itself. Any same-user process could otherwise bind the socket path after
// the app quit (or delete the app's socket and bind a new one) and answer
// allow to every request. This raises the bar; it is no guarantee: a
// process of the same user may also rewrite the instance file, start the
// real binary with rules of its own, or replace the binary
// (docs/guarantees.md). It returns nil (no check) where the kernel does
// not name the serving process.
func runningApp(dir string) func(pid int) error {
	if !control.ServerPIDs {
		return nil
	}
	return func(pid int) error {
		in, err := datadir.ReadInstance(dir)
		if err != nil {
			return err
		}
		if in.PID != pid {
			return fmt.Errorf("the socket is served by pid %d, and the instance file names pid %d", pid, in.PID)
		}
		return sameExecutable(pid)
	}
}

// sameExecutable returns nil when process pid runs the file this process
// runs, or the file that was at the same path when pid started it (a
// package upgrade replaces the binary under a running app). It reads
// /proc (Linux) and does not block.
func sameExecutable(pid int) error {
	peer := fmt.Sprintf("/proc/%d/exe", pid)
	a, aerr := os.Stat(peer)
	b, berr := os.Stat("/proc/self/exe")
	if err := errors.Join(aerr, berr); err != nil {
		return fmt.Errorf("compare executables: %w", err)
	}
	if os.SameFile(a, b) {
		return nil
	}
	theirs, err := os.Readlink(peer)
	if err != nil {
		return fmt.Errorf("compare executables: %w", err)
	}
	ours, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return fmt.Errorf("compare executables: %w", err)
	}
	if strings.TrimSuffix(theirs, " (deleted)") == ours {
		return nil
	}
	return fmt.Errorf("pid %d runs %s, not %s", pid, theirs, ours)
}
