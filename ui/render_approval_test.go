package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
)

func TestApprovalDialog_AllowOnce(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindApproval, Message: "Run `npm publish`?", Risk: question.RiskMedium})
	d.guard.arm()
	test.Tap(findButton(t, d, "Allow once"))
	if res := e.result(d.q.ID); res.Outcome != question.Answered || string(res.Value) != `"allow"` {
		t.Fatalf("result %+v %s", res, res.Value)
	}
}

func TestApprovalDialog_EnterDeniesHighRisk(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindApproval, Message: "Run `git push --force`?", Risk: question.RiskHigh})
	if d.defaultButton.Text != "Deny" || findButton(t, d, "Allow once").Importance != widget.DangerImportance {
		t.Fatalf("default %q", d.defaultButton.Text)
	}
	for _, b := range d.buttons {
		if b.Text == "Decline" {
			t.Error("approval has a separate Decline; Deny is the decline")
		}
	}
	d.guard.arm()
	e.press(d, fyne.KeyReturn)
	if res := e.result(d.q.ID); res.Outcome != question.Declined {
		t.Fatalf("result %+v", res)
	}
}
