package question

import (
	"encoding/json"
	"testing"
)

func TestQuestion_Approves(t *testing.T) {
	t.Parallel()
	approval := Question{Kind: KindApproval, Action: "Deploy"}
	destructive := Question{Kind: KindConfirm, Destructive: true}
	confirm := Question{Kind: KindConfirm}
	accept := func(v string) Response { return Response{Action: Accept, Value: json.RawMessage(v)} }
	cases := []struct {
		name string
		q    Question
		r    Response
		want bool
	}{
		{"approval allow", approval, accept(`"allow"`), true},
		{"approval true", approval, accept(`true`), true},
		{"approval always (a rule with the answer)", approval, Response{Action: Accept, Value: json.RawMessage(`"allow"`), RuleID: "r1"}, true},
		{"approval with an agent rule", Question{Kind: KindApproval, Action: "Bash", AgentRules: []Option{{Label: "Bash(npm test:*)"}}},
			accept(`{"agent_rule":"Bash(npm test:*)"}`), true},
		{"approval odd value still counts", approval, accept(`"sure"`), true},
		{"approval deny", approval, Response{Action: Decline}, false},
		{"approval cancel", approval, Response{Action: Cancel}, false},
		{"destructive yes", destructive, accept(`"yes"`), true},
		{"destructive true", destructive, accept(` true `), true},
		{"destructive no value", destructive, accept(``), true},
		{"destructive no", destructive, accept(`"no"`), false},
		{"destructive false", destructive, accept(`false`), false},
		{"destructive decline", destructive, Response{Action: Decline}, false},
		{"plain confirm yes", confirm, accept(`"yes"`), false},
		{"text", Question{Kind: KindText}, accept(`"hello"`), false},
		{"choice", Question{Kind: KindChoice}, accept(`["a"]`), false},
		{"form", Question{Kind: KindForm}, accept(`{"a":1}`), false},
		{"notice", Question{Kind: KindNotice}, accept(`"ok"`), false},
	}
	for _, tc := range cases {
		if got := tc.q.Approves(tc.r); got != tc.want {
			t.Errorf("%s: Approves = %v, want %v", tc.name, got, tc.want)
		}
		// CanApprove is exactly "some answer approves": true for the
		// kinds whose accept may approve, and never for the others.
		if tc.want && !tc.q.CanApprove() {
			t.Errorf("%s: approves, but CanApprove is false", tc.name)
		}
	}
	for _, q := range []Question{{Kind: KindConfirm}, {Kind: KindText}, {Kind: KindChoice}, {Kind: KindMultiChoice}, {Kind: KindForm}, {Kind: KindNotice}} {
		if q.CanApprove() {
			t.Errorf("%s (destructive %v): CanApprove is true", q.Kind, q.Destructive)
		}
	}
}
