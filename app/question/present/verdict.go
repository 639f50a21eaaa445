package present

import "github.com/asktray/asktray/app/question"

// The icons a verdict's mark names; a front end draws each with its own
// picture (the history window with Fyne's theme icons).
const (
	IconPending = "pending" // an ellipsis: still waiting
	IconAllow   = "allow"   // a check mark
	IconDeny    = "deny"    // a cross
	IconRule    = "rule"    // a gear: a rule decided
	IconAnswer  = "answer"  // a reply arrow
	IconDecline = "decline" // a minus
	IconDismiss = "dismiss" // a cleared box
	IconTimeout = "timeout" // a clock
	IconUndo    = "undo"    // an undo arrow: the agent took it back
	IconAway    = "away"    // a crossed-out eye: nobody was watching
	IconWarning = "warning" // a warning sign
)

// The colour roles of a verdict's mark.
const (
	RolePrimary = "primary" // waiting
	RoleSuccess = "success" // something was allowed
	RoleError   = "error"   // something was refused
	RoleWarning = "warning" // nobody decided in time, or the app stopped
	RoleNeutral = "neutral" // neither: an answer, a dismissal, a withdrawal
)

// Mark is how every front end shows a verdict: a label and a mark (an icon
// and a colour role), distinct for each verdict.
type Mark struct {
	Label string
	Icon  string
	Role  string
}

// VerdictMark returns how to show v; an unknown verdict reads as its own
// name with a neutral answer mark. Any goroutine may call it.
func VerdictMark(v question.Verdict) Mark {
	switch v {
	case question.VerdictPending:
		return Mark{"Pending", IconPending, RolePrimary}
	case question.VerdictAllowed:
		return Mark{"Allowed", IconAllow, RoleSuccess}
	case question.VerdictDenied:
		return Mark{"Denied", IconDeny, RoleError}
	case question.VerdictRuleAllowed:
		return Mark{"Allowed by rule", IconRule, RoleSuccess}
	case question.VerdictRuleDenied:
		return Mark{"Denied by rule", IconRule, RoleError}
	case question.VerdictAnswered:
		return Mark{"Answered", IconAnswer, RoleNeutral}
	case question.VerdictDeclined:
		return Mark{"Declined", IconDecline, RoleError}
	case question.VerdictCancelled:
		return Mark{"Cancelled", IconDismiss, RoleNeutral}
	case question.VerdictTimedOut:
		return Mark{"Timed out", IconTimeout, RoleWarning}
	case question.VerdictWithdrawn:
		return Mark{"Withdrawn", IconUndo, RoleNeutral}
	case question.VerdictAway:
		return Mark{"Away mode", IconAway, RoleNeutral}
	case question.VerdictAgentBlocked:
		return Mark{"Blocked by auto mode", IconDeny, RoleNeutral}
	case question.VerdictInterrupted:
		return Mark{"Interrupted", IconWarning, RoleWarning}
	}
	return Mark{string(v), IconAnswer, RoleNeutral}
}

// RecordMark returns how a history row shows question q ended with r (nil
// while pending): its verdict's mark (VerdictMark), except that a confirm
// the person answered reads "Answered", neutral, as any other answer (the
// answer itself, "No", "Wait", is beside it), with a minus for its no: a
// yes/no answer is not a security decision, so it never wears an
// approval's green Allowed or red Denied. Any goroutine may call it.
func RecordMark(q *question.Question, r *question.Result) Mark {
	switch v := question.VerdictOf(q, r); {
	case q.Kind != question.KindConfirm || (v != question.VerdictAllowed && v != question.VerdictDenied):
		return VerdictMark(v)
	case v == question.VerdictDenied:
		return Mark{"Answered", IconDecline, RoleNeutral}
	}
	return VerdictMark(question.VerdictAnswered)
}

// VerdictFilter is one choice of a history filter by verdict: a label and
// the verdicts it selects.
type VerdictFilter struct {
	Label    string
	Verdicts []question.Verdict
}

// VerdictFilters lists the history's filters by verdict in the order the
// front ends offer them: each verdict on its own, with "By rule" (allowed
// or denied by a rule) after the person's.
func VerdictFilters() []VerdictFilter {
	var out []VerdictFilter
	for _, v := range question.Verdicts {
		if v == question.VerdictRuleAllowed {
			out = append(out, VerdictFilter{"By rule", []question.Verdict{question.VerdictRuleAllowed, question.VerdictRuleDenied}})
		}
		out = append(out, VerdictFilter{VerdictMark(v).Label, []question.Verdict{v}})
	}
	return out
}

// VerdictGroup is the verdict name the CLI and the control API accept for
// "By rule": it stands for rule_allowed and rule_denied.
const VerdictGroup = "by_rule"

// ParseVerdicts reads a comma-separated list's items (verdict names, or
// VerdictGroup) into verdicts; ok is false, with the offending item, when
// one is neither.
func ParseVerdicts(items []string) (vs []question.Verdict, bad string, ok bool) {
	for _, s := range items {
		switch v := question.Verdict(s); {
		case s == VerdictGroup:
			vs = append(vs, question.VerdictRuleAllowed, question.VerdictRuleDenied)
		case v.Valid():
			vs = append(vs, v)
		default:
			return nil, s, false
		}
	}
	return vs, "", true
}
