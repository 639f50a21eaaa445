package policy

import (
	"cmp"
	"encoding/json"
	"time"

	"github.com/asktray/asktray/app/question"
)

// Match returns the rule that decides q at now, if any (see the package
// documentation for precedence and the high-risk guard). It does not block.
func (p *Policy) Match(q question.Question, now time.Time) (Rule, bool) {
	if !decidable(q) {
		return Rule{}, false
	}
	s := SubjectOf(q)
	p.mu.RLock()
	var cands, prefixes []*Rule
	for i := range p.rules {
		r := &p.rules[i]
		if !r.applies(q, now) || !r.mayDecide(q, s) {
			continue
		}
		c := *r
		switch {
		case r.Match == MatchPrefix:
			prefixes = append(prefixes, &c)
		case r.matchesWhole(s):
			cands = append(cands, &c)
		}
	}
	p.mu.RUnlock()
	cover, real := coverParts(prefixes, s)
	best, ok := pick(append(cands, cover...))
	if r, isCover := real[best.ID]; ok && isCover && best.Decision == Allow {
		return r, true
	}
	return best, ok
}

// pick applies precedence to the matching rules: of those no other beats, a
// deny wins; ties go to the more specific action, then client, then the
// older rule.
func pick(cands []*Rule) (Rule, bool) {
	var best *Rule
	for _, r := range cands {
		beaten := false
		for _, o := range cands {
			if o != r && o.beats(r) {
				beaten = true
				break
			}
		}
		if !beaten && (best == nil || better(r, best)) {
			best = r
		}
	}
	if best == nil {
		return Rule{}, false
	}
	return *best, true
}

// better orders two unbeaten rules: deny first, then ask, then a more
// specific action, then a more specific client, then the older one, then by
// id.
func better(a, b *Rule) bool {
	if a.Decision != b.Decision {
		return rank(a.Decision) > rank(b.Decision)
	}
	if c := cmpSpecificity(specificityOf(a.Action), specificityOf(b.Action)); c != 0 {
		return c > 0
	}
	if c := cmpSpecificity(specificityOf(a.Client), specificityOf(b.Client)); c != 0 {
		return c > 0
	}
	return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID)) < 0
}

// rank orders decisions at equal specificity: deny over ask over allow.
func rank(d Decision) int {
	switch d {
	case Deny:
		return 2
	case Ask:
		return 1
	}
	return 0
}

// Gate decides q before anyone is shown it, for question.Config.Gate: a
// matching rule ends it as auto_approved (value "allow" for an approval, "yes"
// for a confirm) or auto_rejected, decided by rule, reason rule, via rule,
// with the rule's id, its scope and its note; a matching ask rule decides nothing (the
// person is asked, as with no rule); else, when away mode ends it (Judge),
// it ends as auto_rejected, decided by app: with the away mode reject
// reason away, with the away mode handback, for a question that cannot
// approve anything, reason handed_back (approvals and destructive
// confirmations wait instead). Notices are never decided by away. Away
// never approves. It does not block; any goroutine may call it.
func (p *Policy) Gate(q question.Question) (question.Result, bool) {
	r := p.Judge(q)
	return r.Result, r.Decided
}

// ruleResult is the result rule r gives q.
func ruleResult(q question.Question, r Rule) question.Result {
	res := question.Result{DecidedBy: question.ByRule, Reason: question.ReasonRule, Via: question.ViaRule, RuleID: r.ID, RuleScope: string(r.Scope), Note: r.Note}
	if r.Decision == Allow {
		res.Outcome = question.AutoApproved
		res.Value = json.RawMessage(`"allow"`)
		if q.Kind == question.KindConfirm {
			res.Value = json.RawMessage(`"yes"`)
		}
	} else {
		res.Outcome = question.AutoRejected
	}
	return res
}

// Expired reports whether r has expired at now.
func (r Rule) Expired(now time.Time) bool {
	return !r.Expires.IsZero() && !now.Before(r.Expires)
}
