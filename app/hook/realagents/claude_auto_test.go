//go:build realagents

package realagents

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/question"
)

// claudeAuto is Claude Code as it starts by default: no --permission-mode,
// so auto mode, whose classifier the fake model answers in each answer of
// its own (safeguard_results: a command holding blockMark is flagged,
// every other call not).
var claudeAuto = func() agentSpec {
	s := claude
	s.name = "claude-code"
	s.argv = func(s *session) []string {
		return []string{agentBin(s.t, "claude-code"), "--model", fakeModel}
	}
	s.ready = "auto mode on"
	return withMCPAndRules(s)
}()

// TestClaudeCodeAuto (issue 32): the real Claude Code in its default auto
// mode, its hooks as `asktray config claude-code --hooks --write` installs
// them. Each turn checks what only the hook could have done, so it fails if
// the agent never called it.
func TestClaudeCodeAuto(t *testing.T) {
	t.Parallel()
	s := startSession(t, claudeAuto)
	runTurns(t, s, []scenario{
		{"low risk runs unasked", autoLowRisk},
		{"high risk allowed in the tray", autoHighAllowed},
		{"high risk denied in the tray", autoHighDenied},
		{"classifier block recorded", autoBlocked},
		{"AskUserQuestion answered in the tray", autoAskUserQuestion},
		{"Asktray's own MCP tool is not asked about", ownTool},
		{"an allow rule and a deny rule decide without asking", rulesDecide},
	})
}

// runTurns runs scs in s, one turn each; a failed turn leaves the agent in
// an unknown state, so the rest is skipped.
func runTurns(t *testing.T, s *session, scs []scenario) {
	for _, sc := range scs {
		if !t.Run(sc.name, func(t *testing.T) {
			s.t = t
			s.app.t, s.term.t = t, t
			sc.run(t, s)
		}) {
			t.Fatalf("%s failed; the later turns would run in an unknown state", sc.name)
		}
	}
}

// say types prompt and presses Enter again while the model has not seen it.
func (s *session) say(prompt string) {
	s.t.Helper()
	s.term.typeLine(prompt)
	for range 3 {
		if waitUntil(5*time.Second, func() bool { return s.model.saw(prompt) }) {
			return
		}
		s.term.keys("Enter")
	}
	s.t.Fatalf("the model never got the prompt %q", prompt)
}

// preToolUse returns the recorded PreToolUse hook runs whose stdin holds sub.
func (s *session) preToolUse(sub string) []hookRecord {
	var out []hookRecord
	for _, r := range s.hooksFor(sub) {
		if strings.Contains(r.Stdin, `"hook_event_name":"PreToolUse"`) {
			out = append(out, r)
		}
	}
	return out
}

// askedAbout lists the questions, pending or ended, whose details hold sub.
func (a *appProc) askedAbout(sub string) []question.Question {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	p, err := a.ctl.History(ctx, control.HistoryQuery{Search: filepath.Base(sub)})
	if err != nil {
		a.t.Fatalf("history: %v", err)
	}
	var out []question.Question
	for _, it := range p.Items {
		if strings.Contains(it.Question.Details+it.Question.Message, sub) {
			out = append(out, it.Question)
		}
	}
	return out
}

// autoLowRisk: a command graded low runs with no tray question; the hook
// ran for it and printed no decision.
func autoLowRisk(t *testing.T, s *session) {
	path, cmd := s.marker("autolow")
	s.ask(cmd)
	if !waitUntil(askBound, func() bool { return exists(path) }) {
		t.Fatalf("the low-risk command did not run")
	}
	s.term.expect("REPLY<<", askBound)
	recs := s.preToolUse(path)
	if len(recs) == 0 {
		t.Fatalf("no PreToolUse hook ran for %s", path)
	}
	if out := strings.TrimSpace(recs[0].Stdout); out != "" {
		t.Errorf("PreToolUse printed %q for a low-risk call, want no decision", out)
	}
	if qs := s.app.askedAbout(path); len(qs) != 0 {
		t.Errorf("asked in the tray: %+v", qs)
	}
}

// victim makes a folder in the work dir for a high-risk command to remove,
// and returns it with the command (rm -rf, graded high).
func (s *session) victim(name string) (dir, cmd string) {
	dir = filepath.Join(s.work, name)
	writeFile(s.t, filepath.Join(dir, "keep"), "x")
	return dir, "rm -rf " + dir + " && echo ran-" + name
}

// autoHighAllowed: a high-risk command comes to the tray; allowed there it
// runs, with no prompt of Claude Code's own and no second question.
func autoHighAllowed(t *testing.T, s *session) {
	dir, cmd := s.victim("autohigh")
	s.ask(cmd)
	q := s.app.waitQuestion(dir, askBound)
	if q.Risk != question.RiskHigh || q.Client.Name != "claude-code" || strings.Contains(q.Details, "asks in its terminal too") {
		t.Errorf("question %+v", q)
	}
	s.app.allow(q.ID)
	if !waitUntil(askBound, func() bool { return !exists(dir) }) {
		t.Fatalf("the allowed command did not run")
	}
	s.term.expect("REPLY<<", askBound)
	if qs := s.app.askedAbout(dir); len(qs) != 1 {
		t.Errorf("asked %d times, want once", len(qs))
	}
}

// autoHighDenied: denied in the tray with a note, the command does not run
// and the model reads the note.
func autoHighDenied(t *testing.T, s *session) {
	dir, cmd := s.victim("autodeny")
	s.ask(cmd)
	q := s.app.waitQuestion(dir, askBound)
	note := "keep-that-folder"
	s.app.answer(q.ID, "--decline", "--note", note)
	if !waitUntil(askBound, func() bool { return s.model.sentResult(note) }) {
		t.Fatalf("the model did not get the note %q", note)
	}
	if !exists(dir) {
		t.Errorf("the command ran after a deny")
	}
}

// autoBlocked: a call auto mode's classifier blocks does not run and is in
// the history as blocked by auto mode, with the classifier's reason, not as
// anyone's decision here.
func autoBlocked(t *testing.T, s *session) {
	path, cmd := s.marker("autoblock")
	cmd += " # " + blockMark
	s.ask(cmd)
	var found control.Item
	if !waitUntil(askBound, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		p, err := s.app.ctl.History(ctx, control.HistoryQuery{Verdicts: []string{string(question.VerdictAgentBlocked)}})
		if err != nil {
			return false
		}
		for _, it := range p.Items {
			if strings.Contains(it.Question.Details, path) {
				found = it
				return true
			}
		}
		return false
	}) {
		t.Fatalf("no history row blocked by auto mode for %s", path)
	}
	if r := found.Result; r == nil || r.DecidedBy != question.ByAgent || !strings.Contains(r.Note, blockMark) {
		t.Errorf("row %+v", found.Result)
	}
	if exists(path) {
		t.Errorf("the blocked command ran")
	}
}

// autoAskUserQuestion: Claude's AskUserQuestion is a choice in the tray;
// the answer picked there reaches the model, and Claude Code shows no
// question of its own.
func autoAskUserQuestion(t *testing.T, s *session) {
	text := "Which database for autoask?"
	s.say("ASK<<" + text + ">>")
	q := s.app.waitQuestion(text, askBound)
	if q.Kind != question.KindChoice || !slices.ContainsFunc(q.Options, func(o question.Option) bool { return o.Label == "Postgres" }) {
		t.Fatalf("question %+v", q)
	}
	s.app.answer(q.ID, "--accept", `["Postgres"]`)
	if !waitUntil(askBound, func() bool { return s.model.sentResult(`Postgres`) && s.model.sentResult(text) }) {
		t.Fatalf("the model did not get the answer")
	}
	s.term.expect("REPLY<<", askBound)
}

// manualOneQuestion: in Manual mode Claude Code fires PreToolUse and then,
// with no decision, PermissionRequest for the same call. A high-risk call
// comes to the tray from PreToolUse; dismissed there, Claude Code asks in
// its own prompt and the tray asks nothing more: one question per call.
func manualOneQuestion(t *testing.T, s *session) {
	dir, cmd := s.victim("manualonce")
	s.ask(cmd)
	q := s.app.waitQuestion(dir, askBound)
	s.app.answer(q.ID, "--cancel")
	s.term.expect(s.spec.ownPrompt, stepAside)
	// A hook's run is recorded when it ends.
	if !waitUntil(5*time.Second, func() bool { return len(s.preToolUse(dir)) > 0 }) {
		t.Fatalf("the question did not come from PreToolUse")
	}
	perm := waitUntil(5*time.Second, func() bool {
		for _, r := range s.hooksFor(dir) {
			if strings.Contains(r.Stdin, `"hook_event_name":"PermissionRequest"`) {
				return true
			}
		}
		return false
	})
	if !perm {
		t.Errorf("Claude Code sent no PermissionRequest for the call")
	}
	if qs := s.app.askedAbout(dir); len(qs) != 1 {
		t.Errorf("asked %d times for one call, want once", len(qs))
	}
	s.sayNo()
	if !exists(dir) {
		t.Errorf("the command ran after a dismissal and a no in the agent")
	}
}
