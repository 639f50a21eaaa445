package present_test

import (
	"testing"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/app/question/present/presenttest"
)

// TestAnswers: each kind's buttons, left to right, with the one default,
// the one no and the dangerous yes as the model states them.
func TestAnswers(t *testing.T) {
	t.Parallel()
	want := map[string]string{
		"text":                        "Decline | OK* input",
		"text with options":           "Decline | OK* input",
		"choice":                      "Decline | OK* input",
		"multi_choice":                "Decline | OK* input",
		"form":                        "Decline | Submit* input",
		"confirm":                     `No no "no" | Yes* "yes"`,
		"confirm with labels":         `Wait no "no" | Ship* "yes"`,
		"confirm defaulting to no":    `No* no "no" | Yes "yes"`,
		"confirm defaulting to false": `No* no "no" | Yes "yes"`,
		"confirm flagged destructive": `No* no "no" | Yes danger "yes"`,
		"confirm reading destructive": `No* no "no" | Overwrite danger "yes"`,
		"approval":                    `Deny* no | Allow once "allow"`,
		"approval at high risk":       `Deny* no | Allow once danger "allow"`,
		"approval too long to show":   "Deny* no",
		"notice":                      `OK* "ok"`,
	}
	for _, c := range presenttest.ButtonCases() {
		got := describe(present.Answers(&c.Q))
		if got != want[c.Name] {
			t.Errorf("%s: %s, want %s", c.Name, got, want[c.Name])
		}
		bs := present.Answers(&c.Q)
		if d := present.DefaultButton(bs); d < 0 || bs[d].Danger || (bs[d].Action == question.Accept && string(bs[d].Value) == `"allow"`) {
			t.Errorf("%s: default %d of %s: none, or one that allows or is dangerous", c.Name, d, got)
		}
	}
	if bs := present.Answers(&question.Question{Kind: "poll"}); bs != nil {
		t.Errorf("an unknown kind has buttons: %v", bs)
	}
}

// describe writes bs as "Label[*][ no][ danger][ value|input] | …".
func describe(bs []present.Button) string {
	s := ""
	for i, b := range bs {
		if i > 0 {
			s += " | "
		}
		s += b.Label
		if b.Default {
			s += "*"
		}
		if b.IsNo {
			s += " no"
		}
		if b.Danger {
			s += " danger"
		}
		switch {
		case b.FromInput():
			s += " input"
		case b.Value != nil:
			s += " " + string(b.Value)
		case b.Action != question.Decline:
			s += " " + string(b.Action)
		}
	}
	return s
}
