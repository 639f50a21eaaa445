package present

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

func TestQueueOrder(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	qs := []question.Question{
		{ID: "text", Kind: question.KindText, Message: "Name the branch", Created: t0},
		{ID: "plain", Kind: question.KindConfirm, Message: "Run the tests?", Created: t0.Add(time.Second)},
		{ID: "wipe", Kind: question.KindConfirm, Message: "Delete 3 branches?", Created: t0.Add(3 * time.Second)},
		{ID: "bash", Kind: question.KindApproval, Action: "Bash", Created: t0.Add(2 * time.Second)},
	}
	slices.SortFunc(qs, QueueOrder)
	var got []string
	for _, q := range qs {
		got = append(got, q.ID)
	}
	if want := []string{"bash", "wipe", "text", "plain"}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v (approvals and destructive confirms first, then oldest first)", got, want)
	}
}

func TestQueueLine(t *testing.T) {
	t.Parallel()
	next := question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "cursor"},
		Message: "Delete 3 branches   that were merged\u202e last week and are no longer needed by anyone?"}
	if got, want := QueueLine(2, &next, ""), "1 of 3  ·  next: cursor — Delete 3 branches that were merged⟨U+202E⟩ last…"; got != want {
		t.Errorf("QueueLine = %q, want %q", got, want)
	}
	if got := QueueLine(0, &next, ""); got != "" {
		t.Errorf("nothing waits, yet %q", got)
	}
	appr := question.Question{Kind: question.KindApproval, Action: "Run a shell command", Client: question.Client{Name: "claude-code"}}
	if got := OneLineSummary(&appr, 40); got != "Run a shell command" {
		t.Errorf("OneLineSummary of an approval = %q", got)
	}
	// A hook approval is named by what it would do; Markdown is plain.
	hookq := question.Question{Kind: question.KindApproval, Tool: "permission_request", Origin: question.OriginPermission, Action: "Bash", Message: "Bash",
		Client: question.Client{Name: "claude-code"}, Input: json.RawMessage(`{"command":"npm test"}`), Cwd: "/home/ada/src/shop"}
	if got, want := QueueLine(1, &hookq, "/home/ada"), "1 of 2  ·  next: claude-code — npm test in ~/src/shop"; got != want {
		t.Errorf("QueueLine = %q, want %q", got, want)
	}
	md := question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "cursor"}, Header: "Run the **database migration** on `staging`?"}
	if got, want := QueueLine(1, &md, ""), "1 of 2  ·  next: cursor — Run the database migration on “staging”?"; got != want {
		t.Errorf("QueueLine = %q, want %q", got, want)
	}
}
