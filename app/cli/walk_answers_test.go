package cli

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/app/question/present/presenttest"
)

// TestWalk_AnswersFollowTheModel: for every kind and variant, the walk's
// choices are the model's answer buttons (present.Answers) right to left,
// with its labels and fixed answers, an OK that takes input standing for
// the walk's ways of giving it; the first selection is the model's default
// (No for a confirm that reads as destructive or defaults to no, Deny for
// an approval); the others are only the walk's own: a confirm's Decline,
// Dismiss, Snooze, Skip and Quit. The dialog's and the page's own tests
// check the same cases.
func TestWalk_AnswersFollowTheModel(t *testing.T) {
	t.Parallel()
	own := []string{"Dismiss", "Snooze for an hour", "Skip for now", "Quit"}
	for _, c := range presenttest.ButtonCases() {
		cs, sel := choicesFor(c.Q)
		want := present.Answers(&c.Q)
		slices.Reverse(want)
		i := 0
		for _, b := range want {
			if b.FromInput() {
				n := len(inputChoices(c.Q))
				if n == 0 || (b.Default && sel != i) {
					t.Errorf("%s: %d ways of giving input, selected %d, want %d", c.Name, n, sel, i)
				}
				i += n
				continue
			}
			if i >= len(cs) || cs[i].label != b.Label || (sel == i) != b.Default {
				t.Errorf("%s: choice %d of %v (selected %d), want %q default %v", c.Name, i, labelsOf(cs), sel, b.Label, b.Default)
				break
			}
			req, err := cs[i].act(nil)
			if err != nil || req == nil || req.Action != b.Action || string(req.Value) != string(b.Value) {
				t.Errorf("%s: %q answers %+v %v, want %s %s", c.Name, b.Label, req, err, b.Action, b.Value)
			}
			i++
		}
		rest := own
		if c.Q.Kind == question.KindConfirm {
			rest = append([]string{"Decline"}, own...)
		}
		if i > len(cs) || !slices.Equal(labelsOf(cs[min(i, len(cs)):]), rest) {
			t.Errorf("%s: choices %v, want the model's then %v", c.Name, labelsOf(cs), rest)
		}
	}
}

// TestWalkSelectsNoWhenTheConfirmSaysSo: the walk's first selection is No
// for a confirm that reads as destructive, whether or not the agent
// flagged it, and for one whose default is no, as in the dialog and the
// page.
func TestWalkSelectsNoWhenTheConfirmSaysSo(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q    question.Question
		want string
	}{
		{question.Question{Kind: question.KindConfirm, Message: "Overwrite docs/api/openapi.yaml?"}, "No"},
		{question.Question{Kind: question.KindConfirm, Message: "Clean up?", Destructive: true}, "No"},
		{question.Question{Kind: question.KindConfirm, Message: "Run the tests?", Default: json.RawMessage(`"no"`)}, "No"},
		{question.Question{Kind: question.KindConfirm, Message: "Run the tests?"}, "Yes"},
	} {
		cs, sel := choicesFor(c.q)
		if cs[sel].label != c.want {
			t.Errorf("%q: selected %q, want %q", c.q.Message, cs[sel].label, c.want)
		}
	}
}

func labelsOf(cs []walkChoice) []string {
	ls := make([]string, len(cs))
	for i, c := range cs {
		ls[i] = c.label
	}
	return ls
}
