package askdialog

import (
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

func TestConfirmDialog_YesAndNo(t *testing.T) {
	for _, c := range []struct{ tap, want string }{{"Yes", `"yes"`}, {"No", `"no"`}} {
		e := newDialogEnv(t)
		d := e.ask(question.Question{Kind: question.KindConfirm, Message: "Run the tests now?"})
		if d.defaultButton.Text != "Yes" || d.defaultButton.Importance != widget.HighImportance {
			t.Errorf("default %q importance %v", d.defaultButton.Text, d.defaultButton.Importance)
		}
		d.guard.arm()
		test.Tap(findButton(t, d, c.tap))
		if res := e.result(d.q.ID); res.Outcome != question.Answered || string(res.Value) != c.want {
			t.Errorf("tap %s: %+v %s", c.tap, res, res.Value)
		}
	}
}

func TestConfirmDialog_LabelsAndDefaultNo(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindConfirm, Message: "Push to main?", YesLabel: "Push", NoLabel: "Keep local",
		Default: json.RawMessage(`"no"`)})
	if d.defaultButton.Text != "Keep local" {
		t.Fatalf("default %q", d.defaultButton.Text)
	}
	d.guard.arm()
	e.press(d, fyne.KeyReturn)
	if res := e.result(d.q.ID); string(res.Value) != `"no"` {
		t.Fatalf("value %s", res.Value)
	}
}

func TestConfirmDialog_DestructiveEnterIsNo(t *testing.T) {
	for _, q := range []question.Question{
		{Kind: question.KindConfirm, Message: "Clean the build output?", Destructive: true},
		// The agent did not set destructive; the words say it.
		{Kind: question.KindConfirm, Message: "Overwrite docs/api/openapi.yaml — 2 endpoints removed?", YesLabel: "Overwrite"},
		{Kind: question.KindConfirm, Message: "Clean up now?", YesLabel: "Delete 3 branches", Default: json.RawMessage(`"yes"`)},
	} {
		e := newDialogEnv(t)
		d := e.ask(q)
		yes, no := findButton(t, d, present.LabelOr(q.YesLabel, "Yes")), findButton(t, d, "No")
		if !yes.act.outlined || yes.Importance != widget.LowImportance || no.Importance != widget.HighImportance || d.defaultButton != no {
			t.Fatalf("%q: yes outlined %v importance %v, no %v, default %q", q.Message, yes.act.outlined, yes.Importance, no.Importance, d.defaultButton.Text)
		}
		if d.r.Content() == nil || !strings.Contains(d.keysHint.Text, "Enter: No") {
			t.Errorf("%q: no warning line, or the key hint says %q", q.Message, d.keysHint.Text)
		}
		d.guard.arm()
		e.press(d, fyne.KeyReturn)
		if res := e.result(d.q.ID); res.Outcome != question.Answered || string(res.Value) != `"no"` {
			t.Fatalf("%q: Enter gave %+v %s", q.Message, res, res.Value)
		}
	}
}

// TestConfirmDialog_OneNoOneYes: a confirm has one no and one yes, no
// Decline beside them; Esc is that no and the key hint says so.
func TestConfirmDialog_OneNoOneYes(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindConfirm, Message: "Run the tests now?", NoLabel: "Not now"})
	if got := strings.Join(buttonTexts(d), ","); got != "Not now,Yes" {
		t.Fatalf("buttons %s", got)
	}
	if !strings.Contains(d.keysHint.Text, "Esc: Not now") {
		t.Fatalf("key hint %q", d.keysHint.Text)
	}
	d.guard.arm()
	e.press(d, fyne.KeyEscape)
	if res := e.result(d.q.ID); res.Outcome != question.Answered || string(res.Value) != `"no"` {
		t.Fatalf("Esc gave %+v %s", res, res.Value)
	}
}

// TestApprovalDialog_EscapeDenies: Esc is the approval's Deny, with the
// message typed for the agent.
func TestApprovalDialog_EscapeDenies(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(shellRequest(question.Client{Name: "claude-code"}, "npm test", question.RiskMedium, ""))
	d.guard.arm()
	test.Type(d.r.(*approvalRenderer).note, "not now")
	d.win.Canvas().Focus(d.root)
	e.press(d, fyne.KeyEscape)
	if res := e.result(d.q.ID); res.Outcome != question.Declined || res.Note != "not now" {
		t.Fatalf("Esc gave %+v", res)
	}
}
