package ui

import (
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/esiqveland/notify"
	"github.com/gen2brain/beeep"
	"github.com/godbus/dbus/v5"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// notifier shows a desktop notification for each new question. On Linux and
// the BSDs it talks to org.freedesktop.Notifications itself, so that clicking
// the notification opens the question's dialog: beeep.Notify returns once
// the notification is sent and never reports the ActionInvoked signal of a
// click. Elsewhere, or without a session bus, it falls back to
// beeep.Notify. It never uses beeep.Alert or Beep: their last fallback writes
// a BEL byte to stdout. The UI queues its calls (queueShow, queueDismiss)
// for one worker goroutine that start runs and close joins (notify_queue.go).
// Its methods are safe for concurrent use.
type notifier struct {
	log    *slog.Logger
	onOpen func(id string) // runs on a D-Bus goroutine
	sound  atomic.Bool
	// webURL, when set, gives a question's page link; its notification
	// then offers "Open in browser", which calls onBrowser on a D-Bus
	// goroutine. Both are set before the first show.
	webURL    func(id string) string
	onBrowser func(id string)
	// onRules, when set, is called on a D-Bus goroutine with the rules
	// behind a clicked notification of rule decisions (ruledNote.rules).
	onRules func(ruleIDs []string)

	mu      sync.Mutex
	conn    *dbus.Conn
	dn      *busNotes // signals count only from the server that showed the notification
	byNote  map[uint32]string
	byQ     map[string]uint32
	byRules map[uint32][]string // the rules behind a shown notification of rule decisions
	warned  bool
	backend string

	// The queue of calls for the worker (notify_queue.go).
	qmu      sync.Mutex
	ops      []noteOp
	stopping bool
	wake     chan struct{} // a call was queued, or stop was called
	done     chan struct{} // closed when the worker has returned
}

// newNotifier connects to the session bus when there is one. onOpen is
// called, on a D-Bus goroutine, with the question id of a clicked notification.
func newNotifier(log *slog.Logger, onOpen func(id string), sound bool) *notifier {
	n := &notifier{log: log, onOpen: onOpen, byNote: map[uint32]string{}, byQ: map[string]uint32{}, byRules: map[uint32][]string{},
		backend: "beeep"}
	n.sound.Store(sound)
	beeep.AppName = "Asktray"
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		return n
	}
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		log.Info("no session bus; notifications go through beeep without click-to-open", "err", err)
		return n
	}
	dn, err := newBusNotes(conn, log, n.action, n.closed)
	if err != nil {
		conn.Close()
		log.Info("notification service unavailable; using beeep", "err", err)
		return n
	}
	n.conn, n.dn, n.backend = conn, dn, "dbus"
	return n
}

// action runs onBrowser or onOpen for a click on notification nid, with
// action key, or onRules for a click on a notification of rule decisions;
// busNotes calls it on its goroutine, for the server's signals only.
func (n *notifier) action(nid uint32, key string) {
	n.mu.Lock()
	id, rules := n.byNote[nid], n.byRules[nid]
	n.mu.Unlock()
	switch {
	case len(rules) > 0 && n.onRules != nil:
		n.onRules(rules)
	case id == "":
	case key == "browser" && n.onBrowser != nil:
		n.onBrowser(id)
	case n.onOpen != nil:
		n.onOpen(id)
	}
}

// closed forgets notification nid; busNotes calls it on its goroutine, for
// the server's signals only.
func (n *notifier) closed(nid uint32) {
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.byRules, nid)
	if id, ok := n.byNote[nid]; ok {
		delete(n.byNote, nid)
		delete(n.byQ, id)
	}
}

// noteText is the summary and body of the notification for q: who asks
// and what, in plain text (present.NoteText).
func noteText(q question.Question) (string, string) { return present.NoteText(&q) }

// soundFor names the freedesktop sound theme's sound a question's
// notification plays, one per kind of question, so that a person hears
// which it is: an approval that reads high risk or destructive
// "dialog-warning", any other approval "dialog-question", a question
// "message-new-instant". Any goroutine may call it.
func soundFor(q *question.Question) string {
	switch {
	case q.Kind != question.KindApproval:
		return "message-new-instant"
	case q.Risk == question.RiskHigh || q.Destructive:
		return "dialog-warning"
	}
	return "dialog-question"
}

// show notifies the person of q, quietly (low urgency, no sound) when quiet.
// It blocks for at most a few seconds (the D-Bus call's timeout) and may be
// called from any goroutine.
func (n *notifier) show(q question.Question, quiet bool) {
	title, body := noteText(q)
	n.mu.Lock()
	dn := n.dn
	n.mu.Unlock()
	var err error
	if dn != nil {
		note := notify.Notification{
			AppName: "Asktray", AppIcon: "dialog-question", Summary: title, Body: body,
			Actions:       []notify.Action{notify.NewDefaultAction("Open"), {Key: "open", Label: "Open"}},
			ExpireTimeout: notify.ExpireTimeoutSetByNotificationServer,
		}
		if n.webURL != nil && n.webURL(q.ID) != "" {
			note.Actions = append(note.Actions, notify.Action{Key: "browser", Label: "Open in browser"})
		}
		urgency := notify.UrgencyNormal
		if quiet {
			urgency = notify.UrgencyLow
		}
		note.AddHint(notify.HintUrgency(urgency))
		if n.sound.Load() && !quiet {
			note.AddHint(notify.HintSoundWithName(soundFor(&q)))
		}
		var id uint32
		if id, err = dn.SendNotification(note); err == nil {
			n.mu.Lock()
			n.byNote[id], n.byQ[q.ID] = q.ID, id
			n.mu.Unlock()
		}
	} else {
		err = beeep.Notify(title, body, "")
	}
	if err != nil {
		n.failed(err)
		return
	}
	n.log.Debug("notified", "id", q.ID, "backend", n.backend)
}

// dismiss removes the notification of question id, if it is still shown.
func (n *notifier) dismiss(id string) {
	n.mu.Lock()
	nid, ok := n.byQ[id]
	dn := n.dn
	if ok {
		delete(n.byQ, id)
		delete(n.byNote, nid)
	}
	n.mu.Unlock()
	if ok && dn != nil {
		_, _ = dn.CloseNotification(nid)
	}
}

// failed logs the first failure only: a missing notification daemon must
// neither stop the app nor fill its log.
func (n *notifier) failed(err error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.warned {
		n.warned = true
		n.log.Warn("cannot show notifications; questions still open their dialogs", "backend", n.backend, "err", err)
	}
}

// close stops and joins the worker, if started, then releases the D-Bus
// connection. It blocks until the queued calls are done.
func (n *notifier) close() {
	n.stop()
	n.mu.Lock()
	dn, conn := n.dn, n.conn
	n.dn, n.conn = nil, nil
	n.mu.Unlock()
	if dn != nil {
		_ = dn.Close()
	}
	if conn != nil {
		_ = conn.Close()
	}
}
