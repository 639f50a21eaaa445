package question

import (
	"encoding/json"
	"strings"
	"testing"
)

// An agent is told to go ahead only when the outcome says yes: every other
// outcome, for every kind and reason, tells it something that is not
// "Proceed", and each guidance says what happened in one full sentence.
func TestGuide_ProceedsOnlyOnYes(t *testing.T) {
	t.Parallel()
	reasons := []Reason{"", ReasonTimeout, ReasonRule, ReasonAway, ReasonHandedBack, ReasonStopped, ReasonAnsweredInAgent}
	for _, k := range Kinds {
		for _, o := range Outcomes {
			for _, why := range reasons {
				for _, v := range []string{`"yes"`, `"no"`, `"allow"`} {
					q := Question{Kind: k}
					r := Result{Outcome: o, Reason: why, RuleID: "r1", Value: json.RawMessage(v)}
					g := Guide(q, r)
					if g.Said == "" || !strings.HasSuffix(g.Said, ".") {
						t.Errorf("%s %s %s: Said %q is not a sentence", k, o, why, g.Said)
					}
					yes := o == AutoApproved || (o == Answered && k == KindApproval)
					if strings.HasPrefix(g.Do, "Proceed") != yes {
						t.Errorf("%s %s %s %s: Do %q (says yes: %v)", k, o, why, v, g.Do, yes)
					}
				}
			}
		}
	}
}

func TestGuide_Words(t *testing.T) {
	t.Parallel()
	approval := Question{Kind: KindApproval}
	cases := []struct {
		name string
		q    Question
		r    Result
		want string
	}{
		{"denied with a note", approval, Result{Outcome: Declined, Note: "use npm ci"},
			`The user denied this action in Asktray. Their note: "use npm ci". Do not do it, and do not try to reach the same result another way; ask the user or continue without it.`},
		{"rule denies with its note", approval, Result{Outcome: AutoRejected, Reason: ReasonRule, RuleID: "r7", Note: "not today"},
			`A rule the user made in Asktray (rule r7) denies this. Their note: "not today". Do not proceed, and do not try to reach the same result another way.`},
		{"allowed with a rule", approval, Result{Outcome: Answered, RuleID: "r2"},
			"The user allowed this and made a rule (r2) for actions like it. Proceed with exactly the action you described."},
		{"confirm answered no", Question{Kind: KindConfirm}, Result{Outcome: Answered, Value: json.RawMessage(`"no"`)},
			"The user answered no. Do not proceed with the action; continue without it or ask what they want instead."},
		{"a choice's note is its free text", Question{Kind: KindChoice}, Result{Outcome: Answered, Value: json.RawMessage(`["a"]`), Note: "and b"},
			"The user answered. Use the answer and continue."},
		{"a declined choice keeps its note", Question{Kind: KindChoice}, Result{Outcome: Declined, Note: "ask later"},
			`The user declined. Their note: "ask later". Do not proceed with this action and do not ask the same question again right away.`},
		{"notice", Question{Kind: KindNotice}, Result{Outcome: Answered, Note: "ignored"}, "The user acknowledged the notice."},
		{"timeout", approval, Result{Outcome: AutoRejected, Reason: ReasonTimeout},
			"Nobody answered in Asktray before the deadline, so the answer is no. Do not proceed and do not assume an answer; ask again later if it is still needed."},
	}
	for _, tc := range cases {
		if got := Guide(tc.q, tc.r).Text(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}
