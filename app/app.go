// Package app wires the question broker, the history store, the MCP listener, the control socket and the desktop UI together, and shuts them down in order.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/remote"
	"github.com/asktray/asktray/app/settings"
)

// DefaultAddr is where the MCP server listens unless --addr or the
// mcp_port setting say otherwise.
var DefaultAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(settings.DefaultPort))

// Options configure Run.
type Options struct {
	DataDir  string // required: where everything is kept
	Addr     string // host:port for the MCP listener; empty means the mcp_port setting's, else DefaultAddr
	Headless bool   // no window, tray or notification
	Version  string // the app's version, for status and logs

	// AllowNonLoopback lets Addr name a non-loopback address. Anyone who can
	// reach it and holds the token can ask the person questions.
	AllowNonLoopback bool
	// NoAuth turns off the MCP bearer token check, for the conformance
	// suite only; Host and Origin checks stay on and the address must be
	// loopback.
	NoAuth bool

	// Ask is where questions go for this run (the --ask flag): "desktop",
	// "client" or "auto"; empty means the ask_mode setting.
	Ask string

	// GUI runs the desktop UI on the calling goroutine until ctx is done or
	// the person quits; nil, Headless, or no display means headless.
	GUI func(ctx context.Context, env Env) error

	// Links, if set, is where a headless app prints the link of each new
	// question's page, which carries the question's key: the CLI passes its
	// stderr when that is a terminal, and nil otherwise. Links never go to
	// the log file.
	Links io.Writer

	// Exit, if set, ends the process with code and does not return; nil
	// means os.Exit. Run calls it only when the UI did not stop after a
	// quit (see shutdownWatch), once everything else has shut down; main
	// passes its own, which on Windows ends the process without running
	// the DLLs' detach code.
	Exit func(code int)

	// Ready, if set, is called once the app serves, with what it wrote to the
	// instance file and what the UI would get. Tests use it.
	Ready func(datadir.Instance, Env)
}

// Env is what the UI needs from the app.
type Env struct {
	// SetShow registers what a second start of the app does: bring the
	// UI's window to the front. fn is called on a control-socket goroutine;
	// nil (the UI stopping) says there is no window to show any more.
	SetShow func(fn func())
	// SetAlert registers how the UI tells the person that wrong login
	// passwords, given on terminals or question pages, locked approving
	// outside the dialog: someone may be guessing. fn is called on a
	// goroutine of its own with the title and body to show.
	SetAlert func(fn func(title, body string))
	// RemoteHosts says how each remote host's connection is ('asktray
	// remote list'); nil when the app serves none. Any goroutine may call it.
	RemoteHosts func() []remote.State
	// OnRemoteHostsChange registers fn, called on a goroutine of its own
	// whenever a remote host's connection changes state or a host is
	// added or removed (remote.Manager.OnChange); nil when the app serves
	// none.
	OnRemoteHostsChange func(fn func())
	// AddRemoteHost sets a host up as 'asktray remote add' does
	// (remote.Add) and has the app connect it; RemoveRemoteHost revokes one
	// as 'asktray remote rm' does (remote.Remove), returning the host-side
	// tidy-up's error apart. Both block on ssh for up to a minute: call
	// them off the Fyne goroutine. nil when the app serves no hosts.
	AddRemoteHost    func(ctx context.Context, name string) (remote.Added, error)
	RemoveRemoteHost func(ctx context.Context, name string) (h remote.Host, tidy, err error)
	// ApplySettings validates s, saves it to the data dir and applies it to
	// the MCP server and the history retention at once. It blocks for a
	// file write and may be called from any goroutine.
	ApplySettings func(s settings.Settings) error
	Settings      settings.Settings
	Broker        *question.Broker
	Store         history.Store
	// Policy holds the rules and away mode; its Gate decides questions
	// before the UI sees them (a decided question emits no EventAsked).
	Policy *policy.Policy
	// WebURL returns the link to a pending question's page for a browser,
	// or "" once it ended. It is for the person only, never for an agent.
	// It may be called from any goroutine.
	WebURL func(id string) string
	// WebOpenFile writes a 0600 file in the data dir that forwards a
	// browser to a pending question's page and returns its path
	// (webask.Server.OpenFile): the desktop opens that file, so the page's
	// key is never on a command line. It may be called from any goroutine.
	WebOpenFile func(id string) (string, error)
	DataDir     string
	Log         *slog.Logger
	// Endpoint returns the MCP URL and token as they are now: a new
	// mcp_port moves the server and RegenerateToken replaces the token. It
	// is the one way to them; any goroutine may call it.
	Endpoint func() (url, token string)
	// RegenerateToken writes a new random token (0600) and makes the MCP
	// server accept only it from the next request on; every configured
	// client must be set up again. It blocks for a file write; any
	// goroutine may call it.
	RegenerateToken func() (string, error)
}

// AlreadyRunningError reports that another app holds the data dir.
type AlreadyRunningError struct {
	DataDir  string
	Instance *datadir.Instance // nil when the instance file could not be read
}

func (e *AlreadyRunningError) Error() string {
	if e.Instance == nil {
		return fmt.Sprintf("another asktray is already running with data dir %s", e.DataDir)
	}
	return fmt.Sprintf("another asktray (pid %d) is already running with data dir %s; MCP at %s",
		e.Instance.PID, e.DataDir, e.Instance.URL)
}

// askFlag is o.Ask checked, or "" when not given (the setting decides).
func (o Options) askFlag() (question.AskMode, error) {
	if o.Ask == "" {
		return "", nil
	}
	m, err := question.ParseAskMode(o.Ask)
	if err != nil {
		return "", fmt.Errorf("--ask: %w", err)
	}
	return m, nil
}

// desktopUI reports whether this run shows the desktop UI.
func (o Options) desktopUI() bool {
	return o.GUI != nil && !o.Headless && displayAvailable()
}

// openStore opens the history and records questions an earlier run left
// pending as interrupted.
//
// A history file that is no database, or a damaged one (history.Unreadable),
// does not stop the app: it is moved aside whole (history.SetAside), a new
// history starts, and aside names where the old one is now, for the person
// to be told; aside is "" otherwise. Any other failure (busy, not permitted,
// a newer schema) stops the app with an error naming the file.
func openStore(ctx context.Context, dir string, log *slog.Logger) (store *history.SQLite, aside string, err error) {
	path := filepath.Join(dir, datadir.DatabaseFile)
	store, err = openHistory(ctx, path, log)
	if err == nil || !history.Unreadable(err) {
		return store, "", err
	}
	if aside, err = history.SetAside(path, time.Now()); err != nil {
		return nil, "", fmt.Errorf("the history cannot be read and %w; move it away yourself to start a new one", err)
	}
	log.Error("the history could not be read; it was moved aside and a new one started", "path", path, "moved_to", aside)
	store, err = openHistory(ctx, path, log)
	return store, aside, err
}

// tellSetAside tells the person, in a notice every front end shows (the
// dialog, the tray, asktray pending, the page), that the history could not
// be read, where the old file is now and how to get back what can be read.
// It does not wait for the notice to be read.
func tellSetAside(ctx context.Context, b *question.Broker, aside string, log *slog.Logger) {
	msg := "Asktray could not read its history file, so it moved the file aside and started a new history. " +
		"Nothing was deleted.\n\nThe old file is now `" + aside + "`.\n\n" +
		"To get back what can still be read, use SQLite's command-line tool: " +
		"`sqlite3 '" + aside + "' .recover | sqlite3 recovered.db`."
	q := question.Question{Kind: question.KindNotice, Client: question.Client{Name: "asktray"},
		Header: "History could not be read", Message: msg}
	if _, err := b.Ask(ctx, q); err != nil {
		log.Error("tell the person the history was moved aside", "err", err, "moved_to", aside)
	}
}

// openHistory opens the history at path and marks the questions the last
// run left pending interrupted.
func openHistory(ctx context.Context, path string, log *slog.Logger) (*history.SQLite, error) {
	store, err := history.Open(path)
	if err != nil {
		return nil, err
	}
	ids, err := store.InterruptPending(ctx, time.Now())
	if err != nil {
		store.Close()
		return nil, fmt.Errorf("mark questions of the last run interrupted in %s: %w", path, err)
	}
	if len(ids) > 0 {
		log.Warn("questions left pending by the last run are now interrupted", "count", len(ids))
	}
	return store, nil
}

// acquire takes the data dir's single-instance lock, or reports who holds it.
func acquire(dir string) (*os.File, error) {
	lock, err := datadir.Lock(dir)
	if errors.Is(err, datadir.ErrLocked) {
		are := &AlreadyRunningError{DataDir: dir}
		if in, rerr := datadir.ReadInstance(dir); rerr == nil {
			are.Instance = &in
		}
		return nil, are
	}
	return lock, err
}

// displayAvailable reports whether a desktop session is there to show windows in.
func displayAvailable() bool {
	ok, _ := displayStatus(runtime.GOOS, os.Getenv)
	return ok
}

// displayStatus reports whether a desktop session is there to show
// windows in on goos, with env as the environment, and when there is a
// desktop session the app cannot show windows in, what is missing. The
// desktop UI is an X11 program (Fyne's GLFW driver without the wayland
// tag; the native Wayland build lacks an app id, centring, a title bar on
// GNOME and RequestFocus), so on a Wayland session it needs XWayland: with
// WAYLAND_DISPLAY and no DISPLAY, GLFW could not start and the app
// panicked (NotInitialized, exit 2). It only computes.
func displayStatus(goos string, env func(string) string) (ok bool, missing string) {
	switch goos {
	case "darwin", "windows":
		return true, ""
	}
	if env("DISPLAY") != "" || (nativeWayland && env("WAYLAND_DISPLAY") != "") {
		return true, ""
	}
	if env("WAYLAND_DISPLAY") != "" {
		return false, "this Wayland session has no XWayland (DISPLAY is not set), which Asktray's tray, " +
			"dialogs and windows need; install XWayland (Debian and Ubuntu: xwayland; Fedora: " +
			"xorg-x11-server-Xwayland) or turn it on in your compositor, then start Asktray again. " +
			"Until then Asktray runs without windows: answer each question on its page in your browser " +
			"(its link is printed on a terminal) or with 'asktray answer'"
	}
	return false, ""
}

// openLog opens the log file in the data dir (0600, appended to).
func openLog(dir string) (*os.File, *slog.Logger, error) {
	ld := filepath.Join(dir, datadir.LogDir)
	if err := os.MkdirAll(ld, 0o700); err != nil {
		return nil, nil, fmt.Errorf("create log dir: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(ld, datadir.LogFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("open log file: %w", err)
	}
	return f, slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelInfo})), nil
}

// logEvents writes one log line per question event. Message text is left out:
// it may hold secrets, and the history keeps it.
func logEvents(log *slog.Logger) func(question.Event) {
	return func(e question.Event) {
		q := e.Question
		switch e.Type {
		case question.EventAsked:
			log.Info("question asked", "id", q.ID, "kind", q.Kind, "client", q.Client.Name, "deadline", q.Deadline)
		case question.EventEnded:
			log.Info("question ended", "id", q.ID, "outcome", e.Result.Outcome, "by", e.Result.DecidedBy, "reason", e.Result.Reason, "via", e.Result.Via, "rule", e.Result.RuleID)
		case question.EventSnoozed:
			log.Info("question snoozed", "id", q.ID, "until", q.SnoozeUntil)
		}
	}
}

// linkPrinter returns what prints the page link of each new question on w
// for a headless app, or nil.
func linkPrinter(w io.Writer, gui bool) func(id, url string) {
	if w == nil || gui {
		return nil
	}
	return func(id, url string) { fmt.Fprintf(w, "asktray: answer %s in a browser: %s\n", id, url) }
}

// exit ends the process through o.Exit, else os.Exit.
func (o Options) exit(code int) {
	if o.Exit != nil {
		o.Exit(code)
	}
	os.Exit(code)
}
