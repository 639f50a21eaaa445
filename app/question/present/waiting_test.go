package present

import (
	"testing"

	"github.com/asktray/asktray/app/question"
)

func TestWaiting(t *testing.T) {
	qs := []question.Question{{Kind: question.KindNotice}, {Kind: question.KindConfirm}, {Kind: question.KindApproval}, {Kind: question.KindNotice}}
	if q, n := Waiting(qs); q != 2 || n != 2 {
		t.Fatalf("Waiting = %d questions, %d notices", q, n)
	}
	for _, c := range []struct {
		q, n int
		want string
	}{
		{0, 0, "No pending questions"},
		{1, 0, "1 pending question"},
		{7, 0, "7 pending questions"},
		{0, 1, "No pending questions · 1 notice"},
		{2, 3, "2 pending questions · 3 notices"},
	} {
		if got := WaitingLabel(c.q, c.n); got != c.want {
			t.Errorf("WaitingLabel(%d, %d) = %q, want %q", c.q, c.n, got, c.want)
		}
	}
}
