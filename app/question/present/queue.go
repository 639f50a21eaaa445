package present

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/asktray/asktray/app/question"
)

// GoesAheadInQueue reports whether q goes ahead of other waiting questions: an
// approval, or a confirm that reads as destructive (ReadsDestructive). A queue
// never reorders what is open; it only picks what comes next.
func GoesAheadInQueue(q *question.Question) bool {
	return q.Kind == question.KindApproval || (q.Kind == question.KindConfirm && ReadsDestructive(q))
}

// QueueOrder orders waiting questions: those that go First, then the
// rest, each oldest first (ids break ties). It is a comparison function
// for slices.SortFunc.
func QueueOrder(a, b question.Question) int {
	fa, fb := GoesAheadInQueue(&a), GoesAheadInQueue(&b)
	switch {
	case fa && !fb:
		return -1
	case fb && !fa:
		return 1
	}
	return cmp.Or(a.Created.Compare(b.Created), strings.Compare(a.ID, b.ID))
}

// OneLineSummary names q in a few words for a line about it, at most n
// characters: LineName without a home directory.
func OneLineSummary(q *question.Question, n int) string { return LineName(q, "", n) }

// QueueLine is the line an open dialog shows while other questions wait:
// "1 of 3  ·  next: cursor — Delete 3 branches" (the open question is the
// first of waiting+1; next is the one that comes after it, named by
// LineName with home as ~), or "" when none waits.
func QueueLine(waiting int, next *question.Question, home string) string {
	if waiting <= 0 || next == nil {
		return ""
	}
	return fmt.Sprintf("1 of %d%snext: %s — %s", waiting+1, Sep, Who(next), LineName(next, home, 48))
}
