package present

import (
	"fmt"

	"github.com/asktray/asktray/app/question"
)

// Waiting counts what is pending: the questions someone waits on, and the
// notices, which only tell. A notice is not a question: it does not turn
// the tray amber, has no countdown or Snooze, and quitting does not warn of
// it.
func Waiting(pending []question.Question) (questions, notices int) {
	for _, q := range pending {
		if q.Kind == question.KindNotice {
			notices++
		} else {
			questions++
		}
	}
	return questions, notices
}

// WaitingLabel says what is pending in words, the questions first:
// "No pending questions", "1 pending question", "2 pending questions · 1
// notice", "No pending questions · 3 notices".
func WaitingLabel(questions, notices int) string {
	var s string
	switch questions {
	case 0:
		s = "No pending questions"
	case 1:
		s = "1 pending question"
	default:
		s = fmt.Sprintf("%d pending questions", questions)
	}
	if notices > 0 {
		s += " · " + CountNoun(notices, "notice")
	}
	return s
}
