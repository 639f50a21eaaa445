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
// shutdown but the lock). It is how Windows, which has no SIGTERM for a
// GUI program, and scripts stop the app. It blocks up to quitWait.
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
	inst := filepath.Join(dir, datadir.InstanceFile)
	deadline := time.Now().Add(quitWait)
	for {
		if _, err := os.Stat(inst); errors.Is(err, os.ErrNotExist) {
			fmt.Fprintln(stdio.Out, "Asktray quit.")
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the app was asked to quit but %s is still there after %v", inst, quitWait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
