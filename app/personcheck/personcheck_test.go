package personcheck

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImports keeps the package to the standard library and the PAM binding,
// so that the control socket and the page can both use it.
func TestImports(t *testing.T) {
	t.Parallel()
	testkit.ImportsOnly(t, ".", "github.com/msteinert/pam/v2")
}

// fakeVerifier accepts one password and counts its calls.
type fakeVerifier struct {
	mu    sync.Mutex
	right string
	calls int
	err   error // returned instead when set
}

func (f *fakeVerifier) Verify(p string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	switch {
	case f.err != nil:
		return f.err
	case p != f.right:
		return ErrWrongPassword
	}
	return nil
}

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newChecker(v Verifier, grace time.Duration) (*Checker, *clock) {
	return newCheckerLog(v, grace, io.Discard)
}

func newCheckerLog(v Verifier, grace time.Duration, w io.Writer) (*Checker, *clock) {
	c := New(v, func() time.Duration { return grace }, slog.New(slog.NewTextHandler(w, nil)))
	clk := &clock{time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)}
	c.now = clk.now
	return c, clk
}

// TestGrace: a right password opens a grace period for that channel only;
// it ends after the grace, and 0 asks every time.
func TestGrace(t *testing.T) {
	t.Parallel()
	v := &fakeVerifier{right: "pw"}
	c, clk := newChecker(v, 5*time.Minute)
	tty, other := Terminal("tty=34816 sid=100"), Terminal("tty=34817 sid=200")
	if err := c.Prove(tty, ""); !errors.Is(err, ErrPasswordNeeded) {
		t.Fatalf("no password, no grace: %v", err)
	}
	if err := c.Prove(tty, "pw"); err != nil {
		t.Fatalf("right password: %v", err)
	}
	if !c.Fresh(tty) || c.Prove(tty, "") != nil {
		t.Fatal("no grace after the right password")
	}
	if c.Fresh(other) || !errors.Is(c.Prove(other, ""), ErrPasswordNeeded) {
		t.Fatal("the grace of one terminal counts for another")
	}
	if c.Fresh(Browser("x")) {
		t.Fatal("the grace of a terminal counts for a browser")
	}
	clk.t = clk.t.Add(5*time.Minute + time.Second)
	if c.Fresh(tty) || !errors.Is(c.Prove(tty, ""), ErrPasswordNeeded) {
		t.Fatal("grace outlives 5 minutes")
	}

	c0, _ := newChecker(v, 0)
	if err := c0.Prove(tty, "pw"); err != nil {
		t.Fatal(err)
	}
	if c0.Fresh(tty) {
		t.Fatal("grace 0 still opens a grace period")
	}
	cmax, clk := newChecker(v, time.Hour)
	_ = cmax.Prove(tty, "pw")
	clk.t = clk.t.Add(MaxGrace + time.Second)
	if cmax.Fresh(tty) {
		t.Fatal("grace beyond 15 minutes")
	}
}

// TestLockout: three wrong passwords lock approving for 30 s, even for
// the right password, without asking PAM.
func TestLockout(t *testing.T) {
	t.Parallel()
	v := &fakeVerifier{right: "pw"}
	var log bytes.Buffer
	c, clk := newCheckerLog(v, time.Minute, &log)
	b := Browser("session-1")
	for i := 1; i <= 2; i++ {
		err := c.Prove(b, "nope")
		if !errors.Is(err, ErrWrongPassword) || !strings.Contains(err.Error(), "stays pending") {
			t.Fatalf("wrong password %d: %v", i, err)
		}
	}
	if err := c.Prove(b, "nope"); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "30s") {
		t.Fatalf("third wrong password: %v", err)
	}
	calls := v.calls
	if err := c.Prove(b, "pw"); !errors.Is(err, ErrLocked) {
		t.Fatalf("right password while locked: %v", err)
	}
	if v.calls != calls {
		t.Fatal("PAM asked while locked")
	}
	if n := strings.Count(log.String(), "approval password wrong"); n != 3 {
		t.Errorf("%d failures logged, want 3:\n%s", n, &log)
	}
	if strings.Contains(log.String(), "session-1") {
		t.Errorf("the log holds the browser's session id:\n%s", &log)
	}
	clk.t = clk.t.Add(LockFor)
	if err := c.Prove(b, "pw"); err != nil {
		t.Fatalf("after 30 s: %v", err)
	}
}

// TestLockCountsEveryChannel is issue 33 item 4 against the checker: wrong
// passwords from fresh terminals and fresh browser sessions (each free to
// make) add up to one count for the user, the right password is refused
// while locked, each further wrong one doubles the lock up to MaxLock, and
// every lock is reported. On f02af39, which counted per channel, the right
// password on a fresh channel was accepted after any number of guesses.
func TestLockCountsEveryChannel(t *testing.T) {
	t.Parallel()
	v := &fakeVerifier{right: "pw"}
	c, clk := newChecker(v, time.Minute)
	alerts := make(chan Alert, 16)
	c.SetAlert(func(a Alert) { alerts <- a })
	fresh := func(i int) Channel {
		if i%2 == 0 {
			return Terminal(fmt.Sprintf("tty=%d sid=%d since=1", 34816+i, 100+i))
		}
		return Browser(fmt.Sprintf("cookie-less-%d", i))
	}
	for i := range MaxFailures - 1 {
		if err := c.Prove(fresh(i), "guess"); !errors.Is(err, ErrWrongPassword) {
			t.Fatalf("guess %d: %v", i, err)
		}
	}
	if err := c.Prove(fresh(MaxFailures-1), "guess"); !errors.Is(err, ErrLocked) {
		t.Fatalf("guess %d on a fresh channel did not lock: %v", MaxFailures, err)
	}
	if a := <-alerts; a.Failures != MaxFailures || a.LockedFor != LockFor {
		t.Fatalf("alert %+v", a)
	}
	calls := v.calls
	for i := 10; i < 14; i++ {
		if err := c.Prove(fresh(i), "pw"); !errors.Is(err, ErrLocked) {
			t.Fatalf("the right password on fresh channel %v while locked: %v", fresh(i), err)
		}
	}
	if v.calls != calls {
		t.Fatal("PAM asked while locked")
	}
	// Each wrong password after the lock doubles it.
	want := LockFor
	for n := MaxFailures + 1; n < MaxFailures+10; n++ {
		clk.t = clk.t.Add(MaxLock)
		want = min(2*want, MaxLock)
		err := c.Prove(fresh(n), "guess")
		if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), want.String()) {
			t.Fatalf("wrong password %d: %v, want a lock of %s", n, err, want)
		}
		if a := <-alerts; a.LockedFor != want || a.Failures != n {
			t.Fatalf("alert %+v, want %d failures, %s", a, n, want)
		}
	}
	if want != MaxLock {
		t.Fatalf("the lock grew to %s only", want)
	}
	clk.t = clk.t.Add(MaxLock)
	if err := c.Prove(fresh(40), "pw"); err != nil {
		t.Fatalf("after the lock: %v", err)
	}
	if err := c.Prove(fresh(41), "guess"); !errors.Is(err, ErrWrongPassword) {
		t.Fatalf("a right password did not reset the count: %v", err)
	}
}

// TestAlertText: the tray's words say what happened and that the dialog
// still works.
func TestAlertText(t *testing.T) {
	t.Parallel()
	title, body := Alert{Failures: 4, Last: Browser("x"), LockedFor: time.Minute}.Text()
	for _, want := range []string{"guessing"} {
		if !strings.Contains(title, want) {
			t.Errorf("title %q lacks %q", title, want)
		}
	}
	for _, want := range []string{"4 wrong", "browser", "1m0s", "dialog still works"} {
		if !strings.Contains(body, want) {
			t.Errorf("body %q lacks %q", body, want)
		}
	}
}

// TestOneCheckAtATime: a second password check, from any channel, is
// refused while one runs, so guesses cannot run side by side past the count.
func TestOneCheckAtATime(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	started := make(chan struct{})
	c, _ := newChecker(blockingVerifier{started, release}, time.Minute)
	done := make(chan error)
	go func() { done <- c.Prove(Terminal("a"), "guess") }()
	<-started
	if err := c.Prove(Browser("b"), "guess"); !errors.Is(err, ErrBusy) {
		t.Fatalf("a second check ran alongside: %v", err)
	}
	close(release)
	if err := <-done; !errors.Is(err, ErrWrongPassword) {
		t.Fatal(err)
	}
}

type blockingVerifier struct{ started, release chan struct{} }

func (b blockingVerifier) Verify(string) error {
	close(b.started)
	<-b.release
	return ErrWrongPassword
}

// TestUnavailable: a verifier that cannot check refuses with a message that
// names the dialog, and does not count towards the lock.
func TestUnavailable(t *testing.T) {
	t.Parallel()
	c, _ := newChecker(System(), time.Minute)
	if _, ok := c.verifier.(unavailable); !ok {
		c, _ = newChecker(&fakeVerifier{err: errors.New("pam_start: no such service")}, time.Minute)
	}
	for range 4 {
		err := c.Prove(Terminal("t"), "pw")
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "Asktray dialog") {
			t.Fatalf("got %v", err)
		}
	}
}
