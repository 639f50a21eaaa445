package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/hookservice"
	"github.com/asktray/asktray/app/personcheck"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/remote"
	"github.com/asktray/asktray/app/settings"
	"github.com/asktray/asktray/app/webask"
)

// closers is the stack of shutdown steps: each part of the app pushes how
// to close it once it is open, and run closes them in reverse, so that
// what was opened last (the listeners) stops first and what everything
// else uses (the history, the log, the lock) closes last. Not safe for
// concurrent use: Run alone pushes and runs it.
type closers []func()

// push adds fn to be run before everything pushed earlier.
func (c *closers) push(fn func()) { *c = append(*c, fn) }

// run calls the closers in reverse order of push, once; it blocks until
// each returns.
func (c *closers) run() {
	for _, fn := range slices.Backward(*c) {
		fn()
	}
	*c = nil
}

// Run starts the app and blocks until ctx is done or the person quits, then
// shuts down in order: the listeners stop taking calls, pending questions
// become interrupted, the history is closed. Call it from the main goroutine:
// the desktop UI must run there.
func Run(ctx context.Context, o Options) (err error) {
	if o.DataDir == "" {
		return errors.New("no data dir given")
	}
	askFlag, err := o.askFlag()
	if err != nil {
		return err
	}
	// The control socket's quit cancels ctx, as the tray's Quit ends the UI.
	ctx, quit := context.WithCancel(ctx)
	defer quit()
	var down closers
	var shutdown sync.Once // down runs once: here, or from watch when the UI hangs
	defer func() { shutdown.Do(down.run) }()
	log, err := openDataDir(o, &down)
	if err != nil {
		return err
	}
	down.push(func() {
		if err != nil {
			log.Error("stopped with error", "err", err)
		} else {
			log.Info("stopped")
		}
	})
	watch := watchShutdown(ctx, log, shutdownGrace, func() {
		shutdown.Do(down.run)
		o.exit(0)
	})
	down.push(watch.done)
	c, err := openCore(ctx, o, log, askFlag, &down)
	if err != nil {
		return err
	}
	s, err := startServers(o, c, quit, &down)
	if err != nil {
		return err
	}
	err = s.serve(ctx, o, c, watch)
	quit() // the tray's Quit returns without ctx done: start watch's clock
	return err
}

// openDataDir creates the data dir, takes its single-instance lock and
// opens its log, pushing their closers on down.
func openDataDir(o Options, down *closers) (*slog.Logger, error) {
	if err := datadir.Ensure(o.DataDir); err != nil {
		return nil, err
	}
	lock, err := acquire(o.DataDir)
	if err != nil {
		return nil, err
	}
	down.push(func() { lock.Close() })
	logf, log, err := openLog(o.DataDir)
	if err != nil {
		return nil, err
	}
	down.push(func() { logf.Close() })
	log.Info("starting", "version", o.Version, "pid", os.Getpid(), "data_dir", o.DataDir)
	return log, nil
}

// core is what the app opens before it serves anything: the token, the
// history, the settings and rules, and the broker with its question pages.
type core struct {
	log      *slog.Logger
	token    string
	store    *history.SQLite
	settings settings.Settings
	policy   *policy.Policy
	gui      bool
	keeper   *settingsKeeper
	broker   *question.Broker
	web      *webask.Server
	person   *personcheck.Checker
	alert    atomic.Pointer[func(title, body string)] // the UI's, once it registered (Env.SetAlert)
}

// passwordAlert passes a lock after wrong passwords on to the UI, which
// tells the person. It runs on a goroutine of its own (personcheck's).
func (c *core) passwordAlert(a personcheck.Alert) {
	title, body := a.Text()
	c.log.Warn("wrong passwords locked approving outside the dialog", "failures", a.Failures, "locked_for", a.LockedFor)
	if fn := c.alert.Load(); fn != nil {
		(*fn)(title, body)
	}
}

// openCore opens the core and pushes its closers on down.
func openCore(ctx context.Context, o Options, log *slog.Logger, askFlag question.AskMode, down *closers) (*core, error) {
	c := &core{log: log, gui: o.desktopUI()}
	if _, missing := displayStatus(runtime.GOOS, os.Getenv); missing != "" && o.GUI != nil && !o.Headless {
		log.Warn("no windows: " + missing)
		fmt.Fprintf(os.Stderr, "asktray: %s.\n", missing)
	}
	var err error
	if c.token, err = datadir.LoadOrCreateToken(o.DataDir); err != nil {
		return nil, err
	}
	var aside string
	if c.store, aside, err = openStore(ctx, o.DataDir, log); err != nil {
		return nil, err
	}
	down.push(func() { c.store.Close() })
	if c.settings, err = settings.Load(o.DataDir); err != nil {
		return nil, err
	}
	if c.policy, err = policy.Open(filepath.Join(o.DataDir, policy.File)); err != nil {
		return nil, err
	}
	c.policy.SetAwayMode(c.settings.AwayMode)
	c.policy.SetAwaySchedule(c.settings.Schedule())
	c.keeper = &settingsKeeper{dir: o.DataDir, store: c.store, log: log, ctx: ctx, cur: c.settings, policy: c.policy,
		login: loginStarter(o), loginOn: c.settings.StartAtLogin, askFlag: askFlag, desktop: c.gui}
	c.keeper.retain(c.settings.HistoryRetentionDays)
	down.push(c.keeper.stop)
	c.broker = question.NewBroker(question.Config{Journal: c.store, Gate: c.policy.Gate})
	down.push(func() {
		if cerr := c.broker.Close(); cerr != nil {
			log.Error("close broker", "err", cerr)
		}
	})
	down.push(c.broker.Subscribe(logEvents(log)))
	if aside != "" {
		tellSetAside(ctx, c.broker, aside, log)
	}
	c.person = personcheck.New(personcheck.System(), c.keeper.passwordGrace, log)
	c.person.SetAlert(c.passwordAlert)
	c.web = webask.New(webask.Config{Broker: c.broker, Log: log, ArmDelay: time.Duration(c.settings.ArmDelayMS) * time.Millisecond,
		Links: linkPrinter(o.Links, c.gui), Person: c.person, Grace: c.keeper.passwordGrace, Dir: o.DataDir})
	down.push(c.web.Close)
	return c, nil
}

// servers is what the app serves on: the MCP endpoint (with the question
// pages) and the control socket, and what it wrote to the instance file.
type servers struct {
	mcp  *mcpEndpoint
	inst datadir.Instance
	ask  string // the ask mode of this run
	show atomic.Pointer[func()]
	// hosts keeps the remote hosts' connections (app/remote).
	hosts *remote.Manager
}

// startServers starts the MCP endpoint and the control socket, writes the
// instance file, and pushes their closers on down. quit ends the app; the
// control socket's quit calls it.
func startServers(o Options, c *core, quit func(), down *closers) (*servers, error) {
	// The settings reach the bridge as a change would (keeper.bridgeConfig):
	// the --ask flag wins over the ask_mode setting for this run.
	cfg := c.keeper.bridgeConfig(c.settings)
	cfg.Broker, cfg.Version, cfg.Log = c.broker, o.Version, c.log
	mcp, bridge, err := startMCP(o, c.settings, cfg, c.token, c.web)
	if err != nil {
		return nil, err
	}
	down.push(mcp.stop)
	c.keeper.bridge, c.keeper.mcp, c.keeper.web = bridge, mcp, c.web
	url := mcp.URL()
	s := &servers{mcp: mcp, ask: string(cfg.AskMode), inst: datadir.Instance{
		PID: os.Getpid(), Version: o.Version, URL: url, Addr: addrOf(url),
		Socket: filepath.Join(o.DataDir, datadir.SocketFile), DataDir: o.DataDir,
		Started: time.Now().UTC().Format(time.RFC3339), GUI: c.gui,
	}}
	hooks := &hookservice.Service{Broker: c.broker, Policy: c.policy, Settings: c.keeper.hookSettings, Log: c.log}
	ctl := &control.Server{Broker: c.broker, Store: c.store, Policy: c.policy, Hooks: hooks, Person: c.person, Log: c.log, URL: c.web.URL, Show: s.showUI, Quit: quit, Status: func() control.Status {
		return control.Status{PID: s.inst.PID, Version: s.inst.Version, URL: mcp.URL(), DataDir: s.inst.DataDir, GUI: s.inst.GUI}
	}}
	hosts := &remote.Manager{DataDir: o.DataDir, Asker: hooks, SSHCommand: os.Getenv("ASKTRAY_SSH_COMMAND"), Log: c.log}
	ctl.Remotes, s.hosts = hosts, hosts
	if err := ctl.Listen(s.inst.Socket); err != nil {
		return nil, err
	}
	s.inst.Socket = ctl.Addr() // the pipe's name on Windows
	down.push(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = ctl.Shutdown(sctx)
	})
	// The instance file first: a hook checks that the socket's server is
	// the pid it names, and steps aside until it does.
	if err := datadir.WriteInstance(o.DataDir, s.inst); err != nil {
		return nil, fmt.Errorf("write instance file: %w", err)
	}
	down.push(func() { os.Remove(filepath.Join(o.DataDir, datadir.InstanceFile)) })
	if err := hosts.Start(context.Background()); err != nil {
		c.log.Error("remote hosts", "err", err)
	}
	down.push(hosts.Close)
	mcp.setOnMove(func(url string) {
		c.web.SetAddr(addrOf(url)) // question page links follow the port
		in := s.inst
		in.URL, in.Addr = url, addrOf(url)
		if err := datadir.WriteInstance(o.DataDir, in); err != nil {
			c.log.Error("write instance file", "err", err)
		}
	})
	return s, nil
}

// remoteAdmin gives env the UI's ways to follow, add and remove remote
// hosts, as the CLI adds and removes them.
func (s *servers) remoteAdmin(env *Env, dataDir string) {
	env.OnRemoteHostsChange = s.hosts.OnChange
	env.AddRemoteHost = func(ctx context.Context, name string) (remote.Added, error) {
		ctx, cancel := context.WithTimeout(ctx, remoteSetupWait)
		defer cancel()
		a, err := remote.Add(ctx, dataDir, os.Getenv("ASKTRAY_SSH_COMMAND"), name)
		if a.Host.Name != "" {
			if serr := s.hosts.Sync(); serr != nil && err == nil {
				err = serr
			}
		}
		return a, err
	}
	env.RemoveRemoteHost = func(ctx context.Context, name string) (remote.Host, error, error) {
		ctx, cancel := context.WithTimeout(ctx, remoteSetupWait)
		defer cancel()
		return remote.Remove(ctx, dataDir, os.Getenv("ASKTRAY_SSH_COMMAND"), name, s.hosts.Sync)
	}
}

// remoteSetupWait bounds the ssh calls of adding or removing a remote host
// from the UI, as the CLI bounds its own.
const remoteSetupWait = time.Minute

// showUI brings the UI's window to the front, if the UI registered how. It
// runs on a control-socket goroutine.
func (s *servers) showUI() bool {
	if f := s.show.Load(); f != nil && *f != nil {
		(*f)()
		return true
	}
	return false
}

// serve hands the app to the UI, or waits for ctx when headless. It blocks
// until ctx is done or the person quits.
func (s *servers) serve(ctx context.Context, o Options, c *core, watch *shutdownWatch) error {
	url := s.inst.URL
	c.log.Info("serving", "url", url, "socket", s.inst.Socket, "gui", c.gui, "ask", s.ask)
	env := Env{SetShow: func(fn func()) { s.show.Store(&fn) }, SetAlert: func(fn func(title, body string)) { c.alert.Store(&fn) }, ApplySettings: c.keeper.apply, Settings: c.settings, Broker: c.broker, Store: c.store,
		Policy: c.policy, DataDir: o.DataDir, Log: c.log, WebURL: c.web.URL, WebOpenFile: c.web.OpenFile,
		Endpoint:        func() (string, string) { return s.mcp.URL(), s.mcp.currentToken() },
		RegenerateToken: s.mcp.regenerate,
		RemoteHosts:     s.hosts.States,
	}
	if remote.Supported {
		s.remoteAdmin(&env, o.DataDir)
	}
	if o.Ready != nil {
		o.Ready(s.inst, env)
	}
	if c.gui {
		watch.inGUI.Store(true)
		defer watch.inGUI.Store(false)
		return o.GUI(ctx, env)
	}
	<-ctx.Done()
	return nil
}
