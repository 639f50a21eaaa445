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

// withMCPAndRules is spec with Asktray's MCP entry beside the hooks, as a
// person who ran both `asktray config claude-code --write` and `--hooks
// --write` has it (its tools listed in each request rather than behind a
// tool search), and the standing rules of writeRules.
func withMCPAndRules(spec agentSpec) agentSpec {
	setup := spec.setup
	spec.setup = func(s *session) []string {
		env := setup(s)
		if r := run(s.t, []string{"HOME=" + s.home}, "config", "claude-code", "--write", "--data-dir", s.data); r.Code != 0 {
			s.t.Fatalf("asktray config claude-code --write: %+v", r)
		}
		return append(env, "ENABLE_TOOL_SEARCH=false")
	}
	spec.beforeApp = writeRules
	return spec
}

// claudeManualMore is Claude Code in Manual mode with the MCP entry and the
// rules, where PreToolUse and PermissionRequest both fire.
var claudeManualMore = withMCPAndRules(claude)

// TestClaudeCodeManualMore (issue 32): the auto-mode turns that do not
// depend on auto mode's classifier, in Manual mode: Claude's own question,
// Asktray's own tool and the rules, each asked at most once.
func TestClaudeCodeManualMore(t *testing.T) {
	t.Parallel()
	s := startSession(t, claudeManualMore)
	runTurns(t, s, []scenario{
		{"AskUserQuestion answered in the tray", autoAskUserQuestion},
		{"Asktray's own MCP tool is not asked about", ownTool},
		{"an allow rule and a deny rule decide without asking", rulesDecide},
	})
}

// ownTool: with the MCP entry and the hooks both installed, Claude Code
// calls Asktray's ask_user (mcp__asktray__ask_user): its PreToolUse hook
// allows it at once, so the tray asks exactly one question, the tool's own,
// and the answer given there reaches the model as the tool's result.
func ownTool(t *testing.T, s *session) {
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

// Standing rules the sessions withMCPAndRules start with: an allow rule (confirmed as
// high risk, for one exact command) for an rm -rf Claude Code's hook would
// otherwise bring to the tray, and a deny rule with a note for a command
// auto mode would otherwise run unasked.
const (
	ruleAllowName = "autoruleallow"
	ruleDenyName  = "autoruledeny"
	ruleDenyNote  = "the-rule-says-no"
)

// writeRules writes the rules into the data dir's policy.json before
// the app starts (rules are made in the dialog and the Rules tab, which a
// headless app has not).
func writeRules(s *session) {
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

// rulesDecide: the allow rule runs its rm -rf and the deny rule blocks its
// command, neither asking in the tray (each call's one history row is the
// rule's decision); the model reads the deny rule's note as the tool's
// result.
func rulesDecide(t *testing.T, s *session) {
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
