package askdialog

import (
	"encoding/json"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app/question"
)

var testSuites = []question.Option{
	{Label: "a", Description: "unit tests"},
	{Label: "b", Description: "integration tests"},
	{Label: "c", Description: "end-to-end tests"},
}

func TestChoiceDialog_KeyPicksAndNote(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindChoice, Message: "Which suite?", Options: testSuites, FreeText: true})
	r := d.r.(*choiceRenderer)
	if r.list.rows[1].desc != "integration tests" || !r.list.rows[1].radio {
		t.Fatalf("row 2: %+v", r.list.rows[1])
	}
	e.press(d, fyne.Key2) // before arming: nothing
	if len(r.list.selected()) != 0 {
		t.Fatal("key 2 picked before arming")
	}
	d.guard.arm()
	e.press(d, fyne.Key2)
	if got := r.list.selected(); len(got) != 1 || got[0] != 1 {
		t.Fatalf("selected %v", got)
	}
	test.Type(r.note, "only the fast ones")
	d.win.Canvas().Focus(r.note)
	e.press(d, fyne.KeyReturn)
	res := e.result(d.q.ID)
	if string(res.Value) != `["b"]` || res.Note != "only the fast ones" {
		t.Fatalf("value %s note %q", res.Value, res.Note)
	}
}

func TestChoiceDialog_DefaultAndNothingPicked(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindChoice, Message: "Which suite?", Options: testSuites})
	d.guard.arm()
	test.Tap(findButton(t, d, "OK"))
	if !d.errText.Visible() {
		t.Fatal("no message when nothing is picked")
	}
	e.pending(d.q.ID)

	d2 := e.ask(question.Question{Kind: question.KindChoice, Message: "Which suite?", Options: testSuites, Default: json.RawMessage(`"c"`)})
	d2.guard.arm()
	test.Tap(d2.r.(*choiceRenderer).list.rows[2]) // tapping the picked radio keeps it
	test.Tap(findButton(t, d2, "OK"))
	if res := e.result(d2.q.ID); string(res.Value) != `["c"]` {
		t.Fatalf("value %s", res.Value)
	}
}

func TestMultiChoiceDialog_TogglesAndBounds(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindMultiChoice, Message: "Which suites?", Options: testSuites, MinSelect: 1, MaxSelect: 2})
	r := d.r.(*choiceRenderer)
	if r.list.rows[0].radio {
		t.Fatal("multi choice uses radio marks")
	}
	d.guard.arm()
	test.Tap(findButton(t, d, "OK"))
	if !d.errText.Visible() {
		t.Fatal("no message for too few picks")
	}
	for _, k := range []fyne.KeyName{fyne.Key1, fyne.Key2, fyne.Key3} {
		e.press(d, k)
	}
	if r.rule.Text != "Pick 1 to 2  ·  3 picked" {
		t.Errorf("rule %q", r.rule.Text)
	}
	test.Tap(findButton(t, d, "OK"))
	e.pending(d.q.ID)
	e.press(d, fyne.Key2) // toggles b off
	test.Tap(findButton(t, d, "OK"))
	if res := e.result(d.q.ID); string(res.Value) != `["a","c"]` {
		t.Fatalf("value %s", res.Value)
	}
}
