// Package portalkey binds a global shortcut through the desktop portal's
// GlobalShortcuts interface (org.freedesktop.portal.GlobalShortcuts, which
// xdg-desktop-portal offers on KDE Plasma 6 and on GNOME 48 and later):
// under Wayland the app is an XWayland client, whose X key grab sees no key
// pressed in a native Wayland window, and the portal is the desktop's own
// way to a key that works everywhere. The desktop may ask the person to
// confirm the binding, and may bind another key than the one preferred.
//
// It imports only the standard library and github.com/godbus/dbus/v5
// (portalkey_test.go).
package portalkey

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
)

// The portal's names.
const (
	portalName   = "org.freedesktop.portal.Desktop"
	portalPath   = dbus.ObjectPath("/org/freedesktop/portal/desktop")
	shortcutsIfc = "org.freedesktop.portal.GlobalShortcuts"
	requestIfc   = "org.freedesktop.portal.Request"
	sessionIfc   = "org.freedesktop.portal.Session"
)

// ErrNoPortal says the session has no portal with GlobalShortcuts.
var ErrNoPortal = errors.New("the desktop portal offers no GlobalShortcuts here")

// Binding is a shortcut the portal holds for the app until Close.
type Binding struct {
	conn    *dbus.Conn
	session dbus.ObjectPath
	// Trigger is the key the desktop says it bound ("" when it does not say).
	Trigger string
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

// Bind asks the portal on conn for shortcut id, with its description and
// preferred trigger (the XDG shortcut spelling, "CTRL+ALT+q"), and calls fn
// on a goroutine of its own at each activation until Close. It blocks until
// the portal has answered both requests, at most wait each (the desktop
// may show the person a dialog to confirm). Any goroutine may call it.
func Bind(conn *dbus.Conn, id, description, trigger string, fn func(), wait time.Duration) (*Binding, error) {
	sigs := make(chan *dbus.Signal, 16)
	conn.Signal(sigs)
	b := &Binding{conn: conn, stop: make(chan struct{}), done: make(chan struct{})}
	fail := func(err error) (*Binding, error) {
		conn.RemoveSignal(sigs)
		if b.session != "" {
			_ = conn.Object(portalName, b.session).Call(sessionIfc+".Close", 0).Err
		}
		return nil, err
	}
	portal := conn.Object(portalName, portalPath)
	tok, stok := token(), token()
	res, err := request(conn, sigs, wait, tok, func() *dbus.Call {
		return portal.Call(shortcutsIfc+".CreateSession", 0, map[string]dbus.Variant{
			"handle_token": dbus.MakeVariant(tok), "session_handle_token": dbus.MakeVariant(stok)})
	})
	if err != nil {
		return fail(fmt.Errorf("global shortcut: create a portal session: %w", err))
	}
	s, _ := res["session_handle"].Value().(string)
	if s == "" {
		if p, ok := res["session_handle"].Value().(dbus.ObjectPath); ok {
			s = string(p)
		}
	}
	if b.session = dbus.ObjectPath(s); !b.session.IsValid() {
		return fail(fmt.Errorf("global shortcut: the portal named no session (%v)", res))
	}
	tok = token()
	shortcuts := []struct {
		ID   string
		Opts map[string]dbus.Variant
	}{{id, map[string]dbus.Variant{"description": dbus.MakeVariant(description), "preferred_trigger": dbus.MakeVariant(trigger)}}}
	res, err = request(conn, sigs, wait, tok, func() *dbus.Call {
		return portal.Call(shortcutsIfc+".BindShortcuts", 0, b.session, shortcuts, "", map[string]dbus.Variant{"handle_token": dbus.MakeVariant(tok)})
	})
	if err != nil {
		return fail(fmt.Errorf("global shortcut: bind %s: %w", trigger, err))
	}
	b.Trigger = boundTrigger(res, id)
	if err := conn.AddMatchSignal(dbus.WithMatchInterface(shortcutsIfc), dbus.WithMatchMember("Activated")); err != nil {
		return fail(fmt.Errorf("global shortcut: listen: %w", err))
	}
	go b.listen(sigs, id, fn)
	return b, nil
}

// listen calls fn for each Activated of id in b's session, until Close.
func (b *Binding) listen(sigs chan *dbus.Signal, id string, fn func()) {
	defer close(b.done)
	defer b.conn.RemoveSignal(sigs)
	for {
		select {
		case <-b.stop:
			return
		case s, ok := <-sigs:
			if !ok {
				return
			}
			if s.Name == shortcutsIfc+".Activated" && len(s.Body) >= 2 {
				sess, _ := s.Body[0].(dbus.ObjectPath)
				got, _ := s.Body[1].(string)
				if sess == b.session && got == id {
					fn()
				}
			}
		}
	}
}

// Close ends the portal session, which lets the shortcut go, and stops
// the calls; it blocks for a D-Bus call. Any goroutine may call it.
func (b *Binding) Close() {
	b.once.Do(func() {
		close(b.stop)
		<-b.done
		_ = b.conn.RemoveMatchSignal(dbus.WithMatchInterface(shortcutsIfc), dbus.WithMatchMember("Activated"))
		_ = b.conn.Object(portalName, b.session).Call(sessionIfc+".Close", 0).Err
	})
}

// request makes a portal call that answers through a Request object and
// returns the results of its Response, or why not. It listens on the
// request's path before calling, so an early Response is not missed.
func request(conn *dbus.Conn, sigs chan *dbus.Signal, wait time.Duration, tok string, call func() *dbus.Call) (map[string]dbus.Variant, error) {
	want := requestPath(conn, tok)
	if err := conn.AddMatchSignal(dbus.WithMatchObjectPath(want), dbus.WithMatchInterface(requestIfc), dbus.WithMatchMember("Response")); err != nil {
		return nil, err
	}
	defer conn.RemoveMatchSignal(dbus.WithMatchObjectPath(want), dbus.WithMatchInterface(requestIfc), dbus.WithMatchMember("Response")) //nolint:errcheck // a stale match only costs a filter
	c := call()
	if c.Err != nil {
		var de dbus.Error
		if errors.As(c.Err, &de) && (de.Name == "org.freedesktop.DBus.Error.ServiceUnknown" || de.Name == "org.freedesktop.DBus.Error.UnknownMethod" || de.Name == "org.freedesktop.DBus.Error.UnknownInterface") {
			return nil, fmt.Errorf("%w (%s)", ErrNoPortal, de.Name)
		}
		return nil, c.Err
	}
	var handle dbus.ObjectPath
	if err := c.Store(&handle); err != nil {
		return nil, err
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case s := <-sigs:
			if s.Name != requestIfc+".Response" || (s.Path != handle && s.Path != want) || len(s.Body) < 2 {
				continue
			}
			code, _ := s.Body[0].(uint32)
			res, _ := s.Body[1].(map[string]dbus.Variant)
			switch code {
			case 0:
				return res, nil
			case 1:
				return nil, errors.New("the person declined it")
			}
			return nil, fmt.Errorf("the portal ended the request (response %d)", code)
		case <-timer.C:
			return nil, fmt.Errorf("no answer from the portal in %v", wait)
		}
	}
}

// requestPath is where the portal puts the Request of a call made on conn
// with handle token tok (the portal's documented rule).
func requestPath(conn *dbus.Conn, tok string) dbus.ObjectPath {
	sender := strings.ReplaceAll(strings.TrimPrefix(conn.Names()[0], ":"), ".", "_")
	return dbus.ObjectPath("/org/freedesktop/portal/desktop/request/" + sender + "/" + tok)
}

// boundTrigger is the trigger the portal reports for id, or "".
func boundTrigger(res map[string]dbus.Variant, id string) string {
	list, ok := res["shortcuts"].Value().([][]any)
	if !ok {
		return ""
	}
	for _, s := range list {
		if len(s) == 2 && s[0] == id {
			if opts, ok := s[1].(map[string]dbus.Variant); ok {
				d, _ := opts["trigger_description"].Value().(string)
				return d
			}
		}
	}
	return ""
}

// token is a fresh handle token: letters, digits and _ only.
func token() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // crypto/rand never fails on Linux
	return "asktray_" + hex.EncodeToString(b)
}
