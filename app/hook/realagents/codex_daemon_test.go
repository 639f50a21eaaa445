//go:build realagents

package realagents

import (
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// TestCodexDaemonOutlivesTerminal is finding 6 of issue 25. Codex runs its
// hooks from its app-server daemon, which the first terminal UI starts and
// which outlives it. With the daemon left by an earlier terminal, the hook's
// parent and grandparent stay when the asking terminal closes; the hook
// watches the one terminal UI in the session's folder instead, so closing
// that terminal ends the tray question (withdrawn) and nothing runs. With
// two terminal UIs in the folder the hook cannot tell which asks: the
// question says Codex may no longer be waiting.
func TestCodexDaemonOutlivesTerminal(t *testing.T) {
	t.Parallel()
	s := startSession(t, codex)
	// The first terminal started the daemon; it closes, the daemon stays.
	s.term.tmux("kill-server")
	s.term.reap()
	s.term = startTerm(t, s.work, s.env, codex.argv(s)...)
	s.term.expect(codex.ready, 60*time.Second)

	path, cmd := s.marker("closed")
	s.ask(cmd)
	q := s.app.waitQuestion(path, askBound)
	line := present.AsksFromBackground("Codex")
	if strings.Contains(q.Details, line) {
		t.Errorf("one terminal UI to watch, and the question says Codex may not wait:\n%s", q.Details)
	}
	start := time.Now()
	s.term.tmux("kill-server")
	s.term.reap()
	res := s.app.waitEnded(q.ID, askBound)
	t.Logf("terminal closed: the question ended %s by %s after %v", res.Outcome, res.DecidedBy, time.Since(start).Round(10*time.Millisecond))
	if res.Outcome != question.Withdrawn || res.DecidedBy != question.ByAgent {
		t.Errorf("after the terminal closed: %+v", res)
	}
	if waitUntil(3*time.Second, func() bool { return exists(path) }) {
		t.Errorf("the command ran after its terminal closed")
	}

	// Two terminal UIs in the folder: the hook cannot tell which asks.
	other := startTerm(t, s.work, s.env, codex.argv(s)...)
	other.expect(codex.ready, 60*time.Second)
	s.term = startTerm(t, s.work, s.env, codex.argv(s)...)
	s.term.expect(codex.ready, 60*time.Second)
	path, cmd = s.marker("two")
	s.ask(cmd)
	q = s.app.waitQuestion(path, askBound)
	if !strings.HasPrefix(q.Details, "_"+line+"_") {
		t.Errorf("two terminal UIs, and the question does not say Codex may not wait:\n%s", q.Details)
	}
	s.app.answer(q.ID, "--cancel")
	s.term.expect(codex.ownPrompt, stepAside)
	s.sayNo()
	if exists(path) {
		t.Errorf("the command ran after a dismissal and a no in Codex")
	}
}
