package present

import (
	"errors"

	"github.com/asktray/asktray/app/question"
)

// UnseenReason is what a front end says instead of offering an allow it
// cannot show in full.
const UnseenReason = "This request is too long to show in full, so it cannot be allowed here: " +
	"allowing it would run what you never saw. Deny it, and ask the agent to split it into shorter requests."

// ErrUnseen is the error an allow that Unseen refuses gets.
var ErrUnseen = errors.New("this request is too long to show in full, so it cannot be allowed here: " +
	"allowing it would run what you never saw; deny it, and ask the agent to split it into shorter requests")

// Unseen says why the person cannot allow q where it is shown, or "" when
// they can: an approval whose details leave part of what it would run out
// (question.Question.Cut: a command, a file or a diff beyond what the
// details hold) can be denied but never allowed, in the dialog, on the
// question page or on the terminal, since the person would allow
// characters no screen showed them. It does not block.
func Unseen(q *question.Question) string {
	if q.Kind != question.KindApproval || !q.Cut {
		return ""
	}
	return UnseenReason
}

// RefusesUnseen reports whether the answer resp to q must be refused
// because it allows what the person cannot see (Unseen). It does not
// block.
func RefusesUnseen(q *question.Question, resp question.Response) bool {
	return Unseen(q) != "" && q.Approves(resp)
}
