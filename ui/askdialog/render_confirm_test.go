package askdialog

import (
	"encoding/json"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
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
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindConfirm, Message: "Delete the build/ directory (3.2 GB)?", Destructive: true})
	yes, no := findButton(t, d, "Yes"), findButton(t, d, "No")
	if yes.Importance != widget.DangerImportance || no.Importance != widget.HighImportance || d.defaultButton != no {
		t.Fatalf("yes %v, no %v, default %q", yes.Importance, no.Importance, d.defaultButton.Text)
	}
	if d.r.Content() == nil {
		t.Error("no warning line")
	}
	d.guard.arm()
	e.press(d, fyne.KeyReturn)
	if res := e.result(d.q.ID); res.Outcome != question.Answered || string(res.Value) != `"no"` {
		t.Fatalf("Enter gave %+v %s", res, res.Value)
	}
}
