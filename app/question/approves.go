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
func (q *Question) Approves(r Response) bool {
	if r.Action != Accept {
		return false
	}
	switch q.Kind {
	case KindApproval:
		return true
	case KindConfirm:
		if !q.Destructive {
			return false
		}
		v := string(bytes.TrimSpace(r.Value))
		return v != `"no"` && v != `false`
	}
	return false
}

// CanApprove reports whether some answer to q approves (see Approves): q is
// an approval or a destructive confirmation.
func (q *Question) CanApprove() bool {
	return q.Kind == KindApproval || (q.Kind == KindConfirm && q.Destructive)
}
