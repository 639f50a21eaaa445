package question

import (
	"bytes"
	"encoding/json"
	"slices"
)

// Verdict is what a question's end meant, read from what the history stores:
// an outcome says who ended a question and how, a verdict also says what was
// decided (an approval answered is allowed, a confirm answered "no" is
// denied, an answer that came too late timed out). The history window, the
// CLI and the control API show and filter by it; it is derived when read,
// never stored.
type Verdict string

// The verdicts.
const (
	VerdictPending     Verdict = "pending"      // nobody has decided yet
	VerdictAllowed     Verdict = "allowed"      // the person allowed an approval or said yes to a confirm
	VerdictDenied      Verdict = "denied"       // the person denied an approval or said no to a confirm
	VerdictRuleAllowed Verdict = "rule_allowed" // a rule said yes
	VerdictRuleDenied  Verdict = "rule_denied"  // a rule said no
	VerdictAnswered    Verdict = "answered"     // the person gave any other answer
	VerdictDeclined    Verdict = "declined"     // the person declined to answer
	VerdictCancelled   Verdict = "cancelled"    // the person dismissed it
	VerdictTimedOut    Verdict = "timed_out"    // nobody answered in time
	VerdictWithdrawn   Verdict = "withdrawn"    // the agent took it back
	VerdictAway        Verdict = "away"         // away mode ended it (rejected or handed back)
	// VerdictAgentBlocked: the agent's own automatic check blocked it
	// (Claude Code's auto mode); nobody here decided.
	VerdictAgentBlocked Verdict = "agent_blocked"
	VerdictInterrupted  Verdict = "interrupted" // the app stopped while it was pending
)

// Verdicts lists every verdict in a stable order: pending, the person's,
// the rules', then the ends nobody decided.
var Verdicts = []Verdict{
	VerdictPending, VerdictAllowed, VerdictDenied, VerdictAnswered, VerdictDeclined, VerdictCancelled,
	VerdictRuleAllowed, VerdictRuleDenied, VerdictTimedOut, VerdictWithdrawn, VerdictAway, VerdictAgentBlocked, VerdictInterrupted,
}

// Valid reports whether v is one of the known verdicts.
func (v Verdict) Valid() bool {
	return slices.Contains(Verdicts, v)
}

// VerdictOf returns the verdict of q, ended with r (nil while pending). It
// reads q.Kind and r's outcome, reason, decider and value; see VerdictFor.
func VerdictOf(q *Question, r *Result) Verdict {
	if r == nil {
		return VerdictPending
	}
	return VerdictFor(q.Kind, State(r.Outcome), r.Reason, r.DecidedBy, r.Value)
}

// VerdictFor is the one rule that derives a verdict from what the history
// keeps of a question: its kind, its state, and its result's reason, decider
// and value. The history store calls it from SQL to filter and count, so a
// row reads and filters alike.
//
//   - answered: an approval is allowed (once, always, or with the agent's
//     rule); a confirm is allowed for "yes" and denied for "no"; anything
//     else is answered;
//   - declined: an approval is denied, anything else declined;
//   - auto_approved is allowed by rule;
//   - auto_rejected is timed out for a timeout, away for away mode (also
//     handed back), blocked by the agent for reason agent_blocked (its
//     own automatic check), else denied by rule;
//   - withdrawn is timed out when the asker stopped waiting (reason
//     timeout), else withdrawn;
//   - cancelled, interrupted and pending are themselves.
//
// An unknown state reads as pending when it is "pending" and as answered
// otherwise.
func VerdictFor(kind Kind, state State, reason Reason, by Decider, value json.RawMessage) Verdict {
	switch Outcome(state) {
	case Answered:
		return answeredVerdict(kind, value)
	case Declined:
		if kind == KindApproval {
			return VerdictDenied
		}
		return VerdictDeclined
	case AutoApproved:
		return VerdictRuleAllowed
	case AutoRejected:
		switch {
		case reason == ReasonTimeout || by == ByTimeout:
			return VerdictTimedOut
		case reason == ReasonAway || reason == ReasonHandedBack:
			return VerdictAway
		case reason == ReasonAgentBlocked:
			return VerdictAgentBlocked
		}
		return VerdictRuleDenied
	case Withdrawn:
		if reason == ReasonTimeout {
			return VerdictTimedOut
		}
		return VerdictWithdrawn
	case Cancelled:
		return VerdictCancelled
	case Interrupted:
		return VerdictInterrupted
	}
	if state == StatePending {
		return VerdictPending
	}
	return VerdictAnswered
}

// answeredVerdict reads an accepted answer's value.
func answeredVerdict(kind Kind, value json.RawMessage) Verdict {
	switch kind {
	case KindApproval:
		return VerdictAllowed
	case KindConfirm:
		switch string(bytes.TrimSpace(value)) {
		case `"no"`, `false`:
			return VerdictDenied
		case `"yes"`, `true`:
			return VerdictAllowed
		}
	}
	return VerdictAnswered
}
