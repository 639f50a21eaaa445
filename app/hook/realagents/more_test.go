//go:build realagents

package realagents

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// notification: the person dismisses the tray question and leaves the
// agent's own prompt unanswered; the agent's notification of it reaches the
// tray as a notice of that agent.
func notification(t *testing.T, s *session) {
	before := s.app.noticeIDs()
	path, cmd := s.marker("notice")
	s.ask(cmd)
	q := s.app.waitQuestion(path, askBound)
	s.app.answer(q.ID, "--cancel")
	s.term.expect(s.spec.ownPrompt, s.promptBound())
	var n question.Question
	if !waitUntil(noticeBound, func() bool {
		for _, p := range s.app.pending() {
			if p.Kind == question.KindNotice && p.Client.Name == s.spec.name && !slices.Contains(before, p.ID) {
				n = p
				return true
			}
		}
		return false
	}) {
		t.Fatalf("no notice from %s within %v of its own prompt", s.spec.name, noticeBound)
	}
	if !strings.Contains(n.Header+n.Message, s.spec.noticeWords) {
		t.Errorf("notice %q / %q does not say %q", n.Header, n.Message, s.spec.noticeWords)
	}
	if where := "(session " + present.ShortSession(n.Client.SessionID) + "): "; n.Client.SessionID == "" || !strings.Contains(n.Message, where) {
		t.Errorf("notice %q does not name its session %q", n.Message, where)
	}
	t.Logf("notice: %q / %q", n.Header, n.Message)
	s.sayNo()
	if exists(path) {
		t.Errorf("the command ran after a dismissal and a no in the agent")
	}
	if s.spec.eventAfterNo {
		// The agent ends the turn on its no with an event of the session
		// (Qwen Code 0.24.4), which withdraws the notice.
		if res := s.app.waitEnded(n.ID, askBound); res.Outcome != question.Withdrawn || res.DecidedBy != question.ByAgent {
			t.Errorf("after the no, the notice ended %+v, want withdrawn by the agent", res)
		}
		return
	}
	time.Sleep(2 * time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// Neither agent sends an event after a no in its own prompt (Claude
	// Code 2.1.332, Copilot CLI 1.0.102), so the notice must still be
	// pending; the next turn's prompt must withdraw it (noticeWithdrawn).
	if it, err := s.app.ctl.Get(ctx, n.ID); err != nil || it.Result != nil {
		t.Errorf("after the no, the notice ended though no event of the session came: %+v, %v", it.Result, err)
		return
	}
	s.notice = n.ID
}

// noticeWithdrawn checks that the notice the notification scenario left,
// if any, was withdrawn by the session's next event (this turn's prompt).
func (s *session) noticeWithdrawn(t *testing.T) {
	if s.notice == "" {
		return
	}
	res := s.app.waitEnded(s.notice, askBound)
	s.notice = ""
	if res.Outcome != question.Withdrawn || res.Reason != question.ReasonAnsweredInAgent {
		t.Errorf("the last notice after the session's next prompt: %+v", res)
	}
}

// noticeBound is how long after its own prompt an agent may take to notify:
// Claude Code waits about 6 s without a keystroke.
const noticeBound = 30 * time.Second

// noticeIDs lists the pending notices.
func (a *appProc) noticeIDs() []string {
	var ids []string
	for _, q := range a.pending() {
		if q.Kind == question.KindNotice {
			ids = append(ids, q.ID)
		}
	}
	return ids
}

// answeredInAgent: while the tray asks, the person answers in the agent
// (its own prompt where it shows one beside the hook, else the key that
// stops the turn); the tray question ends, withdrawn by the agent, and the
// command runs only if the person said yes there.
func answeredInAgent(yes bool) func(t *testing.T, s *session) {
	return func(t *testing.T, s *session) {
		name := "agent-no"
		if yes {
			name = "agent-yes"
		}
		path, cmd := s.marker(name)
		s.ask(cmd)
		q := s.app.waitQuestion(path, askBound)
		s.noticeWithdrawn(t)
		switch {
		case yes:
			s.term.expect(s.spec.ownPrompt, stepAside)
			s.press(s.spec.yes)
		case s.spec.ownPromptBeside:
			s.term.expect(s.spec.ownPrompt, stepAside)
			s.press(s.spec.no)
		default:
			s.stopTurn(q.ID)
		}
		res := s.app.waitEnded(q.ID, askBound)
		// The agent cancelling its hook ends the question as withdrawn
		// (Claude Code's no, a stopped turn); its PostToolUse ends it as
		// answered in the agent.
		if res.Outcome != question.Withdrawn || res.DecidedBy != question.ByAgent {
			t.Errorf("tray question after the agent was answered: %+v", res)
		}
		t.Logf("tray question: %s by %s, reason %q", res.Outcome, res.DecidedBy, res.Reason)
		ran := waitUntil(5*time.Second, func() bool { return exists(path) })
		if ran != yes {
			t.Errorf("answered %v in the agent: the command ran: %v", yes, ran)
		}
	}
}

// press presses keys on the agent's own prompt until it is gone: a prompt
// drawn a moment ago may not take keys yet.
func (s *session) press(keys []string) {
	s.t.Helper()
	for range 5 {
		s.term.keys(keys...)
		if slices.Equal(keys, s.spec.no) {
			s.confirmNo()
		}
		if waitUntil(2*time.Second, func() bool { return !s.showsOwnPrompt() }) {
			return
		}
	}
	s.t.Fatalf("the agent's own prompt stayed after %v", keys)
}

// stopTurn presses the keys that stop a turn, one by one as typed, until
// question id ends: keys pressed as the agent starts its hook may be lost
// (Copilot CLI 1.0.102 once kept the turn running for 30 s after them).
func (s *session) stopTurn(id string) {
	s.t.Helper()
	for range 5 {
		for _, k := range s.spec.stop {
			s.term.keys(k)
			time.Sleep(300 * time.Millisecond)
		}
		if waitUntil(3*time.Second, func() bool { it, ok := s.app.item(id); return ok && it.Result != nil }) {
			return
		}
	}
}
