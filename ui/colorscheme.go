package ui

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/godbus/dbus/v5"

	"github.com/asktray/asktray/ui/internal/uitheme"
)

// followColorScheme sets a's theme to Asktray's in the desktop's light or
// dark variant, read from the XDG desktop portal on a goroutine of its own
// (the portal may be slow to answer, or never answer), and follows its
// changes while the app runs: each sets the theme again, which redraws
// every window, through the gate. Until the portal answers, and without a
// session bus or a portal, Fyne's own variant stands. It returns what
// stops the watch, which does not wait for it. Call it before a.Run.
func (t *tray) followColorScheme(a fyne.App) (stop func()) {
	var watch atomic.Pointer[schemeWatch]
	th := uitheme.Following(func() (fyne.ThemeVariant, bool) {
		if w := watch.Load(); w != nil {
			return w.Variant()
		}
		return 0, false
	})
	a.Settings().SetTheme(th)
	redraw := func() { t.gate.do(func() { a.Settings().SetTheme(th) }) }
	stopped := make(chan struct{})
	go func() {
		conn, err := dbus.ConnectSessionBus()
		if err != nil {
			return
		}
		w, err := watchColorScheme(conn, redraw)
		if w == nil {
			conn.Close()
			t.env.Log.Info("cannot follow the desktop's light or dark style", "err", err)
			return
		}
		defer w.Close()
		if err != nil {
			t.env.Log.Info("the portal did not say light or dark; following its changes", "err", err)
		}
		watch.Store(w)
		redraw()
		<-stopped
	}()
	var once sync.Once
	return func() { once.Do(func() { close(stopped) }) }
}

// The XDG desktop portal's Settings interface, where the desktop publishes
// its light or dark preference (org.freedesktop.appearance color-scheme:
// 0 no preference, 1 prefer dark, 2 prefer light).
const (
	portalName      = "org.freedesktop.portal.Desktop"
	portalPath      = "/org/freedesktop/portal/desktop"
	portalSettings  = "org.freedesktop.portal.Settings"
	appearanceNS    = "org.freedesktop.appearance"
	colorSchemeKey  = "color-scheme"
	schemeDark      = 1
	schemeLight     = 2
	maxVariantDepth = 4
)

// schemeOf reads a color-scheme value as the portal sends it: a uint32,
// or one wrapped in variants. Settings.Read, the only read of the portal
// in Debian 12 (xdg-desktop-portal 1.16, which has no ReadOne), answers
// with a variant inside a variant, which Fyne 2.7.1 rejects: its app came
// up dark whatever GNOME's style. It reports false for anything else.
func schemeOf(v any) (uint32, bool) {
	for range maxVariantDepth {
		switch x := v.(type) {
		case uint32:
			return x, true
		case dbus.Variant:
			v = x.Value()
		default:
			return 0, false
		}
	}
	return 0, false
}

// variantOf is the theme variant for a color-scheme: dark for prefer
// dark, light for prefer light and for no preference (GNOME's "Default"
// style is light; Fyne 2.7.1 draws no preference dark).
func variantOf(scheme uint32) fyne.ThemeVariant {
	if scheme == schemeDark {
		return theme.VariantDark
	}
	return theme.VariantLight
}

// portalTimeout bounds each call to the portal: on some desktops it
// never answers (Fyne reads it on a goroutine of its own for that reason).
const portalTimeout = 3 * time.Second

// readColorScheme asks the portal for the desktop's color-scheme: ReadOne,
// else the older Read. It blocks for at most two calls of portalTimeout.
func readColorScheme(conn *dbus.Conn) (uint32, error) {
	obj := conn.Object(portalName, portalPath)
	call := func(method string, v *dbus.Variant) error {
		ctx, cancel := context.WithTimeout(context.Background(), portalTimeout)
		defer cancel()
		return obj.CallWithContext(ctx, portalSettings+"."+method, 0, appearanceNS, colorSchemeKey).Store(v)
	}
	var v dbus.Variant
	if err := call("ReadOne", &v); err != nil {
		if err2 := call("Read", &v); err2 != nil {
			return 0, fmt.Errorf("read the portal's color-scheme: %w", err2)
		}
	}
	s, ok := schemeOf(v)
	if !ok {
		return 0, fmt.Errorf("read the portal's color-scheme: not a number: %s", v.Signature())
	}
	return s, nil
}

// schemeWatch follows the desktop's color-scheme on the portal: it holds
// the variant read last, and calls onChange when the portal says it
// changed (SettingChanged). Its methods are safe for concurrent use.
type schemeWatch struct {
	conn    *dbus.Conn
	signals chan *dbus.Signal
	known   atomic.Bool
	dark    atomic.Bool
	done    chan struct{}
	ended   chan struct{}
	once    sync.Once
}

// watchColorScheme subscribes conn, which it then owns (Close closes it),
// to the portal's setting changes, reads the color-scheme once, and calls
// onChange on a goroutine of its own after each change. A portal that
// cannot be read leaves the variant unknown (Fyne's own stands) until it
// says a value. It blocks for a few bus round trips.
func watchColorScheme(conn *dbus.Conn, onChange func()) (*schemeWatch, error) {
	w := &schemeWatch{conn: conn, signals: make(chan *dbus.Signal, 8), done: make(chan struct{}), ended: make(chan struct{})}
	// Subscribe before reading, so that no change falls between the two.
	if err := conn.AddMatchSignal(dbus.WithMatchObjectPath(portalPath), dbus.WithMatchInterface(portalSettings),
		dbus.WithMatchMember("SettingChanged")); err != nil {
		return nil, fmt.Errorf("follow the portal's settings: %w", err)
	}
	conn.Signal(w.signals)
	s, err := readColorScheme(conn)
	if err == nil {
		w.set(s)
	}
	go w.loop(onChange)
	return w, err
}

func (w *schemeWatch) set(scheme uint32) {
	w.dark.Store(variantOf(scheme) == theme.VariantDark)
	w.known.Store(true)
}

// Variant reports the desktop's variant, once the portal has said one.
func (w *schemeWatch) Variant() (fyne.ThemeVariant, bool) {
	if !w.known.Load() {
		return 0, false
	}
	if w.dark.Load() {
		return theme.VariantDark, true
	}
	return theme.VariantLight, true
}

func (w *schemeWatch) loop(onChange func()) {
	defer close(w.ended)
	for {
		select {
		case s := <-w.signals:
			if s == nil {
				return // the connection closed
			}
			if s.Name != portalSettings+".SettingChanged" || len(s.Body) < 3 {
				continue
			}
			ns, _ := s.Body[0].(string)
			key, _ := s.Body[1].(string)
			if scheme, ok := schemeOf(s.Body[2]); ok && ns == appearanceNS && key == colorSchemeKey {
				w.set(scheme)
				onChange()
			}
		case <-w.done:
			return
		}
	}
}

// Close stops the watch, waits for its goroutine and closes the
// connection. It may be called more than once.
func (w *schemeWatch) Close() {
	w.once.Do(func() {
		w.conn.RemoveSignal(w.signals)
		close(w.done)
		<-w.ended
		_ = w.conn.Close()
	})
}
