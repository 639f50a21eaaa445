package present

import (
	"testing"

	"github.com/asktray/asktray/app/question"
)

func TestReadsDestructive(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q    question.Question
		word string
		want bool
	}{
		{question.Question{Message: "Overwrite docs/api/openapi.yaml — 2 endpoints removed"}, "Overwrite", true},
		{question.Question{Message: "Continue?", YesLabel: "Delete 3 branches"}, "Delete", true},
		{question.Question{Header: "Clean up", Message: "Go ahead?"}, "", false},
		{question.Question{Message: "git push --force origin main?"}, "--force", true},
		{question.Question{Message: "Run `rm -rf build/`?"}, "rm", true},
		{question.Question{Message: "DROP TABLE orders?"}, "DROP", true},
		{question.Question{Message: "Reset the staging database?"}, "Reset", true},
		{question.Question{Message: "Force-push the branch?"}, "Force-push", true},
		{question.Question{Message: "Enforce the lint rules and run the tests?"}, "", false},
		{question.Question{Message: "Check the rms of the signal?"}, "", false},
		{question.Question{Message: "Run the tests?", Destructive: true}, "", true},
	} {
		if got := DestructiveWord(&c.q); got != c.word {
			t.Errorf("DestructiveWord(%q, yes %q) = %q, want %q", c.q.Message, c.q.YesLabel, got, c.word)
		}
		if got := ReadsDestructive(&c.q); got != c.want {
			t.Errorf("ReadsDestructive(%q) = %v, want %v", c.q.Message, got, c.want)
		}
		if w := DestructiveWarning(&c.q); (w != "") != c.want {
			t.Errorf("DestructiveWarning(%q) = %q", c.q.Message, w)
		}
	}
}
