package askdialog

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app/question"
)

// TestApprovalDialog_AgentRule: Always… lists the agent's own standing
// permissions (Claude Code's suggestions) after Asktray's rules; picking one
// waits for the arm delay, then allows with it, and makes no Asktray rule.
func TestApprovalDialog_AgentRule(t *testing.T) {
	e, pol := newApprovalEnv(t)
	q := question.Question{Kind: question.KindApproval, Tool: "permission_request", Action: "Bash", Message: "Bash", Risk: question.RiskMedium,
		Client:     question.Client{Name: "claude-code", SessionID: "abc123"},
		Details:    "```sh\nrm -rf node_modules\n```",
		AgentRules: []question.Option{{Label: "Always allow Bash(rm -rf node_modules) in this project (Claude Code keeps it)"}}}
	d := e.ask(q)
	d.guard.arm()
	test.Tap(d.alwaysButton)
	m := d.alwaysMenu
	if m == nil || len(m.Items) != 4 || m.Items[0].Label != "Always allow…" || !m.Items[2].IsSeparator || m.Items[3].Label != q.AgentRules[0].Label {
		t.Fatalf("menu %+v", m)
	}
	m.Items[3].Action() // the menu restarted the arm delay
	if _, res, _ := e.broker.Get(d.q.ID); res != nil {
		t.Fatalf("answered before the arm delay: %+v", res)
	}
	e.clock.advance(question.DefaultArmDelay)
	m.Items[3].Action()
	res := e.result(d.q.ID)
	if label, ok := question.AgentRuleChoice(res.Value); res.Outcome != question.Answered || !ok || label != q.AgentRules[0].Label || res.Via != question.ViaDialog {
		t.Fatalf("result %+v %s", res, res.Value)
	}
	if len(pol.Rules()) != 0 {
		t.Fatalf("an Asktray rule was made: %+v", pol.Rules())
	}
}
