package question

import "bytes"

// Approves reports whether r, given to q, says yes to something the agent
// wants to do: accepting an approval (allow, or always allow), or "yes" to a
// destructive confirmation. Only the person may give such an answer, so the
// channels that cannot see the person (the control socket without a
// terminal) refuse it. Declining, cancelling and every other answer (text,
// choice, form, a non-destructive confirm, a notice) do not approve.
//
// It errs towards true: an accepted destructive confirm approves unless its
// value is plainly "no". It does not validate r; CheckResponse does.
//
// Every channel asks this one predicate: the control socket (which refuses
// an approving answer without the person's terminal), the MCP bridge (which
// delivers an approving answer once, and does not record one the client's
// form gave faster than a person could read it) and the away mode handback
// (which never hands back a question that CanApprove).
func (q *Question) Approves(r Response) bool {
	if r.Action != Accept || !q.CanApprove() {
		return false
	}
	if q.Kind == KindConfirm {
		v := string(bytes.TrimSpace(r.Value))
		return v != `"no"` && v != `false`
	}
	return true
}

// CanApprove reports whether some answer to q says yes to an action, that
// is whether Approves can be true for it: q is an approval or a destructive
// confirmation. Such a question is never handed back to the agent's chat,
// where the agent could answer it itself, and the question page asks for
// the login password before such an answer.
func (q *Question) CanApprove() bool {
	return q.Kind == KindApproval || (q.Kind == KindConfirm && q.Destructive)
}
