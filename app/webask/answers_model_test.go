package webask

import (
	"net/url"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/app/question/present/presenttest"
)

// TestPage_AnswersFollowTheModel: for every kind and variant, the page's
// answer buttons are the model's (present.Answers), left to right, with
// its labels, its default (filled), its dangerous yes (the danger class),
// and a fixed answer that posts back as the model's; the only other is the
// page's own Decline before a confirm's and a notice's buttons. The
// dialog's and the walk's own tests check the same cases.
func TestPage_AnswersFollowTheModel(t *testing.T) {
	t.Parallel()
	for _, c := range presenttest.ButtonCases() {
		v, err := newView(c.Q, "", time.Time{})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		got, want := v.Buttons, present.Answers(&c.Q)
		if c.Q.Kind == question.KindConfirm || c.Q.Kind == question.KindNotice {
			if len(got) == 0 || got[0] != (buttonView{Label: "Decline", Value: "decline", Class: "quiet"}) {
				t.Errorf("%s: first button %+v, want the page's quiet Decline", c.Name, got)
				continue
			}
			got = got[1:]
		}
		if len(got) != len(want) {
			t.Errorf("%s: buttons %+v, want %d", c.Name, got, len(want))
			continue
		}
		for i, b := range want {
			g := got[i]
			if g.Label != b.Label || g.Default != b.Default || (g.Class == "primary") != b.Default || (g.Class == "danger") != b.Danger {
				t.Errorf("%s: button %d %+v, want %+v", c.Name, i, g, b)
			}
			if b.FromInput() {
				if g.Value != "accept" {
					t.Errorf("%s: %q posts %q, want accept", c.Name, g.Label, g.Value)
				}
				continue
			}
			resp, err := v.read(url.Values{"action": {g.Value}})
			if err != nil || resp.Action != b.Action || string(resp.Value) != string(b.Value) {
				t.Errorf("%s: %q posts %q, read as %+v %v, want %s %s", c.Name, g.Label, g.Value, resp, err, b.Action, b.Value)
			}
		}
	}
}
