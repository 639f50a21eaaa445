package askdialog

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// TestApprovalDialog_NoAllowForWhatCannotBeSeen (issue 33 item 8): an
// approval whose details leave part of what it runs out (Cut, as
// app/toolcall marks a command beyond 20,000 characters) has Deny alone,
// says why, and refuses an allow however it comes (the renderer's answer,
// the dialog's own answer path); the question stays pending until denied.
// On f02af39 the dialog offered Allow once and Always… for it.
func TestApprovalDialog_NoAllowForWhatCannotBeSeen(t *testing.T) {
	e, _ := newApprovalEnv(t)
	q := deploy(question.RiskMedium)
	q.Cut = true
	d := e.ask(q)
	if got := strings.Join(buttonTexts(d), ","); got != "Deny" {
		t.Fatalf("buttons %s, want Deny alone", got)
	}
	if _, err := d.r.Answer(); !errors.Is(err, present.ErrUnseen) {
		t.Fatalf("the renderer's answer: %v", err)
	}
	d.guard.arm()
	d.answer("Allow once", "test", func() (question.Response, error) {
		return question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`)}, nil
	})
	e.pending(d.q.ID)
	test.Tap(findButton(t, d, "Deny"))
	if res := e.result(d.q.ID); res.Outcome != question.Declined {
		t.Fatalf("result %+v", res)
	}
}
