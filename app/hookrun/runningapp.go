package hookrun

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/asktray/asktray/app/datadir"
)

// RunningApp returns the check the hook makes of the process serving the
// control socket of data dir dir before it sends the agent's request or
// prints a decision (see hookclient.Transport): that process must be the
// one the instance file names, and run the executable appExe ("" means the
// hook's own: `asktray hook` is the app's binary; the hook-only binary
// passes the asktray beside it, AppBeside). Any same-user process could
// otherwise bind the socket path after the app quit (or delete the app's
// socket and bind a new one) and answer allow to every request. This
// raises the bar; it is no guarantee: a process of the same user may also
// rewrite the instance file, start the real binary with rules of its own,
// or replace the binary (docs/guarantees.md). It reads /proc (Linux) and
// does not block.
func RunningApp(dir, appExe string) func(pid int) error {
	return func(pid int) error {
		in, err := datadir.ReadInstance(dir)
		if err != nil {
			return err
		}
		if in.PID != pid {
			return fmt.Errorf("the socket is served by pid %d, and the instance file names pid %d", pid, in.PID)
		}
		return sameExecutable(pid, appExe)
	}
}

// AppBeside is the asktray executable in the directory of this process's
// own executable (asktray-hook is installed beside asktray).
func AppBeside() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find the hook's executable: %w", err)
	}
	name := "asktray"
	if strings.HasSuffix(strings.ToLower(self), ".exe") {
		name += ".exe"
	}
	return filepath.Join(filepath.Dir(self), name), nil
}

// sameExecutable returns nil when process pid runs the file exe ("" means
// this process's own executable), or the file that was at the same path
// when pid started it (a package upgrade replaces the binary under a
// running app). It reads /proc (Linux) and does not block.
func sameExecutable(pid int, exe string) error {
	peer := fmt.Sprintf("/proc/%d/exe", pid)
	if exe == "" {
		exe = "/proc/self/exe"
	}
	a, aerr := os.Stat(peer)
	b, berr := os.Stat(exe)
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
	ours, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return fmt.Errorf("compare executables: %w", err)
	}
	if strings.TrimSuffix(theirs, " (deleted)") == ours {
		return nil
	}
	return fmt.Errorf("pid %d runs %s, not %s", pid, theirs, ours)
}
