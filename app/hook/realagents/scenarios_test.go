//go:build realagents

package realagents

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

// Bounds the scenarios hold the agents to.
const (
	// askBound is how long an agent may take from the prompt to the tray
	// question (a model round trip and the hook on a loaded machine).
	askBound = 30 * time.Second
	// stepAside is how soon the agent's own prompt must appear when the app
	// is down or frozen: the hook's one second plus the agent's own work.
	stepAside = 10 * time.Second
)

// scenario is one turn of a session.
type scenario struct {
	name string
	run  func(t *testing.T, s *session)
}

// shared are the scenarios every agent runs.
var shared = []scenario{
	{"allow", allow}, {"deny with a note", deny}, {"dismiss", dismiss},
	{"app down", appDown}, {"app frozen", appFrozen},
}

// runScenarios runs shared, then more, in one session, one turn each; a
// failed turn leaves the agent in an unknown state, so the rest is skipped.
func runScenarios(t *testing.T, s *session, more ...scenario) {
	for _, sc := range append(append([]scenario(nil), shared...), more...) {
		if !t.Run(sc.name, func(t *testing.T) {
			s.t = t
			s.app.t, s.term.t = t, t
			s.settle()
			sc.run(t, s)
		}) {
			t.Fatalf("%s failed; the later turns would run in an unknown state", sc.name)
		}
	}
}

// settle waits until the agent shows no permission prompt of its own.
func (s *session) settle() {
	if !waitUntil(10*time.Second, func() bool { return !strings.Contains(s.term.screen(), s.spec.ownPrompt) }) {
		s.t.Fatalf("the agent still shows its own prompt from the last turn")
	}
}

// allow: the person allows in the tray; the command runs and the model gets
// its output.
func allow(t *testing.T, s *session) {
	path, cmd := s.marker("allow")
	s.ask(cmd)
	q := s.app.waitQuestion(path, askBound)
	if q.Client.Name != s.spec.name || q.Kind != question.KindApproval || !strings.Contains(q.Details, s.work) {
		t.Errorf("question %+v", q)
	}
	s.app.allow(q.ID)
	if !waitUntil(askBound, func() bool { return exists(path) }) {
		t.Fatalf("the command did not run")
	}
	if !waitUntil(askBound, func() bool { return s.model.sentResult("ran-allow") }) {
		t.Errorf("the model did not get the command's output")
	}
	s.term.expect("REPLY<<", askBound)
}

// deny: the person denies with a note; the command does not run and the
// model gets the note.
func deny(t *testing.T, s *session) {
	path, cmd := s.marker("deny")
	s.ask(cmd)
	q := s.app.waitQuestion(path, askBound)
	note := "not-now-" + s.spec.name
	s.app.answer(q.ID, "--decline", "--note", note)
	if !waitUntil(askBound, func() bool { return s.model.sentResult(note) }) {
		t.Fatalf("the model did not get the note %q", note)
	}
	if exists(path) {
		t.Errorf("the command ran after a deny")
	}
	if res := s.app.waitEnded(q.ID, time.Second); res.Outcome != question.Declined {
		t.Errorf("result %+v", res)
	}
}

// dismiss: the person dismisses the tray question; the agent asks in its own
// prompt, where the person says no.
func dismiss(t *testing.T, s *session) {
	path, cmd := s.marker("dismiss")
	s.ask(cmd)
	q := s.app.waitQuestion(path, askBound)
	s.app.answer(q.ID, "--cancel")
	s.term.expect(s.spec.ownPrompt, stepAside)
	s.sayNo()
	if exists(path) {
		t.Errorf("the command ran after a dismissal and a no in the agent")
	}
}

// appDown: with no app running the agent asks in its own prompt at once,
// and nothing is allowed.
func appDown(t *testing.T, s *session) {
	s.app.stop()
	defer s.app.start()
	path, cmd := s.marker("down")
	s.ask(cmd)
	start := time.Now()
	s.term.expect(s.spec.ownPrompt, stepAside)
	t.Logf("app down: the agent's own prompt after %v", time.Since(start).Round(10*time.Millisecond))
	s.sayNo()
	if exists(path) {
		t.Errorf("the command ran with the app down")
	}
	for _, r := range s.hooksFor(path) {
		if r.Stdout != "" || r.TookMS > 1000 {
			t.Errorf("hook with the app down: printed %q after %d ms", r.Stdout, r.TookMS)
		}
	}
}

// appFrozen: the app is stopped (SIGSTOP: its socket still accepts, nothing
// answers). The hook steps aside after its one-second handshake, the agent's
// own prompt appears within the bound and nothing runs; once the app runs
// again, the request it finds leaves no question behind.
func appFrozen(t *testing.T, s *session) {
	s.app.signal(syscall.SIGSTOP)
	resumed := false
	defer func() {
		if !resumed {
			s.app.cont()
		}
	}()
	path, cmd := s.marker("frozen")
	s.ask(cmd)
	start := time.Now()
	s.term.expect(s.spec.ownPrompt, stepAside)
	t.Logf("app frozen: the agent's own prompt after %v", time.Since(start).Round(10*time.Millisecond))
	s.sayNo()
	s.app.cont()
	resumed = true
	if exists(path) {
		t.Errorf("the command ran with the app frozen")
	}
	recs := s.hooksFor(path)
	if len(recs) == 0 {
		t.Fatalf("no hook ran for the frozen turn, so this proves nothing")
	}
	for _, r := range recs {
		if r.Stdout != "" || r.TookMS > 3000 {
			t.Errorf("hook with the app frozen: printed %q after %d ms (want nothing, within the one-second handshake and its slack)", r.Stdout, r.TookMS)
		}
	}
	if !waitUntil(10*time.Second, func() bool {
		for _, q := range s.app.pending() {
			if strings.Contains(q.Details, path) {
				return false
			}
		}
		return true
	}) {
		t.Errorf("the resumed app still holds a question for the turn its hook stepped aside from")
	}
}

// sayNo answers the agent's own prompt with no and waits until it is gone.
func (s *session) sayNo() {
	s.t.Helper()
	s.term.keys(s.spec.no...)
	if !waitUntil(10*time.Second, func() bool { return !strings.Contains(s.term.screen(), s.spec.ownPrompt) }) {
		s.t.Fatalf("the agent's own prompt stayed after saying no")
	}
}
