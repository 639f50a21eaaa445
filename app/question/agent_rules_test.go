package question

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestAgentRules(t *testing.T) {
	t.Parallel()
	q := Question{Kind: KindApproval, Message: "Bash", AgentRules: []Option{{Label: "Always allow Bash(ls)"}}}
	if err := q.Validate(); err != nil {
		t.Fatal(err)
	}
	for raw, want := range map[string]string{
		`"allow"`:                                 `"allow"`,
		`{"agent_rule":"Always allow Bash(ls)"}`:  `{"agent_rule":"Always allow Bash(ls)"}`,
		`{"agent_rule": "Always allow Bash(ls)"}`: `{"agent_rule":"Always allow Bash(ls)"}`,
	} {
		r, err := q.CheckResponse(Response{Action: Accept, Value: json.RawMessage(raw)})
		if err != nil || string(r.Value) != want {
			t.Errorf("%s: %s, %v", raw, r.Value, err)
		}
	}
	for _, raw := range []string{`{"agent_rule":"Always allow Bash(rm)"}`, `{"agent_rule":"Always allow Bash(ls)","x":1}`, `{"agent_rule":""}`} {
		if _, err := q.CheckResponse(Response{Action: Accept, Value: json.RawMessage(raw)}); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s accepted: %v", raw, err)
		}
	}
	// Without agent rules the value stays "allow" only.
	plain := Question{Kind: KindApproval, Message: "Bash"}
	if _, err := plain.CheckResponse(Response{Action: Accept, Value: AgentRuleValue("x")}); !errors.Is(err, ErrInvalid) {
		t.Errorf("agent rule accepted without agent rules: %v", err)
	}
	bad := []Question{
		{Kind: KindConfirm, Message: "ok?", AgentRules: []Option{{Label: "a"}}},
		{Kind: KindApproval, Message: "x", AgentRules: []Option{{Label: "a"}, {Label: "a"}}},
		{Kind: KindApproval, Message: "x", AgentRules: []Option{{Label: ""}}},
		{Kind: KindApproval, Message: "x", AgentRules: []Option{{Label: strings.Repeat("a", MaxLabel+1)}}},
	}
	for _, b := range bad {
		if err := b.Validate(); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "agent_rules") {
			t.Errorf("%+v: %v", b.AgentRules, err)
		}
	}
}
