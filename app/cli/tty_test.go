package cli

import (
	"testing"

	"github.com/asktray/asktray/app/question"
)

func TestDecodeKey(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want key
		n    int
	}{
		{"\r", key{name: keyEnter}, 1},
		{"\x03", key{name: keyInterrupt}, 1},
		{"\x7f", key{name: keyBackspace}, 1},
		{"\x1b[A", key{name: keyUp}, 3},
		{"\x1bOB", key{name: keyDown}, 3},
		{"\x1b[1;5C", key{name: keyOther}, 6},
		{"\x1b", key{name: keyEsc}, 1},
		{"é!", key{r: 'é'}, 2},
		{"\x01", key{name: keyOther}, 1},
	}
	for _, tc := range cases {
		if k, n := decodeKey([]byte(tc.in)); k != tc.want || n != tc.n {
			t.Errorf("decodeKey(%q) = %+v, %d; want %+v, %d", tc.in, k, n, tc.want, tc.n)
		}
	}
}

func TestConfirmWordFor(t *testing.T) {
	t.Parallel()
	cases := []struct {
		q    question.Question
		want string
	}{
		{question.Question{Kind: question.KindApproval, Action: "Deploy to production"}, "deploy"},
		{question.Question{Kind: question.KindApproval, Action: "`rm -rf build`"}, "rm"},
		{question.Question{Kind: question.KindApproval, Action: "🚀"}, "allow"},
		{question.Question{Kind: question.KindConfirm, Destructive: true, YesLabel: "Delete it"}, "delete"},
		{question.Question{Kind: question.KindConfirm, Destructive: true}, "yes"},
	}
	for _, tc := range cases {
		if got := confirmWordFor(tc.q); got != tc.want {
			t.Errorf("%q/%q: %q, want %q", tc.q.Action, tc.q.YesLabel, got, tc.want)
		}
	}
}

func TestSafe(t *testing.T) {
	t.Parallel()
	in := "ok\tline\nnext \x1b[2J\x1b]0;title\x07 back\rspace\b \u202eevil\u202c \u0085"
	got := safe(in)
	if want := "ok\tline\nnext \uFFFD[2J\uFFFD]0;title\uFFFD back\uFFFDspace\uFFFD \uFFFDevil\uFFFD \uFFFD"; got != want {
		t.Errorf("safe(%q) = %q, want %q", in, got, want)
	}
}
