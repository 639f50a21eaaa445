package policy

import (
	"time"

	"github.com/asktray/asktray/app/question"
)

// Hold is what away mode does with a question.
type Hold int

// The holds.
const (
	// NotHeld: the person is not away, or a rule decides the question; away
	// plays no part.
	NotHeld Hold = iota
	// Held: the question waits unseen (no dialog, no notification; the
	// tray lists it) until the person is back, and an agent hook returns no
	// decision at once, so that the agent asks in its own prompt.
	Held
	// Ended: away ends a new question at once, before anyone sees it: the
	// mode reject rejects it, the mode handback hands back a question that
	// cannot approve anything (question.Question.CanApprove).
	Ended
)

// Ruling is what the rules and away mode make of a question about to be
// asked, from one match of the rules.
type Ruling struct {
	// Hold is what away mode does with it: NotHeld when a rule decides it.
	Hold Hold
	// Decided says a rule, or away mode ending it, decides it now, with
	// Result (as the Gate returns it).
	Decided bool
	Result  question.Result
	// Rule is the rule that matched, an ask rule included, when Matched.
	Rule    Rule
	Matched bool
}

// Judge returns what the rules and away mode do with q, a question about to
// be asked, matching the rules once: a rule decides it (an ask rule decides
// nothing, as no rule), or else away mode
// ends it or holds it; a notice is held, never ended. The Gate returns its
// decision; an agent hook reads the hold from it too and hands it to the
// broker (question.Broker.AskGated), so that a hook request is matched
// once. Visible (the tray, the dialogs) applies the same away rule to
// questions already pending. A nil Policy is never away and has no rules.
// It does not block; any goroutine may call it.
func (p *Policy) Judge(q question.Question) Ruling {
	if p == nil {
		return Ruling{}
	}
	r, ok := p.Match(q, p.now())
	if ok && r.Decision != Ask {
		return Ruling{Decided: true, Result: ruleResult(q, r), Rule: r, Matched: true}
	}
	h, res := p.hold(q, false)
	out := Ruling{Hold: h, Rule: r, Matched: ok}
	if h == Ended {
		out.Decided, out.Result = true, res
	}
	return out
}

// hold is the one rule of away mode, for a question no rule decides: held
// while away when it is already pending (it passed the Gate) or a notice,
// whatever the mode; else ended by the modes reject and handback (for a
// question that cannot approve anything), held by the mode hold.
func (p *Policy) hold(q question.Question, pending bool) (Hold, question.Result) {
	if p == nil {
		return NotHeld, question.Result{}
	}
	p.mu.RLock()
	away, mode := p.awayNow(), p.mode
	p.mu.RUnlock()
	switch {
	case !away:
		return NotHeld, question.Result{}
	case pending || q.Kind == question.KindNotice:
		return Held, question.Result{}
	case mode == AwayReject:
		return Ended, question.Result{Outcome: question.AutoRejected, DecidedBy: question.ByApp, Reason: question.ReasonAway}
	case mode == AwayHandback && !q.CanApprove():
		return Ended, question.Result{Outcome: question.AutoRejected, DecidedBy: question.ByApp, Reason: question.ReasonHandedBack}
	}
	return Held, question.Result{}
}

// Visible reports whether pending question q is before the person at now:
// away does not hold it (a pending question is held while away whatever the
// mode), it is not snoozed past now, and it is not being asked in the
// agent's own form (question.Question.DeliverTo). The tray notifies of
// exactly the visible questions and the dialogs show exactly them. A nil
// Policy is never away. It does not block; any goroutine may call it.
func (p *Policy) Visible(q question.Question, now time.Time) bool {
	if h, _ := p.hold(q, true); h != NotHeld {
		return false
	}
	return q.DeliverTo == "" && !q.SnoozeUntil.After(now)
}
