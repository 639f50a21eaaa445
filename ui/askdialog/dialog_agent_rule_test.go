package askdialog

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
)

// agentRuleApproval is a hook approval with Claude Code's suggestions as
// hook.Suggestions labels them.
func agentRuleApproval() question.Question {
	q := bashApproval("npm run lint -- --fix")
	q.Client = question.Client{Name: "claude-code", SessionID: "abc123"}
	q.AgentRules = []question.Option{
		{Label: "Always allow Bash(npm run lint:*) in this project (Claude Code's local settings)"},
		{Label: "Allow access to /home/u/app/packages/shared-config for this session (Claude Code keeps it)"},
	}
	return q
}

// openAgentRulesByMenu opens Always… and picks its last item by keyboard,
// as Fyne's menu runs it: the menu is dismissed first, then the item acts.
func openAgentRulesByMenu(t *testing.T, d *questionDialog) *alwaysPanel {
	t.Helper()
	test.Tap(d.alwaysButton)
	m := d.alwaysMenu
	if m == nil || d.alwaysPopup == nil {
		t.Fatal("no Always… menu")
	}
	if last := m.Items[len(m.Items)-1]; last.Label != "Allow, and let claude-code keep a rule…" || !m.Items[len(m.Items)-2].IsSeparator {
		t.Fatalf("menu ends with %q", last.Label)
	}
	for range len(m.Items) - 1 { // the separator is skipped, the first Down lands on item 1
		d.alwaysPopup.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	}
	d.alwaysPopup.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if d.always == nil || len(d.always.answers) != 2 {
		t.Fatalf("the agent's rules panel did not open: %+v", d.always)
	}
	return d.always
}

// TestApprovalDialog_AgentRule: Always… ends with the agent's own standing
// permissions (Claude Code's suggestions); the item opens a panel showing
// each label in full, wrapped, and a rule's button, tapped once the arm
// delay has passed, allows with that rule and makes no Asktray rule.
// (TestHook_AgentRule in app/hookservice checks that the agent then gets
// the suggestion back as updatedPermissions.)
func TestApprovalDialog_AgentRule(t *testing.T) {
	e, pol := newApprovalEnv(t)
	q := agentRuleApproval()
	d := e.ask(q)
	d.guard.arm()
	p := openAgentRulesByMenu(t, d)
	var labels []*widget.Label
	for _, o := range test.LaidOutObjects(p.pop.Content) {
		if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, "Always allow Bash(npm run lint:*)") {
			labels = append(labels, l)
		}
	}
	if len(labels) != 1 || labels[0].Text != "1. "+q.AgentRules[0].Label || labels[0].Wrapping != fyne.TextWrapWord {
		t.Fatalf("the rule's label: %+v", labels)
	}
	test.Tap(p.answers[0]) // the panel restarted the arm delay
	if _, res, _ := e.broker.Get(d.q.ID); res != nil || d.always != p {
		t.Fatalf("answered before the arm delay: %+v", res)
	}
	e.clock.advance(question.DefaultArmDelay)
	test.Tap(p.answers[0])
	res := e.result(d.q.ID)
	if label, ok := question.AgentRuleChoice(res.Value); res.Outcome != question.Answered || !ok || label != q.AgentRules[0].Label || res.Via != question.ViaDialog {
		t.Fatalf("result %+v %s", res, res.Value)
	}
	if len(pol.Rules()) != 0 {
		t.Fatalf("an Asktray rule was made: %+v", pol.Rules())
	}
}

// TestApprovalDialog_AgentRuleByKeyboard: the second rule's button, pressed
// with Space once armed, allows with that rule; Escape first closes the
// panel without answering.
func TestApprovalDialog_AgentRuleByKeyboard(t *testing.T) {
	e, _ := newApprovalEnv(t)
	q := agentRuleApproval()
	d := e.ask(q)
	d.guard.arm()
	openAgentRulesByMenu(t, d)
	e.press(d, fyne.KeyEscape)
	if d.always != nil || d.done {
		t.Fatalf("Escape: panel %v, done %v", d.always, d.done)
	}
	e.clock.advance(question.DefaultArmDelay) // closing restarted the arm delay
	p := openAgentRulesByMenu(t, d)
	e.clock.advance(question.DefaultArmDelay)
	d.win.Canvas().Focus(p.answers[1])
	e.press(d, fyne.KeySpace)
	res := e.result(d.q.ID)
	if label, ok := question.AgentRuleChoice(res.Value); !ok || label != q.AgentRules[1].Label {
		t.Fatalf("result %+v %s", res, res.Value)
	}
}
