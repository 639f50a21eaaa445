package historyview

import (
	"testing"
	"time"

	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/question"
)

// A remote host's question that ended as its SSH connection dropped says
// so in its row and its detail.
func TestHistory_ShowsTheHostDisconnected(t *testing.T) {
	s := historytest.New(t)
	q := question.Question{Kind: question.KindApproval, Client: seedClient("claude-code", ""), Host: "build-01",
		Message: "Bash", Tool: "permission_request", Origin: question.OriginPermission, Action: "Bash", Details: "```sh\nmake deploy\n```"}
	seedHistory(t, s, []seedRec{{time.Minute, 2 * time.Second, q,
		&question.Result{Outcome: question.Withdrawn, DecidedBy: question.ByAgent, Reason: question.ReasonHostDisconnected}}})
	x := newHistHarness(t, s).show()
	h, d := x.h, x.h.detail
	h.list.Select(0)
	if got := shortAnswer(h.rows[0]); got != "host disconnected" {
		t.Errorf("row %q, want host disconnected", got)
	}
	if d.outcome.Text != "Withdrawn" || d.decider.Text != "·  Nobody: the remote host disconnected" {
		t.Errorf("outcome %q, decider %q", d.outcome.Text, d.decider.Text)
	}
}
