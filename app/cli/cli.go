// Package cli parses asktray's command line and runs its commands: the app itself, and the person's commands that talk to a running app.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/autostart"
	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2
	ExitNoApp = 3
)

// Version is the app's version; the build may override it with -ldflags "-X".
var Version = "0.1.0-dev"

// IO is where a command reads and writes. In is read only by the hook
// command; nil means os.Stdin.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
	// Exit ends the process at once; the app calls it only when its UI
	// hangs after a quit (app.Options.Exit). nil means os.Exit.
	Exit func(code int)
}

// GUI runs the desktop UI; main passes the Fyne one, tests pass nil.
type GUI = func(ctx context.Context, env app.Env) error

// readyHook, when set (by tests), is called once a run serves.
var readyHook func(datadir.Instance, app.Env)

// usageTemplate is the usage; {{agents}} and {{agent|}} list the agents of
// app/hook's table (usage).
const usageTemplate = `Asktray lets AI agents ask you questions from a tray icon.

Usage:
  asktray [--data-dir DIR] [--addr HOST:PORT] [--headless] [--ask desktop|client|auto]   run the app
  asktray --background                                       run it quietly (start at login): tray only, exit 0 if running
  asktray pending [--json]                                   list pending questions
  asktray answer                                             go through the pending questions on your terminal
  asktray answer ID (--accept VALUE | --decline | --cancel) [--note TEXT]
  asktray snooze ID DURATION                                 e.g. 5m, 1h, tomorrow
  asktray history [--outcome O] [--client C] [--host H] [--kind K] [--search Q] [--limit N] [--json | --export json|csv]
  asktray away on|off|status                                 do not disturb: hold (or reject) new questions
  asktray rules [--json]                                     the standing allow/deny rules
  asktray rules rm ID                                        remove a rule
  asktray rules add --action A [--host H] [--decision D] …   add a rule (allow: your password)
  asktray url [--json]                                       the MCP URL and token
  asktray quit                                               shut the running app down (as its tray's Quit does)
  asktray config CLIENT [--write] [--stdio]                  set up an MCP client: claude-code, claude-desktop, cursor, vscode,
                                                             codex, windsurf, gemini-cli, zed, opencode or copilot-cli
  asktray config AGENT --hooks [--write] [--remove]          answer an agent's own permission prompts in the tray:
                                                             {{agents}} (docs/clients.md)
  asktray connect [AGENT]                                    the agents found on this machine; connect one (MCP entry and hooks)
  asktray doctor [--no-test] [--json]                        check every client's and agent's asktray entry, the app and
                                                             the agents' trust; a test request through each hook (exit 0: all fine)
  asktray remote add [user@]host[:port]                      let agents on that host (over SSH) or user ask this desktop
  asktray remote list [--json] | rm HOST                     the remote hosts and their connections; revoke one
  asktray stdio                                              MCP over stdin/stdout, bridged to the running app
  asktray hook {{agent|}} [--timeout S] [--event E]   an agent's permission hook (see docs/hooks.md)
  asktray version

Every command takes --data-dir DIR (default $ASKTRAY_DATA_DIR or the XDG data dir).
VALUE is JSON: '"yes"', '["a","b"]' or a form object such as '{"name":"Ada"}'.
Allowing an approval or a destructive yes, or removing a deny rule, asks for your login password on your terminal (/dev/tty).
Exit codes: 0 ok, 1 error, 2 usage, 3 no running app.
`

// usage is the usage text, listing the agents from app/hook's table.
var usage = strings.NewReplacer("{{agents}}", agentList(), "{{agent|}}", hook.Names("|")).Replace(usageTemplate)

// agentList is the agents' names as a sentence: "a, b or c".
func agentList() string {
	names := strings.Split(hook.Names(","), ",")
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// usageError is a mistake on the command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// Main runs the command in args (without the program name) and returns its exit code.
func Main(ctx context.Context, args []string, stdio IO, gui GUI) int {
	cmd := "run"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "run":
		err = runApp(ctx, args, stdio, gui)
	case "pending":
		err = cmdPending(ctx, args, stdio)
	case "answer":
		err = cmdAnswer(ctx, args, stdio)
	case "snooze":
		err = cmdSnooze(ctx, args, stdio)
	case "history":
		err = cmdHistory(ctx, args, stdio)
	case "away":
		err = cmdAway(ctx, args, stdio)
	case "rules":
		err = cmdRules(ctx, args, stdio)
	case "url":
		err = cmdURL(ctx, args, stdio)
	case "quit":
		err = cmdQuit(ctx, args, stdio)
	case "config":
		err = cmdConfig(ctx, args, stdio)
	case "connect":
		err = cmdConnect(ctx, args, stdio)
	case "stdio":
		err = cmdStdio(ctx, args, stdio)
	case "doctor":
		err = cmdDoctor(ctx, args, stdio)
	case "remote":
		err = cmdRemote(ctx, args, stdio)
	case "hook":
		cmdHook(ctx, args, stdio) // a hook always exits 0
		return ExitOK
	case "version":
		_, err = fmt.Fprintln(stdio.Out, "asktray", Version)
	case "help", "-h", "--help":
		fmt.Fprint(stdio.Out, usage)
	default:
		err = usagef("unknown command %q", cmd)
	}
	return exitCode(err, stdio)
}

func exitCode(err error, stdio IO) int {
	var ue *usageError
	var ae *control.APIError
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdio.Out, usage)
		return ExitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stdio.Err, "asktray: %v\nRun 'asktray help' for usage.\n", err)
		return ExitUsage
	case errors.Is(err, control.ErrNoApp):
		fmt.Fprintf(stdio.Err, "asktray: %v\nStart it with 'asktray' (or 'asktray --headless').\n", err)
		return ExitNoApp
	case errors.As(err, &ae):
		fmt.Fprintf(stdio.Err, "asktray: %s\n", ae.Message)
		return ExitError
	default:
		fmt.Fprintf(stdio.Err, "asktray: %v\n", err)
		return ExitError
	}
}

// flags is a FlagSet that also accepts flags after positional arguments.
type flags struct {
	*flag.FlagSet
	dataDir string
}

func newFlags(name string) *flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := &flags{FlagSet: fs}
	fs.StringVar(&f.dataDir, "data-dir", "", "data dir")
	return f
}

// parse parses args, with flags and positional arguments in any order, and
// returns the positional ones.
func (f *flags) parse(args []string) ([]string, error) {
	var pos []string
	for {
		if err := f.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usagef("%v", err)
		}
		args = f.Args()
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

func (f *flags) dir() (string, error) {
	if f.dataDir != "" {
		return absDir(f.dataDir)
	}
	return datadir.Default()
}

func absDir(d string) (string, error) {
	if strings.HasPrefix(d, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		d = home + d[1:]
	}
	return d, nil
}

func runApp(ctx context.Context, args []string, stdio IO, gui GUI) error {
	f := newFlags("asktray")
	addr := f.String("addr", "", "MCP listen address (default 127.0.0.1 and the port set in Settings, else "+app.DefaultAddr+")")
	headless := f.Bool("headless", false, "run without window, tray or notifications")
	ask := f.String("ask", "", "where questions go: desktop, client (the agent's own form) or auto; default: the ask_mode setting")
	background := f.Bool(strings.TrimPrefix(autostart.BackgroundFlag, "--"), false, "start quietly in the tray; exit 0 when the app already runs")
	nonLoopback := f.Bool("dangerously-listen-non-loopback", false, "allow --addr to name a non-loopback address")
	noAuth := f.Bool("test-only-no-auth", false, "turn off the MCP token check (conformance tests; loopback only)")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	if _, err := question.ParseAskMode(*ask); err != nil {
		return usagef("--ask: %v", err)
	}
	dir, err := f.dir()
	if err != nil {
		return err
	}
	if *nonLoopback {
		fmt.Fprintln(stdio.Err, "asktray: WARNING: listening beyond loopback; anyone who reaches this address with the token can ask you questions")
	}
	if *noAuth {
		fmt.Fprintln(stdio.Err, "asktray: WARNING: MCP token check is off (--test-only-no-auth); use this for conformance tests only")
	}
	var links io.Writer
	if isTerminal(stdio.Err) {
		links = stdio.Err // a link carries its question's key: for the person's eyes only
	}
	err = app.Run(ctx, app.Options{DataDir: dir, Addr: *addr, Headless: *headless, Ask: *ask, Version: Version, GUI: gui,
		AllowNonLoopback: *nonLoopback, NoAuth: *noAuth, Links: links, Exit: stdio.Exit,
		Ready: func(in datadir.Instance, env app.Env) {
			fmt.Fprintf(stdio.Err, "asktray %s: MCP at %s (data dir %s)\n", Version, in.URL, in.DataDir)
			if readyHook != nil {
				readyHook(in, env)
			}
		}})
	if _, ok := errors.AsType[*app.AlreadyRunningError](err); ok && *background {
		// A start at login (or a launcher) finds the app running: leave it be.
		fmt.Fprintf(stdio.Err, "asktray: %v; nothing to do\n", err)
		return nil
	} else if ok {
		// Without a tray host there is no icon to click: starting the app
		// again is how the person finds it, so show its window.
		sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if shown, serr := control.NewClient(filepath.Join(dir, datadir.SocketFile)).Show(sctx); serr == nil && shown {
			return fmt.Errorf("%w\nIts window is now shown. Use 'asktray url' to connect to it, or pass another --data-dir", err)
		}
		return fmt.Errorf("%w\nUse 'asktray url' to connect to it, or pass another --data-dir", err)
	}
	return err
}
