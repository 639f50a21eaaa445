package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/asktray/asktray/app/datadir"
)

// quitWait is how long `asktray quit` waits for the app to finish shutting
// down: it closes its listeners, marks pending questions interrupted and
// closes the history, and waits up to 5 s for control calls in progress.
const quitWait = 15 * time.Second

// cmdQuit asks the running app to shut down, as its tray's Quit does, and
// waits until it has removed its instance file (the last step of a clean
// shutdown but the lock) or its process is gone. It is how Windows, which
// has no SIGTERM for a GUI program, and scripts stop the app. It blocks up
// to quitWait.
func cmdQuit(ctx context.Context, args []string, stdio IO) error {
	f := newFlags("quit")
	if err := noArgs(f, args); err != nil {
		return err
	}
	c, dir, err := connect(f)
	if err != nil {
		return err
	}
	if err := c.Quit(ctx); err != nil {
		return err
	}
	clean, err := waitGone(ctx, dir, quitWait)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdio.Out, "Asktray quit.")
	if !clean {
		fmt.Fprintf(stdio.Err, "asktray: the app ended before it finished shutting down; see %s\n", filepath.Join(dir, datadir.LogDir, datadir.LogFile))
	}
	return nil
}

// waitGone waits until the app of data dir dir has removed its instance
// file (clean) or has ended without removing it: its single-instance lock
// is free, as after a crash. It then removes the stale instance file, the
// lock held for that moment so that no new start is writing one. It blocks
// up to wait, polling.
func waitGone(ctx context.Context, dir string, wait time.Duration) (clean bool, err error) {
	inst := filepath.Join(dir, datadir.InstanceFile)
	deadline := time.Now().Add(wait)
	for {
		if _, err := os.Stat(inst); errors.Is(err, os.ErrNotExist) {
			return true, nil
		}
		if lock, err := datadir.Lock(dir); err == nil {
			_, statErr := os.Stat(inst)
			_ = os.Remove(inst)
			lock.Close()
			return errors.Is(statErr, os.ErrNotExist), nil
		}
		if time.Now().After(deadline) {
			return false, fmt.Errorf("the app was asked to quit but %s is still there after %v", inst, wait)
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
