package policy

import (
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

// TestAskRule: an ask rule sends what it matches to the person. It beats an
// allow rule as specific (and a more general one), loses to a deny rule as
// specific, escapes the high-risk guard (it allows nothing), decides nothing
// in the Gate, and leaves away mode to hold or reject as with no rule.
func TestAskRule(t *testing.T) {
	t.Parallel()
	bash := approval("claude-code", "s1", "permission_prompt", "Bash", question.RiskMedium)
	high := approval("claude-code", "s1", "permission_prompt", "Bash", question.RiskHigh)
	cases := []struct {
		name  string
		rules []Rule
		q     question.Question
		want  string
	}{
		{"ask_alone", []Rule{rule("k", "*", "permission_prompt:Bash", Ask)}, bash, "k"},
		{"ask_beats_allow_same_specificity", []Rule{rule("a", "*", "permission_prompt:Bash", Allow), rule("k", "*", "permission_prompt:Bash", Ask)}, bash, "k"},
		{"ask_beats_allow_order_independent", []Rule{rule("k", "*", "permission_prompt:Bash", Ask), rule("a", "*", "permission_prompt:Bash", Allow)}, bash, "k"},
		{"deny_beats_ask", []Rule{rule("k", "*", "permission_prompt:Bash", Ask), rule("d", "*", "permission_prompt:Bash", Deny)}, bash, "d"},
		{"specific_allow_beats_general_ask", []Rule{rule("k", "*", "*", Ask), rule("a", "claude-code", "permission_prompt:Bash", Allow)}, bash, "a"},
		{"specific_ask_beats_general_allow", []Rule{rule("a", "*", "*", Allow), rule("k", "claude-code", "permission_prompt:Bash", Ask)}, bash, "k"},
		{"ask_applies_to_guarded", []Rule{rule("k", "*", "*", Ask)}, high, "k"},
	}
	for _, c := range cases {
		p := &Policy{rules: c.rules, mode: AwayHold}
		got, ok := p.Match(c.q, t0)
		if !ok || got.ID != c.want {
			t.Errorf("%s: matched %q (%v), want %q", c.name, got.ID, ok, c.want)
		}
	}

	p := &Policy{rules: []Rule{rule("a", "*", "*", Allow), rule("k", "claude-code", "permission_prompt:Bash", Ask)}, mode: AwayHold, now: func() time.Time { return t0 }}
	if res, ok := p.Gate(bash); ok {
		t.Errorf("Gate decided a question an ask rule matches: %+v", res)
	}
	if res, ok := p.Gate(approval("claude-code", "s1", "permission_prompt", "Edit", question.RiskMedium)); !ok || res.RuleID != "a" {
		t.Errorf("Gate with no ask rule matching: %+v %v, want the allow rule", res, ok)
	}
	p.away = true
	if h := p.Judge(bash).Hold; h != Held {
		t.Errorf("away hold with an ask rule: %v, want Held", h)
	}
	p.mode = AwayReject
	if res, ok := p.Gate(bash); !ok || res.Reason != question.ReasonAway {
		t.Errorf("away reject with an ask rule: %+v %v, want rejected for away", res, ok)
	}
}

// TestAskRuleValidates: ask is a decision a rule may hold and the file keeps;
// anything else is refused naming the three.
func TestAskRuleValidates(t *testing.T) {
	t.Parallel()
	p, _ := openTemp(t)
	r, err := p.Add(Rule{Client: "claude-code", Action: "permission_request:Bash", Decision: Ask, Scope: ScopeAlways})
	if err != nil {
		t.Fatalf("add ask rule: %v", err)
	}
	q, err := Open(p.path)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := q.Rule(r.ID); !ok || got.Decision != Ask {
		t.Errorf("reopened: %+v %v", got, ok)
	}
	_, err = p.Add(Rule{Client: "*", Action: "*", Decision: "maybe", Scope: ScopeAlways})
	if err == nil || err.Error() != `decision: "maybe" is not one of allow, ask, deny` {
		t.Errorf("bad decision: %v", err)
	}
}

// TestAskPrefixRule: an ask rule by command prefix covering one command of
// a line sends the whole line to the person, even when an allow prefix
// covers every command.
func TestAskPrefixRule(t *testing.T) {
	t.Parallel()
	q := approval("claude-code", "s1", "permission_request", "Bash", question.RiskMedium)
	q.Input = []byte(`{"command":"git status && git push origin main"}`)
	q.Cwd = "/home/me/src"
	allow := rule("a", "claude-code", "permission_request:Bash", Allow)
	allow.Match, allow.Pattern = MatchPrefix, "git"
	ask := rule("k", "claude-code", "permission_request:Bash", Ask)
	ask.Match, ask.Pattern = MatchPrefix, "git push"
	p := &Policy{rules: []Rule{allow, ask}, mode: AwayHold}
	if got, ok := p.Match(q, t0); !ok || got.ID != "k" {
		t.Errorf("matched %q (%v), want the ask rule", got.ID, ok)
	}
	p.rules = []Rule{allow}
	if got, ok := p.Match(q, t0); !ok || got.ID != "a" {
		t.Errorf("without the ask rule: matched %q (%v), want the allow rule", got.ID, ok)
	}
}
