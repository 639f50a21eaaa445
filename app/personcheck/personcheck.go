// Package personcheck decides whether an answer that approves, given outside
// the desktop dialog (on the CLI's terminal or on the question page), comes
// with the person's proof: their login password, checked through PAM, or a
// grace period that an earlier password opened for that same channel.
//
// A channel is one terminal (its device and session, as sudo's timestamp
// is) or one browser (a random server-side session), never the user alone.
// Grace periods live in memory and end when the app restarts. Wrong
// passwords are counted for the user across every channel (a new terminal or
// a new browser session does not start the count again): the third in a row
// locks every channel for 30 s, and each further one doubles the lock, up to
// an hour. Only one password check runs at a time. Every failure is logged
// and each lock is reported (SetAlert) so that the tray can tell the person.
package personcheck

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The ways a proof fails. Each error a Checker returns wraps one of them and
// says what to do, naming the dialog where the password cannot help.
var (
	// ErrPasswordNeeded: no password was given and the channel has no grace.
	ErrPasswordNeeded = errors.New("your login password is needed")
	// ErrWrongPassword: PAM refused the password.
	ErrWrongPassword = errors.New("wrong password")
	// ErrLocked: the channel had too many wrong passwords and waits.
	ErrLocked = errors.New("too many wrong passwords")
	// ErrBusy: another password check is running (one at a time, for
	// every channel).
	ErrBusy = errors.New("another password check is running")
	// ErrUnavailable: the password cannot be checked here (no PAM, or PAM
	// cannot check this user).
	ErrUnavailable = errors.New("your login password cannot be checked here")
)

// DialogHint ends every message of an answer refused for want of a
// password that can be checked: the dialog needs none.
const DialogHint = "answer it in the Asktray dialog instead, which needs no password"

// The limits of the grace period and of wrong passwords.
const (
	DefaultGrace = 5 * time.Minute
	MaxGrace     = 15 * time.Minute
	MaxFailures  = 3
	LockFor      = 30 * time.Second
	// MaxLock bounds the growing lock: each wrong password after the
	// MaxFailures-th doubles it, up to this.
	MaxLock = time.Hour
	// ForgetAfter is how long after the last wrong password the count of
	// wrong ones starts again from zero (a right password resets it at once).
	ForgetAfter = 24 * time.Hour
)

// Alert reports a lock: wrong passwords given in a row, across every
// channel, and how long approving outside the dialog is now refused.
type Alert struct {
	Failures  int
	Last      Channel // where the last wrong password came from
	LockedFor time.Duration
}

// Text is what the person reads about a: a title and a body.
func (a Alert) Text() (title, body string) {
	title = "Someone may be guessing your password"
	body = fmt.Sprintf("%d wrong login passwords in a row were given to approve outside the dialog, the last on a %s. "+
		"Approving on a terminal or a question page is locked for %s. If this was not you, a program running as "+
		"you is guessing your password; the dialog still works.", a.Failures, a.Last.kind(), a.LockedFor)
	return title, body
}

// Verifier checks the login password of the user who runs the app. Verify
// blocks (PAM delays a failure by about two seconds) and may be called from
// any goroutine. It returns nil for the right password, an error wrapping
// ErrWrongPassword for a wrong one, and one wrapping ErrUnavailable when it
// cannot tell.
type Verifier interface {
	Verify(password string) error
}

// Channel names one terminal or one browser session. It is logged, so it
// must not be a secret: a browser's channel is a digest of its session id.
type Channel string

// Checker keeps the grace periods and the wrong-password counts of every
// channel. Its methods may be called from any goroutine.
type Checker struct {
	verifier Verifier
	grace    func() time.Duration
	log      *slog.Logger
	now      func() time.Time

	alert atomic.Pointer[func(Alert)]

	mu       sync.Mutex
	channels map[Channel]*channelState // grace periods
	// The wrong-password count and the lock are the user's, whatever the
	// channel: a fresh terminal or browser session starts nothing again.
	failures    int
	lastFailure time.Time
	lockedUntil time.Time
	busy        bool
}

type channelState struct {
	graceUntil time.Time
}

// SetAlert makes c call fn, on its own goroutine, each time wrong passwords
// lock approving outside the dialog. Any goroutine may call it; nil stops.
func (c *Checker) SetAlert(fn func(Alert)) {
	if fn == nil {
		c.alert.Store(nil)
		return
	}
	c.alert.Store(&fn)
}

// New returns a Checker that checks passwords with v and opens a grace
// period of grace() (read at each success; 0 asks every time, more than
// MaxGrace counts as MaxGrace) after each right one. log may be nil.
func New(v Verifier, grace func() time.Duration, log *slog.Logger) *Checker {
	if log == nil {
		log = slog.Default()
	}
	if grace == nil {
		grace = func() time.Duration { return DefaultGrace }
	}
	return &Checker{verifier: v, grace: grace, log: log, now: time.Now, channels: map[Channel]*channelState{}}
}

// Fresh reports whether ch is within a grace period, so that an approval
// from it needs no password now. It does not block.
func (c *Checker) Fresh(ch Channel) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.channels[ch]
	return st != nil && c.now().Before(st.graceUntil)
}

// Prove returns nil when an approval from ch may go ahead: ch is within a
// grace period (password is then ignored), or password is the person's
// login password, which opens a grace period for ch. Otherwise the error
// wraps one of the Err values above. It blocks while PAM checks, and
// refuses (ErrBusy) a check while another one, of any channel, runs.
func (c *Checker) Prove(ch Channel, password string) error {
	c.mu.Lock()
	st := c.state(ch)
	now := c.now()
	switch {
	case now.Before(st.graceUntil):
		c.mu.Unlock()
		return nil
	case now.Before(c.lockedUntil):
		left := c.lockedUntil.Sub(now).Round(time.Second)
		c.mu.Unlock()
		c.log.Warn("approval password refused: locked", "channel", ch, "left", left)
		return fmt.Errorf("%w: approving outside the dialog is locked for %s more; the question stays pending: %s",
			ErrLocked, left, DialogHint)
	case c.busy:
		c.mu.Unlock()
		return fmt.Errorf("%w; the question stays pending", ErrBusy)
	case password == "":
		c.mu.Unlock()
		return fmt.Errorf("%w to approve outside the dialog; the question stays pending", ErrPasswordNeeded)
	}
	c.busy = true
	c.mu.Unlock()

	err := c.verifier.Verify(password)

	c.mu.Lock()
	defer c.mu.Unlock()
	c.busy = false
	now = c.now()
	if err == nil {
		c.failures = 0
		if g := min(c.grace(), MaxGrace); g > 0 {
			st.graceUntil = now.Add(g)
		}
		c.log.Info("approval password accepted", "channel", ch)
		return nil
	}
	if !errors.Is(err, ErrWrongPassword) {
		c.log.Error("approval password could not be checked", "channel", ch, "err", err)
		return fmt.Errorf("%w (%v); the question stays pending: %s", ErrUnavailable, err, DialogHint)
	}
	return c.failed(ch, now)
}

// failed counts a wrong password from ch at now, locking when it is the
// MaxFailures-th or a later one in a row; c.mu must be held.
func (c *Checker) failed(ch Channel, now time.Time) error {
	if now.Sub(c.lastFailure) > ForgetAfter {
		c.failures = 0
	}
	c.failures++
	c.lastFailure = now
	c.log.Warn("approval password wrong", "channel", ch, "failures", c.failures)
	if c.failures < MaxFailures {
		return fmt.Errorf("%w (%d of %d before a %s lock); the question stays pending. "+
			"With no login password, %s", ErrWrongPassword, c.failures, MaxFailures, LockFor, DialogHint)
	}
	lock := lockFor(c.failures)
	c.lockedUntil = now.Add(lock)
	c.log.Warn("approval password locked", "channel", ch, "failures", c.failures, "for", lock)
	if fn := c.alert.Load(); fn != nil {
		go (*fn)(Alert{Failures: c.failures, Last: ch, LockedFor: lock})
	}
	return fmt.Errorf("%w: %d wrong in a row, approving outside the dialog is locked for %s; the question stays pending: %s",
		ErrLocked, c.failures, lock, DialogHint)
}

// lockFor is the lock after n wrong passwords in a row (n >= MaxFailures):
// LockFor, doubled for each one past MaxFailures, at most MaxLock.
func lockFor(n int) time.Duration {
	d := LockFor
	for range n - MaxFailures {
		if d >= MaxLock {
			break
		}
		d *= 2
	}
	return min(d, MaxLock)
}

// state returns ch's state, making it; c.mu must be held.
func (c *Checker) state(ch Channel) *channelState {
	st := c.channels[ch]
	if st == nil {
		st = &channelState{}
		c.channels[ch] = st
	}
	return st
}

// Terminal is the channel of one terminal; id names its device and session
// (control builds it from /proc).
func Terminal(id string) Channel { return Channel("terminal " + id) }

// Browser is the channel of one browser session, named by a digest of its
// secret session id.
func Browser(sessionID string) Channel {
	sum := sha256.Sum256([]byte(sessionID))
	return Channel("browser " + hex.EncodeToString(sum[:8]))
}

// kind names the channel's sort for a message: terminal or browser.
func (ch Channel) kind() string {
	kind, _, _ := strings.Cut(string(ch), " ")
	return kind
}

// unavailable is a Verifier that refuses every check, saying why.
type unavailable struct{ why error }

// Verify refuses; it does not block.
func (u unavailable) Verify(string) error { return fmt.Errorf("%w: %w", ErrUnavailable, u.why) }

// testVerifier, when set, is what System returns: a test binary's own
// password, so that tests running the app in-process as root need no
// account with a known password. Only Go code linked into the binary can
// set it (SetTestVerifier); the asktray binary never does.
var testVerifier Verifier

// SetTestVerifier makes System return v in this process. Call it from a
// test binary only, before the app starts.
func SetTestVerifier(v Verifier) { testVerifier = v }

// Password is a Verifier that knows one password, for tests.
type Password string

// Verify accepts p only; it does not block.
func (p Password) Verify(s string) error {
	if s != string(p) {
		return fmt.Errorf("%w: not the test password", ErrWrongPassword)
	}
	return nil
}
