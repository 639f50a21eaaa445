package historyview

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/question"
)

// The history detail shows what an approval asked for: the tool, the
// action's details, the agent's reason and the risk.
func TestHistory_DetailShowsApprovalFields(t *testing.T) {
	s := historytest.New(t)
	seedHistory(t, s, []seedRec{{time.Minute, 2 * time.Second, question.Question{Kind: question.KindApproval, Client: seedClient("claude-code", "2.1.3"),
		Message: "Bash", Tool: "permission_prompt", Action: "Bash", Details: "```sh\nrm -rf build/ \u202e#\n```", AgentReason: "Clean the build output", Risk: question.RiskHigh,
		RiskWhy: "deletes files recursively, `rm -r`"},
		&question.Result{Outcome: question.AutoApproved, DecidedBy: question.ByRule, Reason: question.ReasonRule, Via: question.ViaRule, RuleID: "r9"}}})
	x := newHistHarness(t, s).show()
	h, d := x.h, x.h.detail
	h.list.Select(0)
	rt := d.message.Objects[0].(*widget.RichText)
	text := rt.String()
	for _, want := range []string{"Bash", "rm -rf build/ ⟨U+202E⟩#", "Why: Clean the build output", "Risk: High risk: deletes files recursively, “rm -r”."} {
		if !strings.Contains(text, want) {
			t.Errorf("detail lacks %q:\n%s", want, text)
		}
	}
	if strings.ContainsRune(text, '\u202e') {
		t.Errorf("the history shows an invisible override:\n%q", text)
	}
	if d.kind.Text != "Approval, via permission_prompt" {
		t.Errorf("kind %q", d.kind.Text)
	}
	if d.decider.Text != "·  Rule r9" {
		t.Errorf("decider %q", d.decider.Text)
	}
}
