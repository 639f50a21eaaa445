package policy

import (
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

var t0 = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

func rule(id, client, action string, d Decision) Rule {
	return Rule{ID: id, Client: client, Action: action, Decision: d, Scope: ScopeAlways, Created: t0}
}

// approval is an approval asked with tool, with the origin that tool gives
// its questions.
func approval(client, session, tool, action string, risk question.Risk) question.Question {
	origin := question.OriginPermission
	if tool == "request_approval" {
		origin = question.OriginApproval
	}
	return question.Question{Kind: question.KindApproval, Client: question.Client{Name: client, SessionID: session},
		Message: action, Tool: tool, Origin: origin, Action: action, Risk: risk}
}

func confirm(client string, destructive bool) question.Question {
	return question.Question{Kind: question.KindConfirm, Client: question.Client{Name: client, SessionID: "s1"},
		Message: "Delete build/?", Tool: "ask_confirm", Destructive: destructive}
}

func TestActionKey(t *testing.T) {
	t.Parallel()
	cases := []struct {
		q    question.Question
		want string
	}{
		{approval("c", "", "request_approval", "Deploy to production", ""), "request_approval:Deploy to production"},
		{approval("c", "", "permission_prompt", "Bash", ""), "permission_prompt:Bash"},
		{confirm("c", false), "ask_confirm"},
		{question.Question{Kind: question.KindApproval, Message: "m"}, "approval"},
	}
	for _, c := range cases {
		if got := ActionKey(c.q); got != c.want {
			t.Errorf("ActionKey(%+v) = %q, want %q", c.q, got, c.want)
		}
	}
}

func TestMatch(t *testing.T) {
	t.Parallel()
	bash := approval("claude-code", "s1", "permission_prompt", "Bash", question.RiskMedium)
	deploy := approval("claude-code", "s1", "request_approval", "Deploy to production", question.RiskHigh)
	hr := rule("hr", "claude-code", "request_approval:Deploy to production", Allow)
	hr.HighRisk, hr.Match = true, MatchInput // its details, "", exactly
	hrGlob := rule("hrglob", "claude-*", "request_approval:Deploy to production", Allow)
	hrGlob.HighRisk = true // could not be added; a hand-edited file must still not approve
	expired := rule("old", "*", "permission_prompt:Bash", Allow)
	expired.Expires = t0.Add(time.Hour)
	session := rule("sess", "claude-code", "permission_prompt:*", Allow)
	session.Scope, session.SessionID = ScopeSession, "s1"
	otherSession := session
	otherSession.ID, otherSession.SessionID = "sess2", "s2"

	cases := []struct {
		name  string
		rules []Rule
		q     question.Question
		now   time.Time
		want  string // the deciding rule's id, "" for none
	}{
		{"no_rules", nil, bash, t0, ""},
		{"exact_allow", []Rule{rule("a", "claude-code", "permission_prompt:Bash", Allow)}, bash, t0, "a"},
		{"glob_allow", []Rule{rule("a", "*", "permission_prompt:*", Allow)}, bash, t0, "a"},
		{"other_client", []Rule{rule("a", "cursor", "permission_prompt:Bash", Allow)}, bash, t0, ""},
		{"other_action", []Rule{rule("a", "claude-code", "permission_prompt:Edit", Allow)}, bash, t0, ""},
		{"deny_beats_allow_same_specificity", []Rule{rule("a", "*", "permission_prompt:Bash", Allow), rule("d", "*", "permission_prompt:Bash", Deny)}, bash, t0, "d"},
		{"deny_beats_allow_order_independent", []Rule{rule("d", "*", "permission_prompt:Bash", Deny), rule("a", "*", "permission_prompt:Bash", Allow)}, bash, t0, "d"},
		{"specific_allow_beats_general_deny", []Rule{rule("d", "*", "*", Deny), rule("a", "claude-code", "permission_prompt:Bash", Allow)}, bash, t0, "a"},
		{"specific_deny_beats_general_allow", []Rule{rule("a", "*", "*", Allow), rule("d", "claude-code", "permission_prompt:Bash", Deny)}, bash, t0, "d"},
		{"exact_action_beats_glob_action", []Rule{rule("d", "claude-code", "permission_prompt:*", Deny), rule("a", "claude-code", "permission_prompt:Bash", Allow)}, bash, t0, "a"},
		{"longer_literal_beats_shorter", []Rule{rule("d", "*", "permission_prompt:*", Deny), rule("a", "*", "permission_prompt:B*", Allow)}, bash, t0, "a"},
		{"fewer_wildcards_beats_more", []Rule{rule("d", "*", "permission_prompt:B*s*h", Deny), rule("a", "*", "permission_prompt:B*sh", Allow)}, bash, t0, "a"},
		{"crossed_specificity_deny_wins", []Rule{rule("a", "*", "permission_prompt:Bash", Allow), rule("d", "claude-code", "*", Deny)}, bash, t0, "d"},
		{"crossed_specificity_deny_wins_other_way", []Rule{rule("d", "*", "permission_prompt:Bash", Deny), rule("a", "claude-code", "*", Allow)}, bash, t0, "d"},
		{"most_specific_of_two_allows", []Rule{rule("a1", "*", "*", Allow), rule("a2", "claude-code", "permission_prompt:Bash", Allow)}, bash, t0, "a2"},
		{"expired_does_nothing", []Rule{expired}, bash, t0.Add(time.Hour), ""},
		{"not_yet_expired", []Rule{expired}, bash, t0.Add(time.Hour - time.Second), "old"},
		{"expired_deny_does_not_block_allow", []Rule{func() Rule {
			r := rule("d", "*", "permission_prompt:Bash", Deny)
			r.Expires = t0.Add(time.Minute)
			return r
		}(), rule("a", "*", "*", Allow)}, bash, t0.Add(time.Hour), "a"},
		{"session_rule_in_its_session", []Rule{session}, bash, t0, "sess"},
		{"session_rule_other_session", []Rule{otherSession}, bash, t0, ""},
		{"session_rule_no_session", []Rule{session}, approval("claude-code", "", "permission_prompt", "Bash", ""), t0, ""},
		{"guard_generic_allow_ignored", []Rule{rule("a", "*", "*", Allow)}, deploy, t0, ""},
		{"guard_exact_allow_without_high_risk_ignored", []Rule{rule("a", "claude-code", "request_approval:Deploy to production", Allow)}, deploy, t0, ""},
		{"guard_high_risk_exact_allow", []Rule{hr}, deploy, t0, "hr"},
		{"guard_high_risk_glob_client_ignored", []Rule{hrGlob}, deploy, t0, ""},
		{"guard_high_risk_other_client", []Rule{hr}, approval("cursor", "", "request_approval", "Deploy to production", question.RiskHigh), t0, ""},
		{"guard_deny_applies", []Rule{rule("d", "*", "*", Deny)}, deploy, t0, "d"},
		{"guard_ignored_allow_leaves_general_deny", []Rule{rule("d", "*", "*", Deny), rule("a", "claude-code", "request_approval:Deploy to production", Allow)}, deploy, t0, "d"},
		{"guard_destructive_approval", []Rule{rule("a", "*", "*", Allow)}, func() question.Question {
			q := approval("claude-code", "", "request_approval", "Drop table", question.RiskLow)
			q.Destructive = true
			return q
		}(), t0, ""},
		{"confirm_allowed", []Rule{rule("a", "claude-code", "ask_confirm", Allow)}, confirm("claude-code", false), t0, "a"},
		{"destructive_confirm_guarded", []Rule{rule("a", "claude-code", "ask_confirm", Allow)}, confirm("claude-code", true), t0, ""},
		{"destructive_confirm_high_risk_rule", []Rule{func() Rule { r := rule("a", "claude-code", "ask_confirm", Allow); r.HighRisk = true; return r }()}, confirm("claude-code", true), t0, "a"},
		{"text_never_decided", []Rule{rule("a", "*", "*", Allow), rule("d", "*", "*", Deny)}, question.Question{Kind: question.KindText, Message: "Name?", FreeText: true, Tool: "ask_text"}, t0, ""},
		{"notice_never_decided", []Rule{rule("d", "*", "*", Deny)}, question.Question{Kind: question.KindNotice, Message: "done", Tool: "notify"}, t0, ""},
	}
	for _, c := range cases {
		p := &Policy{rules: c.rules, mode: AwayHold}
		got, ok := p.Match(c.q, c.now)
		if c.want == "" {
			if ok {
				t.Errorf("%s: matched %s, want no rule", c.name, got.ID)
			}
			continue
		}
		if !ok || got.ID != c.want {
			t.Errorf("%s: matched %q (%v), want %q", c.name, got.ID, ok, c.want)
		}
	}
}

func TestGate(t *testing.T) {
	t.Parallel()
	allowBash := rule("a", "claude-code", "permission_prompt:Bash", Allow)
	denyEdit := rule("d", "claude-code", "permission_prompt:Edit", Deny)
	denyEdit.Note = "edits need review"
	denyEdit.Scope, denyEdit.SessionID = ScopeSession, "s"
	allowConfirm := rule("c", "*", "ask_confirm", Allow)
	p := &Policy{rules: []Rule{allowBash, denyEdit, allowConfirm}, mode: AwayHold, now: func() time.Time { return t0 }}

	res, ok := p.Gate(approval("claude-code", "s", "permission_prompt", "Bash", ""))
	if !ok || res.Outcome != question.AutoApproved || res.DecidedBy != question.ByRule || res.Reason != question.ReasonRule ||
		res.Via != question.ViaRule || res.RuleID != "a" || res.RuleScope != "always" || string(res.Value) != `"allow"` {
		t.Errorf("allow rule: %+v %v", res, ok)
	}
	res, ok = p.Gate(approval("claude-code", "s", "permission_prompt", "Edit", ""))
	if !ok || res.Outcome != question.AutoRejected || res.RuleID != "d" || res.RuleScope != "session" || res.Note != "edits need review" || res.Value != nil {
		t.Errorf("deny rule: %+v %v", res, ok)
	}
	res, ok = p.Gate(confirm("x", false))
	if !ok || res.Outcome != question.AutoApproved || string(res.Value) != `"yes"` {
		t.Errorf("confirm: %+v %v", res, ok)
	}
	if res, ok := p.Gate(approval("claude-code", "s", "permission_prompt", "Write", "")); ok {
		t.Errorf("no rule, not away: decided %+v", res)
	}

	// Away: hold decides nothing; reject rejects; nothing is approved for it.
	p.away = true
	text := question.Question{Kind: question.KindText, Message: "Name?", FreeText: true}
	if res, ok := p.Gate(text); ok {
		t.Errorf("away+hold decided %+v", res)
	}
	p.mode = AwayReject
	for _, q := range []question.Question{text, approval("claude-code", "s", "permission_prompt", "Write", ""), confirm("cursor", true)} {
		res, ok := p.Gate(q)
		if !ok || res.Outcome != question.AutoRejected || res.Reason != question.ReasonAway || res.DecidedBy != question.ByApp {
			t.Errorf("away+reject %s: %+v %v", q.Kind, res, ok)
		}
	}
	if res, ok := p.Gate(question.Question{Kind: question.KindNotice, Message: "done"}); ok {
		t.Errorf("away+reject rejected a notice: %+v", res)
	}
	// Handback: questions go back to the agent's chat; approvals,
	// destructive confirmations and notices are never handed back.
	p.mode = AwayHandback
	for _, q := range []question.Question{text, {Kind: question.KindConfirm, Message: "Ship?"}, {Kind: question.KindChoice, Message: "Which?"}, {Kind: question.KindForm, Message: "Who?"}} {
		res, ok := p.Gate(q)
		if !ok || res.Outcome != question.AutoRejected || res.Reason != question.ReasonHandedBack || res.DecidedBy != question.ByApp {
			t.Errorf("away+handback %s: %+v %v", q.Kind, res, ok)
		}
	}
	for _, q := range []question.Question{approval("claude-code", "s", "permission_prompt", "Write", ""), confirm("cursor", true), {Kind: question.KindNotice, Message: "done"}} {
		if res, ok := p.Gate(q); ok {
			t.Errorf("away+handback decided %s (destructive %v): %+v", q.Kind, q.Destructive, res)
		}
	}
	p.mode = AwayReject
	// Rules still decide while away, both ways.
	if res, _ := p.Gate(approval("claude-code", "s", "permission_prompt", "Bash", "")); res.Outcome != question.AutoApproved || res.RuleID != "a" {
		t.Errorf("rule while away: %+v", res)
	}
}
