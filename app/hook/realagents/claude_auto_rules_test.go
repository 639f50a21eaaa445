//go:build realagents

package realagents

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// autoOwnTool: with the MCP entry and the hooks both installed, Claude Code
// calls Asktray's ask_user (mcp__asktray__ask_user): its PreToolUse hook
// allows it at once, so the tray asks exactly one question, the tool's own,
// and the answer given there reaches the model as the tool's result.
func autoOwnTool(t *testing.T, s *session) {
	text := "Which colour for autoown"
	s.say("MCP<<" + text + ">>")
	q := s.app.waitQuestion(text, askBound)
	if q.Kind != question.KindText || q.Tool != "ask_user" {
		t.Fatalf("the tray asked %s (tool %q), want ask_user's own question: %+v", q.Kind, q.Tool, q)
	}
	answer := "teal-autoown"
	s.app.answer(q.ID, "--accept", `"`+answer+`"`)
	if !waitUntil(askBound, func() bool { return s.model.sentResult(answer) }) {
		t.Fatalf("the model did not get the answer %q", answer)
	}
	s.term.expect("REPLY<<", askBound)
	if items := s.app.itemsAbout(text); len(items) != 1 {
		t.Errorf("%d tray questions for one ask_user call, want its own only: %+v", len(items), items)
	}
	var pre []hookRecord
	for _, r := range s.preToolUse(text) {
		if strings.Contains(r.Stdin, ownAskUser) {
			pre = append(pre, r)
		}
	}
	if len(pre) != 1 || !strings.Contains(pre[0].Stdout, `"permissionDecision":"allow"`) {
		t.Errorf("PreToolUse for %s: %+v, want one run that allows at once", ownAskUser, pre)
	}
}

// Standing rules the auto session starts with: an allow rule (confirmed as
// high risk, for one exact command) for an rm -rf Claude Code's hook would
// otherwise bring to the tray, and a deny rule with a note for a command
// auto mode would otherwise run unasked.
const (
	ruleAllowName = "autoruleallow"
	ruleDenyName  = "autoruledeny"
	ruleDenyNote  = "the-rule-says-no"
)

// writeAutoRules writes the rules into the data dir's policy.json before
// the app starts (rules are made in the dialog and the Rules tab, which a
// headless app has not).
func writeAutoRules(s *session) {
	if err := os.MkdirAll(s.data, 0o700); err != nil {
		s.t.Fatal(err)
	}
	pol, err := policy.Open(filepath.Join(s.data, policy.File))
	if err != nil {
		s.t.Fatal(err)
	}
	_, allowCmd := s.victim(ruleAllowName)
	_, denyCmd := s.marker(ruleDenyName)
	action := hook.Tool + ":Bash"
	for _, r := range []policy.Rule{
		{Client: "claude-code", Action: action, Decision: policy.Allow, Scope: policy.ScopeAlways, Match: policy.MatchCommand, Pattern: allowCmd, HighRisk: true},
		{Client: "claude-code", Action: action, Decision: policy.Deny, Scope: policy.ScopeAlways, Match: policy.MatchCommand, Pattern: denyCmd, Note: ruleDenyNote},
	} {
		if _, err := pol.Add(r); err != nil {
			s.t.Fatalf("rule %+v: %v", r, err)
		}
	}
}

// autoRules: the allow rule runs its rm -rf and the deny rule blocks its
// command, neither asking in the tray (each call's one history row is the
// rule's decision); the model reads the deny rule's note as the tool's
// result.
func autoRules(t *testing.T, s *session) {
	dir, cmd := filepath.Join(s.work, ruleAllowName), "rm -rf "+filepath.Join(s.work, ruleAllowName)+" && echo ran-"+ruleAllowName
	s.ask(cmd)
	if !waitUntil(askBound, func() bool { return !exists(dir) }) {
		t.Fatalf("the command the allow rule covers did not run")
	}
	s.term.expect("REPLY<<", askBound)
	s.decidedByRule(dir, question.AutoApproved)

	path, cmd := s.marker(ruleDenyName)
	s.ask(cmd)
	if !waitUntil(askBound, func() bool { return s.model.sentResult(ruleDenyNote) }) {
		t.Fatalf("the model did not get the deny rule's note %q as the tool's result", ruleDenyNote)
	}
	if exists(path) {
		t.Errorf("the command the deny rule covers ran")
	}
	s.decidedByRule(path, question.AutoRejected)
}

// decidedByRule checks that the call about sub has exactly one history row,
// a rule's decision with outcome want: asked of nobody.
func (s *session) decidedByRule(sub string, want question.Outcome) {
	s.t.Helper()
	var items []control.Item
	if !waitUntil(5*time.Second, func() bool { items = s.app.itemsAbout(sub); return len(items) > 0 }) {
		s.t.Fatalf("no history row for %s: no rule decided it", sub)
	}
	if r := items[0].Result; len(items) != 1 || r == nil || r.Outcome != want || r.DecidedBy != question.ByRule {
		s.t.Errorf("history for %s: %d rows, the first %+v; want one, %s by a rule", sub, len(items), items[0].Result, want)
	}
}

// itemsAbout lists the history rows, pending or ended, whose question's
// details or message hold sub.
func (a *appProc) itemsAbout(sub string) []control.Item {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	p, err := a.ctl.History(ctx, control.HistoryQuery{Search: filepath.Base(sub)})
	if err != nil {
		a.t.Fatalf("history: %v", err)
	}
	var out []control.Item
	for _, it := range p.Items {
		if strings.Contains(it.Question.Details+it.Question.Message, sub) {
			out = append(out, it)
		}
	}
	return out
}
