package cli

import (
	"testing"

	"github.com/asktray/asktray/app/question"
)

// TestWalkSelectsNoWhenTheConfirmReadsDestructive: the walk's first
// selection is No for a confirm that reads as destructive, whether or not
// the agent flagged it, as in the dialog and the page.
func TestWalkSelectsNoWhenTheConfirmReadsDestructive(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q    question.Question
		want string
	}{
		{question.Question{Kind: question.KindConfirm, Message: "Overwrite docs/api/openapi.yaml?"}, "No"},
		{question.Question{Kind: question.KindConfirm, Message: "Clean up?", Destructive: true}, "No"},
		{question.Question{Kind: question.KindConfirm, Message: "Run the tests?"}, "Yes"},
	} {
		cs, sel := choicesFor(c.q)
		if cs[sel].label != c.want {
			t.Errorf("%q: selected %q, want %q", c.q.Message, cs[sel].label, c.want)
		}
	}
}
