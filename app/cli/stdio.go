package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/mcpbridge/stdioproxy"
)

// stdin is where cmdStdio reads the client's messages; tests may replace it.
var stdin io.Reader = os.Stdin

// How cmdStdio starts an app when none runs; tests may change them.
var (
	extraStartArgs []string // appended to "--data-dir DIR"
	startTimeout   = 15 * time.Second
)

const startPoll = 50 * time.Millisecond

// cmdStdio runs 'asktray stdio [--data-dir DIR] [--verbose]': it speaks MCP on
// stdin and stdout and bridges every message to the MCP endpoint of the data
// dir's running app, starting the app in the background when none answers.
// It blocks until stdin ends or ctx is done. Only MCP messages go to
// stdio.Out; the log goes to stdio.Err.
func cmdStdio(ctx context.Context, args []string, stdio IO) error {
	f := newFlags("stdio")
	verbose := f.Bool("verbose", false, "log at info level")
	if err := noArgs(f, args); err != nil {
		return err
	}
	dir, err := f.dir()
	if err != nil {
		return err
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(stdio.Err, &slog.HandlerOptions{Level: level})).With("cmd", "asktray stdio")
	st, err := findOrStartApp(ctx, dir, log)
	if err != nil {
		return err
	}
	tok, err := os.ReadFile(filepath.Join(dir, datadir.TokenFile))
	if err != nil {
		return fmt.Errorf("read token: %w", err)
	}
	log.Info("bridging stdio to the app", "url", st.URL, "pid", st.PID, "data_dir", dir)
	p := &stdioproxy.Proxy{URL: st.URL, Token: strings.TrimSpace(string(tok)), Log: log}
	return p.Run(ctx, stdin, stdio.Out)
}

// findOrStartApp returns the status of the app of dir. When none answers, it
// starts one in the background and waits up to startTimeout for it. Another
// process may start one at the same moment; whichever wins, the one that
// serves is found.
func findOrStartApp(ctx context.Context, dir string, log *slog.Logger) (control.Status, error) {
	c := control.NewClient(filepath.Join(dir, datadir.SocketFile))
	st, err := c.Status(ctx)
	if err == nil {
		return st, nil
	}
	if !errors.Is(err, control.ErrNoApp) {
		return st, fmt.Errorf("ask the app for its status: %w", err)
	}
	exited, err := launchApp(dir)
	if err != nil {
		return st, fmt.Errorf("start the app: %w", err)
	}
	log.Info("no app was running; started one", "data_dir", dir)
	deadline := time.Now().Add(startTimeout)
	tick := time.NewTicker(startPoll)
	defer tick.Stop()
	var exitErr error
	for {
		st, err = c.Status(ctx)
		if err == nil {
			return st, nil
		}
		select {
		case exitErr = <-exited: // lost a race with another start, or failed: keep asking
			exited = nil
		default:
		}
		if time.Now().After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			return st, ctx.Err()
		case <-tick.C:
		}
	}
	msg := fmt.Sprintf("started the app for data dir %s, but it did not answer within %s (%v)", dir, startTimeout, err)
	if exitErr != nil {
		msg += fmt.Sprintf("; it exited: %v", exitErr)
	}
	// Not wrapping control.ErrNoApp on purpose: this is exit code 1, not 3.
	return st, errors.New(msg + "; see " + filepath.Join(dir, datadir.LogDir, datadir.LogFile))
}

// launchApp starts this executable as the app of dir, detached from this
// process, its terminal and its stdio (a nil Stdin, Stdout and Stderr is
// os.DevNull), with this process's environment. It does not block; the
// channel yields the app's exit, if it ends while this process runs.
func launchApp(dir string) (<-chan error, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find own executable: %w", err)
	}
	args := append([]string{"--data-dir", dir}, extraStartArgs...)
	cmd := exec.Command(exe, args...) //nolint:gosec // runs this very binary
	stdioproxy.Detach(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("run %s: %w", exe, err)
	}
	exited := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		if err == nil {
			err = errors.New("exit status 0")
		}
		exited <- err
	}()
	return exited, nil
}
