package askdialog

import (
	"io"
	"log/slog"
	"os"
	"slices"
	"time"

	"fyne.io/fyne/v2"

	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// Manager owns the dialogs of the pending questions and shows one at a
// time: a question asked while a dialog is open (shown and unanswered)
// never takes the screen or the keyboard from it; it waits in the queue,
// which the open dialog names ("1 of 3  ·  next: cursor — …", with Next to
// go there), and approvals and destructive confirms wait first
// (present.QueueOrder). When the open dialog is answered, withdrawn or
// snoozed, the next one opens; with nothing open a new question opens at
// once. Open (the tray menu, a notification's click, Next) shows the
// question asked for and puts the open one back in the queue.
// Notices never open a dialog by themselves (the tray notifies them); Open
// shows one. It runs the one shared 1 Hz ticker that updates the open
// dialog's time-left line (stopped while none is visible, so an idle app
// adds no timer wakeups to the GLFW loop's own, fyne-io/fyne#2506). All its
// methods, Handle included, run on the Fyne goroutine: the tray wraps
// broker callbacks in fyne.Do.
type Manager struct {
	dialogShared

	byID        map[string]*questionDialog
	current     *questionDialog     // the open dialog, or nil
	waiting     []question.Question // the queue, in present.QueueOrder
	quitting    bool                // the app is closing the windows: open no more
	stopTick    func()
	stopRelease func() // cancels the pending releaseMemory, if any
}

// Options are a Manager's settings.
type Options struct {
	Log      *slog.Logger  // nil: discard
	ArmDelay time.Duration // question.ClampArmDelay holds it
	// Policy is where an approval's "Always…" adds rules; nil offers none.
	Policy *policy.Policy
	// WebURL gives a question's page link, or ""; nil offers no Browser button.
	WebURL func(id string) string
	// WebOpenFile writes a question's forwarding file, which "Open in
	// browser" opens (webask.Server.OpenFile); nil opens nothing.
	WebOpenFile func(id string) (string, error)
	// ReuseWindows keeps closed dialogs' windows hidden for the next
	// question (ASKTRAY_WINDOW_POOL of them, 2 by default; docs/benchmarks.md).
	ReuseWindows bool
}

// NewManager returns a manager for b's questions on a. It must be called on
// the Fyne goroutine (or on the main goroutine before a.Run); subscribe to
// the broker, then call Start to open the questions already pending.
func NewManager(a fyne.App, b *question.Broker, opts Options) *Manager {
	m := newDialogs(a, b, opts.Log, opts.ArmDelay)
	m.policy, m.webURL, m.webOpen = opts.Policy, opts.WebURL, opts.WebOpenFile
	if opts.ReuseWindows {
		m.windows = newWindowPool(windowPoolSize())
	}
	m.room = screenRoom
	return m
}

// newDialogs returns a manager for b's questions on a, with no policy, no
// page links and no window reuse (see NewManager). log may be nil.
func newDialogs(a fyne.App, b *question.Broker, log *slog.Logger, armDelay time.Duration) *Manager {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Manager{
		dialogShared: dialogShared{
			app: a, broker: b, log: log.With("component", "dialogs"),
			armDelay: question.ClampArmDelay(armDelay), clock: realClock(),
			home: homeDir(),
		},
		byID: map[string]*questionDialog{},
	}
}

// dialogShared is what the manager gives every dialog it makes. It is set up
// before the first dialog opens and read on the Fyne goroutine.
type dialogShared struct {
	app      fyne.App
	broker   *question.Broker
	log      *slog.Logger
	armDelay time.Duration // held by question.ClampArmDelay
	clock    clock
	policy   *policy.Policy                  // where approval dialogs add rules; nil: none
	webURL   func(id string) string          // a question's page link, or ""; nil offers none
	webOpen  func(id string) (string, error) // writes a question's forwarding file; nil opens none
	windows  *windowPool                     // closed dialogs' windows, for reuse; nil: none
	home     string                          // the person's home directory, shown as ~; "" for none
	room     func() float32                  // the tallest a dialog window may be, in Fyne units; nil or 0: no limit
}

// sessionStart returns when q's session was first seen asking (the
// broker's Broker.SessionStart), or the zero time when q has no session.
func (s dialogShared) sessionStart(q question.Question) time.Time {
	return s.broker.SessionStart(q.Client)
}

// Start opens the first visible pending question's dialog
// (policy.Policy.Visible: not held while away, not snoozed, not open in the
// agent's own form) and queues the others: at start-up, and when the person
// comes back from away. Subscribe to the broker first, so no question falls
// between the two; one already open or queued is left alone. Runs on the
// Fyne goroutine.
func (m *Manager) Start() {
	now := m.clock.now()
	for _, q := range m.broker.Pending() {
		if m.policy.Visible(q, now) {
			m.arrive(q)
		}
	}
	m.syncQueue()
}

// Handle applies one broker event: a new or resurfaced question opens its
// dialog when none is open and otherwise joins the queue; a snooze hides
// it; an ended question closes it or leaves the queue. The caller decides
// once whether a new or resurfaced question is before the person
// (policy.Policy.Visible: not held while away, not snoozed, not open in
// the agent's own form) and holds back the events of those that are not;
// Handle does not ask again. Runs on the Fyne goroutine.
func (m *Manager) Handle(ev question.Event) {
	q := ev.Question
	d := m.byID[q.ID]
	switch ev.Type {
	case question.EventAsked, question.EventResurfaced:
		m.arrive(q) // the caller decided it is visible (see above)
	case question.EventSnoozed:
		m.unqueue(q.ID)
		if d != nil {
			d.update(q)
			d.hide()
		}
	case question.EventWaiters:
		if d != nil {
			d.setStopped(ev.Waiters == 0)
		}
	case question.EventEnded:
		m.unqueue(q.ID)
		if d != nil {
			d.close()
		}
	}
	m.syncQueue()
	m.syncTicker()
}

// Queued reports whether question id waits in the queue behind the open
// dialog, so that its notification can be a quiet one. Runs on the Fyne
// goroutine.
func (m *Manager) Queued(id string) bool {
	return slices.ContainsFunc(m.waiting, func(q question.Question) bool { return q.ID == id })
}

// Open shows and raises the dialog of pending question id (the tray
// menu's item for it, a notification's click, the open dialog's Next),
// even when it is snoozed or a notice; the dialog open until now goes back
// to the queue. Runs on the Fyne goroutine.
func (m *Manager) Open(id string) {
	defer m.syncTicker()
	if d, ok := m.byID[id]; ok && d == m.current {
		d.show(false)
		return
	}
	q, res, err := m.broker.Get(id)
	if err != nil || res != nil || q.State != question.StatePending {
		m.log.Info("not opening question", "id", id, "err", err)
		return
	}
	if c := m.current; c != nil && !c.done {
		m.current = nil
		c.hide()
		m.enqueue(c.q)
	}
	m.unqueue(id)
	m.show(q)
	m.syncQueue()
}

// homeDir is the person's home directory, or "" when it is not known.
func homeDir() string {
	h, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return h
}

// arrive takes visible question q: it refreshes q's own dialog when open,
// opens it when no dialog is, and otherwise queues it.
func (m *Manager) arrive(q question.Question) {
	if q.Kind == question.KindNotice {
		return // a notification, never a window of its own accord
	}
	switch c := m.current; {
	case c != nil && c.q.ID == q.ID:
		c.update(q)
		c.show(false)
	case c != nil && !c.done:
		m.enqueue(q)
	default:
		m.show(q)
	}
}

// enqueue puts q in the queue, in present.QueueOrder, replacing an older
// copy of it.
func (m *Manager) enqueue(q question.Question) {
	m.unqueue(q.ID)
	i, _ := slices.BinarySearchFunc(m.waiting, q, present.QueueOrder)
	m.waiting = slices.Insert(m.waiting, i, q)
}

// unqueue takes question id out of the queue, if it is there.
func (m *Manager) unqueue(id string) {
	m.waiting = slices.DeleteFunc(m.waiting, func(q question.Question) bool { return q.ID == id })
}

// syncQueue opens the next waiting question when no dialog is open, and
// tells the open dialog what waits behind it.
func (m *Manager) syncQueue() {
	for m.current == nil && len(m.waiting) > 0 && !m.quitting {
		next := m.waiting[0]
		m.waiting = m.waiting[1:]
		q, res, err := m.broker.Get(next.ID)
		if err != nil || res != nil || q.State != question.StatePending || !m.policy.Visible(q, m.clock.now()) {
			continue // ended, or snoozed, meanwhile
		}
		m.show(q)
	}
	if c := m.current; c != nil {
		var next *question.Question
		if len(m.waiting) > 0 {
			next = &m.waiting[0]
		}
		c.setQueue(len(m.waiting), next)
	}
}

// show shows q's dialog as the open one, making it when needed, centred.
func (m *Manager) show(q question.Question) {
	if d, ok := m.byID[q.ID]; ok {
		m.current = d
		d.update(q)
		d.show(true)
		return
	}
	start := time.Now()
	d, err := newQuestionDialog(m.dialogShared, q)
	if err != nil {
		m.log.Error("cannot show question", "id", q.ID, "kind", string(q.Kind), "err", err)
		return
	}
	m.byID[q.ID] = d
	m.scheduleRelease()
	d.onClosed = func(external bool) {
		if m.byID[q.ID] == d {
			delete(m.byID, q.ID)
		}
		if external {
			// Only quitting closes a dialog's window from outside (the close
			// button is intercepted): open nothing more.
			m.quitting, m.waiting = true, nil
		}
		m.dialogGone(d)
		m.syncTicker()
		m.scheduleRelease()
	}
	d.onShown = m.syncTicker
	d.onHidden = func() { m.dialogGone(d) }
	d.onNext = m.openNext
	m.current = d
	shown := time.Now()
	d.show(true)
	m.logShown(d, start, shown, time.Now())
}

// dialogGone is called when dialog d is hidden (snoozed) or closed: when
// it was the open one, the next waiting question opens.
func (m *Manager) dialogGone(d *questionDialog) {
	if m.current != d {
		return
	}
	m.current = nil
	m.syncQueue()
}

// openNext opens the first waiting question, putting the open one back in
// the queue (the open dialog's Next).
func (m *Manager) openNext() {
	if len(m.waiting) > 0 {
		m.Open(m.waiting[0].ID)
	}
}

// logShown logs where a new dialog's time to its first frame went: from
// the question's creation to the manager (queue: the broker's commit and the
// hop to the Fyne goroutine), building the content (widgets, Markdown),
// fitting it (text shaping and wrapping at the dialog's width), getting the
// window and setting it up, and Show (for a new window: the X window, GL
// context and painter; then the first paint). docs/benchmarks.md sums
// these up.
func (m *Manager) logShown(d *questionDialog, start, shown, end time.Time) {
	ms := func(t time.Duration) float64 { return float64(t.Microseconds()) / 1000 }
	m.log.Info("dialog shown", "id", d.q.ID, "kind", string(d.q.Kind), "reused_window", d.reused,
		"queue_ms", ms(start.Sub(d.q.Created)), "content_ms", ms(d.built.content), "fit_ms", ms(d.built.fit),
		"window_ms", ms(shown.Sub(start)-d.built.content-d.built.fit), "show_ms", ms(end.Sub(shown)))
}

// visible counts the dialogs on screen.
func (m *Manager) visible() int {
	n := 0
	for _, d := range m.byID {
		if d.visible {
			n++
		}
	}
	return n
}

// syncTicker runs the shared ticker exactly while some dialog is visible.
func (m *Manager) syncTicker() {
	switch on := m.visible() > 0; {
	case on && m.stopTick == nil:
		m.stopTick = m.clock.every(time.Second, m.tick)
	case !on && m.stopTick != nil:
		m.stopTick()
		m.stopTick = nil
	}
}

func (m *Manager) tick() {
	for _, d := range m.byID {
		if d.visible {
			d.tick()
		}
	}
}

// SetArmDelay sets the arming delay of the dialogs opened from now on,
// clamped like Options.ArmDelay. Runs on the Fyne goroutine.
func (m *Manager) SetArmDelay(d time.Duration) { m.armDelay = question.ClampArmDelay(d) }

// Has reports whether question id has a dialog (shown or snoozed). Runs on
// the Fyne goroutine.
func (m *Manager) Has(id string) bool {
	_, ok := m.byID[id]
	return ok
}

// Current is the question id of the open dialog, or "" when none is
// open. Runs on the Fyne goroutine.
func (m *Manager) Current() string {
	if c := m.current; c != nil && !c.done {
		return c.q.ID
	}
	return ""
}

// Idle reports whether no dialog exists and the shared ticker is stopped.
// Runs on the Fyne goroutine.
func (m *Manager) Idle() bool { return len(m.byID) == 0 && m.stopTick == nil }

// closeAll closes every dialog without answering and empties the queue,
// for shutdown. Runs on the Fyne goroutine.
func (m *Manager) closeAll() {
	m.waiting = nil
	for _, d := range m.byID {
		d.close()
	}
	m.syncTicker()
}
