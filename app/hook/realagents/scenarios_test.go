//go:build realagents

package realagents

import (
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
)

// Bounds the scenarios hold the agents to.
const (
	// askBound is how long an agent may take from the prompt to the tray
	// question (a model round trip and the hook on a loaded machine).
	askBound = 30 * time.Second
	// stepAside is how soon the agent's own prompt must appear once the
	// hook stepped aside (it ended with no decision: the app down or
	// frozen, the question dismissed), or how soon the hook must end after
	// a dismissal: the agent's own work and the screen's poll on a loaded
	// machine.
	stepAside = 3 * time.Second
	// downBound is how long a hook may run with the app down: docs/hooks.md
	// promises it exits within a second.
	downBound = time.Second
	// frozenMin and frozenMax bound a hook's run with the app frozen: it
	// waits for the one-second handshake (docs/hooks.md: 1.07-1.11 s from
	// the process start), with half a second of slack for a loaded machine.
	frozenMin, frozenMax = 900 * time.Millisecond, 1500 * time.Millisecond
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

// settle waits until the agent shows no permission prompt of its own (nor
// its rejection's note box, where a typed prompt would become the note).
func (s *session) settle() {
	if !waitUntil(10*time.Second, func() bool { return !s.showsOwnPrompt() }) {
		s.t.Fatalf("the agent still shows its own prompt from the last turn")
	}
}

// showsOwnPrompt reports whether the screen shows the agent's own
// permission prompt, or the note box its no opens (agentSpec.noNote).
func (s *session) showsOwnPrompt() bool {
	screen := s.term.screen()
	return strings.Contains(screen, s.spec.ownPrompt) || (s.spec.noNote != "" && strings.Contains(screen, s.spec.noNote))
}

// confirmNo, after the agent's no keys, rejects without a note when the
// agent asks for one (agentSpec.noNote): it waits for the note box and
// presses Enter. A no the agent did not take (no note box within 5 s) is
// left to the caller's check that the prompt went away.
func (s *session) confirmNo() {
	s.t.Helper()
	if s.spec.noNote != "" && waitUntil(5*time.Second, func() bool { return strings.Contains(s.term.screen(), s.spec.noNote) }) {
		s.term.keys("Enter")
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

// dismiss: the person dismisses the tray question; the hook that asked
// ends at once with no decision (the agent's own prompt alone proves
// nothing for Claude Code, which shows it beside the hook anyway), the
// question is the person's dismissal, and the agent asks in its own
// prompt, where the person says no.
func dismiss(t *testing.T, s *session) {
	path, cmd := s.marker("dismiss")
	s.ask(cmd)
	q := s.app.waitQuestion(path, askBound)
	at := time.Now()
	s.app.answer(q.ID, "--cancel")
	var asker hookRecord
	if !waitUntil(stepAside, func() bool {
		for _, r := range s.hooksFor(path) {
			if r.end().After(at) {
				asker = r
				return true
			}
		}
		return false
	}) {
		t.Fatalf("no hook for the call ended within %v of the dismissal: it did not step aside", stepAside)
	}
	if !s.steppedAside(asker.Stdout) {
		t.Errorf("the hook printed %q after a dismissal, want no decision (or the agent's own prompt's)", asker.Stdout)
	}
	if res := s.app.waitEnded(q.ID, time.Second); res.Outcome != question.Cancelled || res.DecidedBy != question.ByHuman {
		t.Errorf("result %+v, want cancelled by the person", res)
	}
	s.term.expect(s.spec.ownPrompt, s.promptBound())
	s.sayNo()
	if exists(path) {
		t.Errorf("the command ran after a dismissal and a no in the agent")
	}
}

// promptBound is how soon after its hook stepped aside the agent's own
// prompt must show: stepAside, and a handshake more for an agent that
// runs its notification hook, and waits for it, before it draws the
// prompt (agentSpec.notifiesFirst: with the app frozen that hook waits out
// its own handshake).
func (s *session) promptBound() time.Duration {
	if s.spec.notifiesFirst {
		return stepAside + hook.Handshake + s.spec.drawSlack
	}
	return stepAside + s.spec.drawSlack
}

// appDown: with no app running a hook ran for the call, printed nothing and
// ended within a second; the agent asks in its own prompt at once, and
// nothing is allowed.
func appDown(t *testing.T, s *session) {
	s.app.stop()
	defer s.app.start()
	path, cmd := s.marker("down")
	s.ask(cmd)
	s.term.expect(s.spec.ownPrompt, askBound)
	seen := time.Now()
	recs := s.turnHooks(path)
	lag := seen.Sub(recs[0].end())
	t.Logf("app down: %d hook runs, the first %d ms; the agent's own prompt %v after it ended", len(recs), recs[0].TookMS, lag.Round(10*time.Millisecond))
	s.sayNo()
	if exists(path) {
		t.Errorf("the command ran with the app down")
	}
	for _, r := range recs {
		if !s.steppedAside(r.Stdout) || r.took() > downBound {
			t.Errorf("hook with the app down: printed %q after %d ms (want nothing or the agent's own prompt's, within %v)", r.Stdout, r.TookMS, downBound)
		}
	}
	if lag > stepAside+s.spec.drawSlack {
		t.Errorf("the agent's own prompt came %v after the hook stepped aside, want within %v", lag, stepAside+s.spec.drawSlack)
	}
}

// appFrozen: the app is stopped (SIGSTOP: its socket still accepts, nothing
// answers). The hook steps aside after its one-second handshake, the agent's
// own prompt follows within stepAside and nothing runs; once the app runs
// again, the request it finds leaves no pending question behind: any it
// registers is withdrawn at once.
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
	s.term.expect(s.spec.ownPrompt, askBound)
	seen := time.Now()
	recs := s.turnHooks(path)
	lag := seen.Sub(recs[0].end())
	t.Logf("app frozen: %d hook runs, the first %d ms; the agent's own prompt %v after it ended", len(recs), recs[0].TookMS, lag.Round(10*time.Millisecond))
	s.sayNo()
	s.app.cont()
	resumed = true
	if exists(path) {
		t.Errorf("the command ran with the app frozen")
	}
	for _, r := range recs {
		if !s.steppedAside(r.Stdout) || r.took() > frozenMax {
			t.Errorf("hook with the app frozen: printed %q after %d ms (want nothing, within the one-second handshake and its slack: %v)", r.Stdout, r.TookMS, frozenMax)
		}
	}
	if recs[0].took() < frozenMin {
		t.Errorf("the first hook ended after %d ms, before the handshake's second: it never reached the frozen app", recs[0].TookMS)
	}
	bound := s.promptBound()
	if s.spec.notifiesFirst {
		for _, r := range s.hooksFor(path) {
			if strings.Contains(r.Stdin, `"hook_event_name":"Notification"`) {
				t.Logf("its notification hook: %d ms, ended %v before the prompt was seen", r.TookMS, seen.Sub(r.end()).Round(10*time.Millisecond))
			}
		}
	}
	if lag > bound {
		t.Errorf("the agent's own prompt came %v after the hook stepped aside, want within %v", lag, bound)
	}
	s.resumedWithdraws(path)
}

// resumedWithdraws checks that an app resumed after a SIGSTOP leaves no
// question for the call that writes path: any it registers from the request
// it finds (it may read it only a moment after SIGCONT) ends withdrawn, and
// none is pending stepAside after the resume. The agent's notice that it
// asks in its terminal is no question: it stays until the session's next
// event (docs/hooks.md; Copilot CLI sends none after a No), so it is left
// out.
func (s *session) resumedWithdraws(path string) {
	s.t.Helper()
	deadline := time.Now().Add(stepAside)
	var items []control.Item
	for {
		items = slices.DeleteFunc(s.app.itemsAbout(path), func(it control.Item) bool { return it.Question.Kind == question.KindNotice })
		open := slices.ContainsFunc(items, func(it control.Item) bool { return it.Result == nil })
		if !open && (len(items) > 0 || time.Now().After(deadline)) {
			break // ended, or none registered within the bound
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the resumed app still holds a question for the turn its hook stepped aside from, %v after the resume", stepAside)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, it := range items {
		if it.Result.Outcome != question.Withdrawn {
			s.t.Errorf("the resumed app's question for the turn ended %+v, want withdrawn", it.Result)
		}
	}
	s.t.Logf("app resumed: %d questions for the turn, all withdrawn", len(items))
}

// turnHooks waits for the hook runs about the tool call that writes path
// (a run is recorded when it ends; the prompt's own hook, which names path
// too, is left out) and returns them, oldest first; none is a failure: the
// turn would prove nothing of the hook.
func (s *session) turnHooks(path string) []hookRecord {
	s.t.Helper()
	var recs []hookRecord
	if !waitUntil(5*time.Second, func() bool {
		recs = recs[:0]
		for _, r := range s.hooksFor(path) {
			if strings.Contains(r.Stdin, `"tool_name"`) || strings.Contains(r.Stdin, `"toolName"`) || strings.Contains(r.Stdin, `"type":"permission.asked"`) {
				recs = append(recs, r)
			}
		}
		return len(recs) > 0
	}) {
		s.t.Fatalf("no hook ran for the call that writes %s, so this turn proves nothing", path)
	}
	return recs
}

// steppedAside reports whether out is what the agent's hook prints when it
// steps aside: nothing, or (agentSpec.stepAside) the answer that opens the
// agent's own prompt.
func (s *session) steppedAside(out string) bool {
	if s.spec.stepAside == "" {
		return out == ""
	}
	return strings.HasPrefix(out, s.spec.stepAside)
}

// sayNo answers the agent's own prompt with no and waits until it is gone.
func (s *session) sayNo() {
	s.t.Helper()
	s.term.keys(s.spec.no...)
	s.confirmNo()
	if !waitUntil(10*time.Second, func() bool { return !s.showsOwnPrompt() }) {
		s.t.Fatalf("the agent's own prompt stayed after saying no")
	}
}
