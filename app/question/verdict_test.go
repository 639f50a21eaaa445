package question

import (
	"encoding/json"
	"testing"
)

func TestVerdictOf(t *testing.T) {
	t.Parallel()
	keep := Question{Kind: KindConfirm, YesLabel: "Switch", NoLabel: "Keep current"}
	for _, c := range []struct {
		name string
		q    Question
		r    *Result
		want Verdict
	}{
		{"pending", Question{Kind: KindApproval}, nil, VerdictPending},
		{"approval allowed", Question{Kind: KindApproval}, &Result{Outcome: Answered, DecidedBy: ByHuman, Value: json.RawMessage(`"allow"`)}, VerdictAllowed},
		{"approval allowed with the agent's rule", Question{Kind: KindApproval}, &Result{Outcome: Answered, DecidedBy: ByHuman, Value: AgentRuleValue("Bash(ls:*)")}, VerdictAllowed},
		{"approval denied", Question{Kind: KindApproval}, &Result{Outcome: Declined, DecidedBy: ByHuman}, VerdictDenied},
		{"confirm yes", keep, &Result{Outcome: Answered, DecidedBy: ByHuman, Value: json.RawMessage(`"yes"`)}, VerdictAllowed},
		{"confirm no (Keep current)", keep, &Result{Outcome: Answered, DecidedBy: ByHuman, Value: json.RawMessage(`"no"`)}, VerdictDenied},
		{"confirm false", keep, &Result{Outcome: Answered, DecidedBy: ByHuman, Value: json.RawMessage(` false `)}, VerdictDenied},
		{"confirm declined", keep, &Result{Outcome: Declined, DecidedBy: ByHuman}, VerdictDeclined},
		{"choice answered", Question{Kind: KindChoice}, &Result{Outcome: Answered, DecidedBy: ByHuman, Value: json.RawMessage(`["no"]`)}, VerdictAnswered},
		{"text answered no", Question{Kind: KindText}, &Result{Outcome: Answered, DecidedBy: ByHuman, Value: json.RawMessage(`"no"`)}, VerdictAnswered},
		{"text declined", Question{Kind: KindText}, &Result{Outcome: Declined, DecidedBy: ByHuman}, VerdictDeclined},
		{"rule allowed", Question{Kind: KindApproval}, &Result{Outcome: AutoApproved, DecidedBy: ByRule, Reason: ReasonRule, RuleID: "r1"}, VerdictRuleAllowed},
		{"rule denied", Question{Kind: KindApproval}, &Result{Outcome: AutoRejected, DecidedBy: ByRule, Reason: ReasonRule, RuleID: "r2"}, VerdictRuleDenied},
		{"timed out", Question{Kind: KindConfirm}, &Result{Outcome: AutoRejected, DecidedBy: ByTimeout, Reason: ReasonTimeout}, VerdictTimedOut},
		{"hook window ended", Question{Kind: KindApproval}, &Result{Outcome: Withdrawn, DecidedBy: ByAgent, Reason: ReasonTimeout}, VerdictTimedOut},
		{"away", Question{Kind: KindText}, &Result{Outcome: AutoRejected, DecidedBy: ByApp, Reason: ReasonAway}, VerdictAway},
		{"handed back", Question{Kind: KindText}, &Result{Outcome: AutoRejected, DecidedBy: ByApp, Reason: ReasonHandedBack}, VerdictAway},
		{"withdrawn", Question{Kind: KindChoice}, &Result{Outcome: Withdrawn, DecidedBy: ByAgent}, VerdictWithdrawn},
		{"answered in the agent", Question{Kind: KindApproval}, &Result{Outcome: Withdrawn, DecidedBy: ByAgent, Reason: ReasonAnsweredInAgent}, VerdictWithdrawn},
		{"cancelled", Question{Kind: KindApproval}, &Result{Outcome: Cancelled, DecidedBy: ByHuman}, VerdictCancelled},
		{"blocked by the agent's auto mode", Question{Kind: KindApproval}, &Result{Outcome: AutoRejected, DecidedBy: ByAgent, Reason: ReasonAgentBlocked, Note: "[Irreversible Local Destruction]"}, VerdictAgentBlocked},
		{"interrupted", Question{Kind: KindText}, &Result{Outcome: Interrupted, DecidedBy: ByApp, Reason: ReasonStopped}, VerdictInterrupted},
	} {
		if got := VerdictOf(&c.q, c.r); got != c.want {
			t.Errorf("%s: VerdictOf = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestVerdictsCoverEveryOutcome: every outcome maps to a valid verdict, and
// every verdict but pending is what some result reads as.
func TestVerdictsCoverEveryOutcome(t *testing.T) {
	t.Parallel()
	seen := map[Verdict]bool{VerdictPending: true}
	reasons := []Reason{"", ReasonTimeout, ReasonRule, ReasonAway, ReasonHandedBack, ReasonStopped, ReasonAnsweredInAgent, ReasonAgentBlocked}
	values := []json.RawMessage{nil, json.RawMessage(`"yes"`), json.RawMessage(`"no"`), json.RawMessage(`"allow"`)}
	for _, o := range Outcomes {
		for _, k := range Kinds {
			for _, why := range reasons {
				for _, v := range values {
					got := VerdictFor(k, State(o), why, ByHuman, v)
					if !got.Valid() || got == VerdictPending {
						t.Fatalf("%s %s %s %s: verdict %q", o, k, why, v, got)
					}
					seen[got] = true
				}
			}
		}
	}
	for _, v := range Verdicts {
		if !seen[v] {
			t.Errorf("no result reads as %q", v)
		}
	}
	if VerdictFor(KindText, StatePending, "", "", nil) != VerdictPending || Verdict("allowed ").Valid() {
		t.Error("pending or Valid is wrong")
	}
}
