package ui

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"

	"github.com/esiqveland/notify"
	"github.com/godbus/dbus/v5"
)

const (
	notesName  = "org.freedesktop.Notifications"
	notesPath  = dbus.ObjectPath("/org/freedesktop/Notifications")
	notesClick = notesName + ".ActionInvoked"
	notesGone  = notesName + ".NotificationClosed"
)

// busNotes sends notifications to org.freedesktop.Notifications and hands
// on its ActionInvoked and NotificationClosed signals, but only those sent
// by the unique bus name that showed the notification. Any process of the
// user may emit a signal with that interface and path on the session bus;
// one that forges a click on a question's notification must not open its
// page in a browser of its choosing or its dialog. So each notification is
// sent to the unique name that owns org.freedesktop.Notifications at that
// moment (not to the well-known name, which may change hands between two
// calls), and a signal counts only when its sender is that unique name.
//
// esiqveland/notify's own signal loop drops the sender, so busNotes keeps
// only its Notification type. Its methods are safe for concurrent use; the
// handlers run on its signal goroutine, one at a time.
type busNotes struct {
	conn     *dbus.Conn
	log      *slog.Logger
	onAction func(id uint32, key string)
	onClosed func(id uint32)
	signals  chan *dbus.Signal
	done     chan struct{} // closed by Close
	ended    chan struct{} // closed when the signal goroutine returns
	once     sync.Once

	mu     sync.Mutex
	owners map[uint32]string // notification id → the unique name that showed it
}

// newBusNotes subscribes conn to the notification signals and starts the
// goroutine that hands them to onAction and onClosed. It does not block
// beyond one bus call.
func newBusNotes(conn *dbus.Conn, log *slog.Logger, onAction func(uint32, string), onClosed func(uint32)) (*busNotes, error) {
	b := &busNotes{
		conn: conn, log: log, onAction: onAction, onClosed: onClosed,
		signals: make(chan *dbus.Signal, 16), done: make(chan struct{}), ended: make(chan struct{}),
		owners: map[uint32]string{},
	}
	if err := conn.AddMatchSignal(dbus.WithMatchObjectPath(notesPath), dbus.WithMatchInterface(notesName)); err != nil {
		return nil, fmt.Errorf("subscribe to notification signals: %w", err)
	}
	conn.Signal(b.signals)
	go b.loop()
	return b, nil
}

// owner returns the unique bus name that owns org.freedesktop.Notifications
// now, starting the server if the bus can activate it. It blocks for a bus
// round trip (two when it starts the server).
func (b *busNotes) owner() (string, error) {
	var owner string
	err := b.conn.BusObject().Call("org.freedesktop.DBus.GetNameOwner", 0, notesName).Store(&owner)
	if de, ok := errors.AsType[dbus.Error](err); ok && de.Name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
		var started uint32
		if serr := b.conn.BusObject().Call("org.freedesktop.DBus.StartServiceByName", 0, notesName, uint32(0)).Store(&started); serr == nil {
			err = b.conn.BusObject().Call("org.freedesktop.DBus.GetNameOwner", 0, notesName).Store(&owner)
		}
	}
	if err != nil {
		return "", fmt.Errorf("find the notification server: %w", err)
	}
	return owner, nil
}

// SendNotification shows note and returns its id. It blocks for the bus
// calls (at most their timeouts).
func (b *busNotes) SendNotification(note notify.Notification) (uint32, error) {
	owner, err := b.owner()
	if err != nil {
		return 0, err
	}
	actions := make([]string, 0, 2*len(note.Actions))
	for _, a := range note.Actions {
		actions = append(actions, a.Key, a.Label)
	}
	hints := note.Hints
	if hints == nil {
		hints = map[string]dbus.Variant{}
	}
	// The expiry in ms, -1 for the server's default; held to int32's range.
	expire := int32(max(min(note.ExpireTimeout.Milliseconds(), math.MaxInt32), math.MinInt32)) //nolint:gosec // clamped just here
	var id uint32
	err = b.conn.Object(owner, notesPath).Call(notesName+".Notify", 0, note.AppName, note.ReplacesID, note.AppIcon,
		note.Summary, note.Body, actions, hints, expire).Store(&id)
	if err != nil {
		return 0, fmt.Errorf("send the notification: %w", err)
	}
	b.mu.Lock()
	b.owners[id] = owner
	b.mu.Unlock()
	return id, nil
}

// CloseNotification asks the server that showed notification id to close
// it. It blocks for a bus round trip.
func (b *busNotes) CloseNotification(id uint32) (bool, error) {
	b.mu.Lock()
	owner, ok := b.owners[id]
	delete(b.owners, id)
	b.mu.Unlock()
	if !ok {
		return false, nil
	}
	if call := b.conn.Object(owner, notesPath).Call(notesName+".CloseNotification", 0, id); call.Err != nil {
		return false, fmt.Errorf("close notification %d: %w", id, call.Err)
	}
	return true, nil
}

// Close stops the signal goroutine and waits for it; it does not close the
// connection. It may be called more than once.
func (b *busNotes) Close() error {
	b.once.Do(func() {
		b.conn.RemoveSignal(b.signals)
		close(b.done)
	})
	<-b.ended
	return b.conn.RemoveMatchSignal(dbus.WithMatchObjectPath(notesPath), dbus.WithMatchInterface(notesName))
}

func (b *busNotes) loop() {
	defer close(b.ended)
	for {
		select {
		case s := <-b.signals:
			b.handle(s)
		case <-b.done:
			return
		}
	}
}

// handle passes on s when it is an ActionInvoked or NotificationClosed
// signal from the server that showed its notification, and logs and drops
// one from any other sender.
func (b *busNotes) handle(s *dbus.Signal) {
	if s == nil || s.Path != notesPath || (s.Name != notesClick && s.Name != notesGone) || len(s.Body) < 2 {
		return
	}
	id, ok := s.Body[0].(uint32)
	if !ok {
		return
	}
	b.mu.Lock()
	owner, known := b.owners[id]
	if known && s.Sender == owner && s.Name == notesGone {
		delete(b.owners, id)
	}
	b.mu.Unlock()
	if !known {
		return
	}
	if s.Sender != owner {
		b.log.Warn("ignored a notification signal not sent by the notification server", "signal", s.Name,
			"notification", id, "sender", s.Sender, "server", owner)
		return
	}
	if s.Name == notesGone {
		b.onClosed(id)
		return
	}
	if key, ok := s.Body[1].(string); ok {
		b.onAction(id, key)
	}
}
