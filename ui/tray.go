package ui

import (
	"context"
	"fmt"
	"log"
	"os"
	"runtime"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
	"fyne.io/systray"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/app/remote"
	"github.com/asktray/asktray/app/settings"
	"github.com/asktray/asktray/assets"
	"github.com/asktray/asktray/ui/askdialog"
	"github.com/asktray/asktray/ui/historyview"
	"github.com/asktray/asktray/ui/internal/screen"
	"github.com/asktray/asktray/ui/internal/uitheme"
)

// AppID is the Fyne application ID; it matches FyneApp.toml.
const AppID = "app.asktray.desktop"

// Run shows the tray icon on a and runs Fyne's event loop until ctx is done or
// the person quits. It must be called on the main goroutine. main passes the
// real driver's app (fyneapp.NewWithID(AppID)); keeping that import out of
// this package lets its tests run on Fyne's test driver without cgo.
func Run(ctx context.Context, a fyne.App, env app.Env) error {
	log.SetOutput(newFyneLogFilter(log.Writer())) // another Asktray's quit is no error here
	if scale, source := screen.Apply(); source != "" && env.Log != nil {
		env.Log.Info("desktop scale", "scale", scale, "source", source)
	}
	a.SetIcon(assets.Icon)
	a.Settings().SetTheme(uitheme.New()) // text at WCAG AA contrast, a visible focus ring
	t := newTray(a, env)
	if runtime.GOOS != "darwin" && runtime.GOOS != "windows" {
		defer t.followColorScheme(a)() // the desktop's light or dark, read right and followed
	}
	dlg := askdialog.NewManager(a, env.Broker, askdialog.Options{
		Log: env.Log, ArmDelay: time.Duration(env.Settings.ArmDelayMS) * time.Millisecond,
		Policy: env.Policy, WebURL: env.WebURL, WebOpenFile: env.WebOpenFile, ReuseWindows: true,
	})
	t.open = dlg.Open
	t.history.OnOpenDialog = dlg.Open
	t.install()
	t.welcomeOnFirstRun()
	serveTrayClicks(func() { t.gate.do(t.showStatus) })
	if runtime.GOOS != "darwin" && runtime.GOOS != "windows" {
		// The tray icon is a StatusNotifierItem: without a tray host it
		// shows nowhere, and the person must be told how to reach the app.
		defer t.followTrayHost()()
	}
	if env.SetShow != nil {
		env.SetShow(func() { t.gate.do(t.showStatus) })
	}
	defer t.followRemoteHosts()()
	note := newNotifier(env.Log, func(id string) { t.gate.do(func() { dlg.Open(id) }) }, env.Settings.NotificationSound)
	if env.WebURL != nil {
		note.webURL = env.WebURL
		note.onBrowser = func(id string) { t.gate.do(func() { t.openPageOf(id) }) }
	}
	note.onRules = func(ids []string) { t.gate.do(func() { t.showRuleStop(ids) }) }
	note.start()
	defer note.close() // joins the notifier's worker
	if env.SetAlert != nil {
		env.SetAlert(note.queueAlert)
	}
	// One subscription keeps events in order for the dialogs, the tray and
	// the history; notifications are queued, in the same order, for the
	// notifier's worker goroutine, since a D-Bus call may take a moment.
	t.dialogs, t.note = dlg, note
	if err := t.setShortcut(env.Settings.GlobalShortcut); err != nil && env.Log != nil {
		env.Log.Warn("global shortcut", "err", err)
	}
	defer t.setShortcut("") //nolint:errcheck // letting go of a chord cannot fail
	stop := env.Broker.Subscribe(func(ev question.Event) { t.gate.do(func() { t.handle(ev) }) })
	defer stop()
	defer t.followPolicy()()
	if env.Policy != nil {
		// Read away again now that the subscription is in place: a change
		// made between newTray and followPolicy (asktray away on, as the app
		// starts) would otherwise be missed.
		t.away = env.Policy.Away()
		t.followAwayEnd() // an end kept from the last run, or the weekly schedule
	}
	if !t.away {
		dlg.Start()
		// Questions asked while the UI was starting (the MCP server is up
		// first) get their notification now.
		for _, q := range env.Broker.Pending() {
			switch {
			case !t.visible(q):
			case dlg.Queued(q.ID):
				note.queueShowQuiet(q)
			default:
				note.queueShow(q)
			}
		}
	}
	go func() {
		<-ctx.Done()
		t.gate.do(t.quitApp)
	}()
	defer recoverQuitting(&t.gate, env.Log)
	a.Run()
	return nil
}

// tray owns the tray menu and the status window. Its methods run on the Fyne goroutine.
type tray struct {
	app  fyne.App
	env  app.Env
	gate uiGate          // hands other goroutines' work to the Fyne goroutine until Quit
	open func(id string) // shows a question's dialog; nil until dialogs exist

	menu     *fyne.Menu
	status   *statusWindow // nil until first shown
	quit     fyne.Window
	history  *historyview.Window
	connect  *connectWindow
	welcome  *welcomeWindow
	settings *settingsWindow
	ruleStop *ruleStop // nil until a notification of rule decisions is clicked

	away    bool               // do not disturb, as last read from env.Policy
	dialogs *askdialog.Manager // nil in tests that need no dialogs
	note    *notifier          // nil in tests

	statusCount *widget.Label
	pending     []question.Question // what the menu shows
	hosts       []remote.State      // the remote hosts the menu shows (tray_remote.go)
	shownIcon   fyne.Resource       // the tray icon and tooltip last set
	shownTip    string
	menuKey     string    // what the menu was last built from, but the day's rule decisions
	menuCounts  string    // the day's rule decisions the menu was last built from
	menuBuilt   time.Time // when the menu was last built (t.clock)
	menuDue     bool      // a rebuild for the day's rule decisions is waiting (refreshEvent)
	menuBuilds  int       // how many times the menu was built (tests)
	recentRuled []string  // the latest rule decisions, newest first
	batch       ruledBatch
	day         ruledDay
	muted       int                         // rules muted or unmuted this run, so the menu is rebuilt
	clock       func() time.Time            // now, for the rule batches and the day (tray_ruledday.go)
	after       func(time.Duration, func()) // runs f on the Fyne goroutine after d

	// shortcut is the global key chord held (global_shortcut), "" for
	// none; releaseKey lets it go (shortcut.go); shortcutGen counts the
	// changes, so a portal's late answer for an older one is let go.
	shortcut    string
	releaseKey  func()
	shortcutGen int
	portalDone  func() // if set, runs after each portal binding's answer is taken (tests)

	// awayTimer fires when away ends by itself (Policy.AwayUntil) and runs
	// awayEnds; nil when away has no end. Tests replace awayEnds.
	awayTimer *time.Timer
	awayWait  time.Duration // what awayTimer was set to wait
	awayEnds  func()

	// The tray host (status.go): whether one was seen on the session bus,
	// whether it is there now, and whether the person was told there is none.
	hostKnown, hostPresent, toldNoHost bool
	hostGrace                          time.Duration // how long no host may last before telling
}

func newTray(a fyne.App, env app.Env) *tray {
	t := &tray{app: a, env: env, statusCount: widget.NewLabel(""), hostGrace: trayHostGrace, clock: time.Now}
	t.after = func(d time.Duration, f func()) { time.AfterFunc(d, func() { t.gate.do(f) }) }
	if env.Policy != nil {
		t.away = env.Policy.Away()
	}
	t.history = historyview.New(a, env.Store, env.Log)
	t.connect = newConnectWindow(a, env.DataDir, envEndpoint(env))
	t.connect.notice = brokerNotice(env)
	t.connect.setRemote(envRemote(env))
	t.welcome = newWelcomeWindow(a, t.connect)
	t.settings = newSettingsWindow(a, env, t.settingsApplied)
	t.settings.endpointChanged = t.endpointChanged
	t.menu = fyne.NewMenu("Asktray")
	return t
}

// install puts the icon and menu in the system tray, where the app has one.
// Fyne starts the tray only if the menu is set before Run (fyne-io/fyne#5039).
func (t *tray) install() {
	if desk, ok := t.app.(desktop.App); ok {
		desk.SetSystemTrayMenu(t.menu)
	}
	t.refresh()
}

// refresh brings the menu, icon, tooltip and status window up to date with
// the broker, at once. It runs on the Fyne goroutine.
func (t *tray) refresh() { t.update(false) }

// refreshEvent is refresh for a broker event: when only the day's rule
// decisions changed what the menu shows and it was built less than
// menuEvery ago, the rebuild waits for the rest of that time (one timer for
// any number of decisions). A new, ended or snoozed question, away or a
// remote host still rebuilds it at once. It runs on the Fyne goroutine.
func (t *tray) refreshEvent() { t.update(true) }

func (t *tray) update(coalesce bool) {
	t.pending = t.env.Broker.Pending()
	n, notices := present.Waiting(t.pending)
	// Rebuild the menu only when what it shows changed: each rebuild gives
	// the items new D-Bus ids and makes the tray host fetch the layout again.
	var key strings.Builder
	t.hosts = t.remoteHostStates()
	fmt.Fprint(&key, t.away, t.muted, hostsKey(t.hosts))
	for _, q := range t.pending {
		fmt.Fprintf(&key, "\x00%s\x00%s\x00%s", q.ID, q.SnoozeUntil, q.DeliverTo)
	}
	k, counts := key.String(), fmt.Sprint(t.recentRuled, t.day.date, t.day.allowed, t.day.denied, t.day.blocked)
	rebuild := t.rebuildNow(k, counts, coalesce)
	if rebuild {
		t.menuKey, t.menuCounts, t.menuBuilt = k, counts, t.clock()
		t.menu.Items = t.menuItems()
		t.menuBuilds++
	}
	t.statusCount.SetText(present.WaitingLabel(n, notices))
	if desk, ok := t.app.(desktop.App); ok {
		icon := t.icon(n)
		tip := t.tooltip(n, notices)
		// Every broker event lands here (an agent starting or ending a wait
		// is one); the icon and tooltip go over D-Bus, so only on change.
		if icon != t.shownIcon || tip != t.shownTip {
			t.shownIcon, t.shownTip = icon, tip
			desk.SetSystemTrayIcon(icon)
			// Fyne has no tooltip API; its tray is fyne.io/systray's one
			// global tray (the desktop driver sets up no other), so setting the
			// tooltip there works.
			systray.SetTooltip(tip)
		}
	}
	if rebuild {
		t.menu.Refresh()
		t.refreshStatus()
	}
}

// icon is the tray icon with n questions pending: the count, or the away
// icon. Notices do not count: one alone leaves the icon idle.
func (t *tray) icon(n int) fyne.Resource {
	if t.away {
		return assets.TrayAway
	}
	return assets.TrayPendingCount(n)
}

// handle brings the UI up to date with one broker event. It runs on the
// Fyne goroutine, so that every part sees events in the broker's order.
func (t *tray) handle(ev question.Event) {
	// Away holds new questions silently: no dialog, no notification; the
	// tray lists them until the person is back.
	// A question open in the agent's own form (MCP elicitation) is held the
	// same way until it comes back (EventResurfaced without DeliverTo).
	if t.env.Policy != nil && (ev.Type == question.EventAsked || ev.Type == question.EventResurfaced) {
		// The policy is the truth; its own change event may still be queued
		// behind this one.
		t.awayChanged(t.env.Policy.Away())
	}
	held := (ev.Type == question.EventAsked || ev.Type == question.EventResurfaced) && !t.visible(ev.Question)
	if t.dialogs != nil && !held {
		t.dialogs.Handle(ev)
	}
	if t.note != nil {
		switch {
		case ev.Type == question.EventAsked && !held && t.dialogs != nil && t.dialogs.Queued(ev.Question.ID):
			// It waits behind an open dialog: tell, do not interrupt.
			t.note.queueShowQuiet(ev.Question)
		case ev.Type == question.EventAsked && !held:
			t.note.queueShow(ev.Question)
		case ev.Type == question.EventEnded:
			t.note.queueDismiss(ev.Question.ID)
		}
	}
	if ev.Type == question.EventEnded {
		t.ruled(ev)
		t.countDay(ev)
	}
	t.refreshEvent()
	t.history.Handle(ev)
}

// visible reports whether pending question q is before the person now
// (policy.Policy.Visible, with the away the tray last read). Runs on the
// Fyne goroutine.
func (t *tray) visible(q question.Question) bool {
	if t.away && t.env.Policy == nil {
		return false // without a policy (tests) the tray alone is away
	}
	return t.env.Policy.Visible(q, time.Now())
}

// settingsApplied takes the UI's part of newly saved settings; the error
// says what of it did not take (a shortcut another program holds). Runs on
// the Fyne goroutine.
func (t *tray) settingsApplied(s settings.Settings) error {
	if t.note != nil {
		t.note.sound.Store(s.NotificationSound)
	}
	if t.dialogs != nil {
		t.dialogs.SetArmDelay(time.Duration(s.ArmDelayMS) * time.Millisecond)
	}
	if err := t.setShortcut(s.GlobalShortcut); err != nil {
		return fmt.Errorf("the shortcut %s does not work: %w", s.GlobalShortcut, err)
	}
	return nil
}

// url returns the MCP URL as it is now.
func (t *tray) url() string {
	u, _ := envEndpoint(t.env)()
	return u
}

// endpointChanged shows a moved MCP URL or a new token wherever the UI
// shows them. Runs on the Fyne goroutine.
func (t *tray) endpointChanged() {
	t.connect.refresh()
	if t.status != nil {
		t.status.url.SetText(t.url())
	}
}

// questionLabel is "<client>: <what it asks>", the question named by
// present.LineName: "claude-code: npm test in ~/src/shop".
func questionLabel(q question.Question) string {
	return present.Who(&q) + ": " + present.LineName(&q, userHome, 48)
}

// quitApp ends Fyne's loop, and with it Run. From now on nothing from
// another goroutine reaches the UI (uiGate), and a second start of the app
// is told the window cannot be shown. Runs on the Fyne goroutine.
func (t *tray) quitApp() {
	if t.env.SetShow != nil {
		t.env.SetShow(nil)
	}
	t.gate.stop()
	t.app.Quit()
}

// userHome is the person's home directory, shown as ~ in the menu's and
// the status window's lines; "" when it is not known.
var userHome, _ = os.UserHomeDir()

// confirmQuit quits at once when no question is pending (notices only
// tell: they end with the app unasked); otherwise it asks first, since
// quitting ends every pending question as interrupted.
func (t *tray) confirmQuit() {
	n, _ := present.Waiting(t.env.Broker.Pending())
	if n == 0 {
		t.quitApp()
		return
	}
	if t.quit != nil {
		t.quit.Show()
		t.quit.RequestFocus()
		return
	}
	w := t.app.NewWindow("Quit Asktray?")
	msg := widget.NewLabel(fmt.Sprintf("%s still waiting. If you quit, the agents are told they were interrupted.", present.CountNoun(n, "question")))
	msg.Wrapping = fyne.TextWrapWord
	stay := widget.NewButton("Keep running", func() { w.Close() })
	stay.Importance = widget.HighImportance
	quit := widget.NewButton("Quit", t.quitApp)
	quit.Importance = widget.DangerImportance
	w.SetContent(container.NewVBox(msg, container.NewHBox(layout.NewSpacer(), quit, stay)))
	w.SetOnClosed(func() { t.quit = nil })
	w.Resize(fyne.NewSize(420, 0))
	w.CenterOnScreen()
	t.quit = w
	w.Show()
	w.RequestFocus()
}
