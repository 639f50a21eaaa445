package askdialog

import (
	"encoding/json"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
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

// eightDeploys are eight options with descriptions: more than fit unscrolled.
var eightDeploys = []question.Option{
	{Label: "Canary", Description: "1 % of traffic for an hour, then everyone"},
	{Label: "Blue-green", Description: "a second fleet, switched over at once"},
	{Label: "Rolling", Description: "one node at a time, 20 nodes"},
	{Label: "Region by region", Description: "eu-west-1 first, then the others a day apart"},
	{Label: "Feature flag", Description: "ship dark, turn it on from the dashboard"},
	{Label: "Friday freeze", Description: "wait for Monday's window"},
	{Label: "Hotfix path", Description: "skip the soak test; for the incident only"},
	{Label: "Do nothing", Description: "leave production on v1.4.1"},
}

func TestChoiceDialog_DigitScrollsItsOptionIntoView(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindChoice, Message: "How should I roll out v1.5?", Options: eightDeploys})
	r := d.r.(*choiceRenderer)
	if r.list.scroll == nil {
		t.Fatal("eight options do not scroll")
	}
	if inScrollView(r.list.scroll, r.list.rows[6]) {
		t.Fatal("option 7 is in view before the key: the test shows nothing")
	}
	d.guard.arm()
	e.press(d, fyne.Key7)
	if got := r.list.selected(); len(got) != 1 || got[0] != 6 {
		t.Fatalf("selected %v", got)
	}
	if !inScrollView(r.list.scroll, r.list.rows[6]) {
		t.Errorf("option 7 is off screen after pressing 7 (offset %v, view %v)", r.list.scroll.Offset, r.list.scroll.Size())
	}
	e.press(d, fyne.Key1)
	if !inScrollView(r.list.scroll, r.list.rows[0]) {
		t.Errorf("option 1 is off screen after pressing 1 (offset %v)", r.list.scroll.Offset)
	}
	d.win.Canvas().Focus(r.list.rows[7]) // as Tab does
	if !inScrollView(r.list.scroll, r.list.rows[7]) {
		t.Errorf("option 8 is off screen once it has focus (offset %v)", r.list.scroll.Offset)
	}
}

// inScrollView reports whether obj lies wholly within the visible part of s.
func inScrollView(s *container.Scroll, obj fyne.CanvasObject) bool {
	d := fyne.CurrentApp().Driver()
	top, view := d.AbsolutePositionForObject(obj).Y, d.AbsolutePositionForObject(s).Y
	return obj.Size().Height > 0 && top >= view && top+obj.Size().Height <= view+s.Size().Height
}

func TestChoiceDialog_LongListTakesTheExtraHeight(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindChoice, Message: "How should I roll out v1.5?", Options: eightDeploys})
	r := d.r.(*choiceRenderer)
	list, message := r.list.scroll.Size().Height, d.messageBox.Size().Height
	size := d.win.Canvas().Size()
	d.win.Resize(fyne.NewSize(size.Width, size.Height+200))
	if grew := r.list.scroll.Size().Height - list; grew < 190 {
		t.Errorf("the options grew by %v of 200", grew)
	}
	if got := d.messageBox.Size().Height; got != message {
		t.Errorf("the message box went from %v to %v high", message, got)
	}
}
