package askdialog

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app/question"
)

// altKey is one full press of Alt and key as the GLFW driver delivers it:
// the key's down to the focused widget, then the chord as a shortcut.
func (e *dialogEnv) altKey(d *questionDialog, k fyne.KeyName) {
	e.t.Helper()
	f := e.focused(d)
	f.(desktop.Keyable).KeyDown(&fyne.KeyEvent{Name: k})
	sc, ok := f.(fyne.Shortcutable)
	if !ok {
		e.t.Fatalf("%T, which has focus, takes no shortcuts", f)
	}
	sc.TypedShortcut(&desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierAlt})
	if d.win != nil && !d.done {
		f.(desktop.Keyable).KeyUp(&fyne.KeyEvent{Name: k})
	}
}

// TestDialog_AllowOnceIsOneChord: in an approval, Alt+A presses Allow once
// from wherever focus is (the dialog, the message entry), and the key hint
// says so; before the buttons unlock it does nothing; Enter still denies.
// It took six Tabs and Space (issue 38 item 5).
func TestDialog_AllowOnceIsOneChord(t *testing.T) {
	e, _ := newApprovalEnv(t)
	d := e.ask(deploy(question.RiskLow))
	if !strings.Contains(d.keysHint.Text, "Alt+A: Allow once") || !strings.Contains(d.keysHint.Text, "Enter: Deny") {
		t.Fatalf("key hint %q", d.keysHint.Text)
	}
	if d.mnemonics["A"] == nil || d.mnemonics["A"].Text != "Allow once" || d.mnemonics["D"].Text != "Deny" {
		t.Fatalf("mnemonics %v", d.mnemonics)
	}
	e.focusWindow(d)
	e.altKey(d, fyne.KeyA) // before the arming delay
	e.pending(d.q.ID)
	e.clock.advance(question.DefaultArmDelay)
	d.win.Canvas().Focus(d.r.(*approvalRenderer).note)
	test.Type(d.r.(*approvalRenderer).note, "ship it")
	e.altKey(d, fyne.KeyA)
	res := e.result(d.q.ID)
	if res.Outcome != question.Answered || res.Note != "ship it" || !strings.Contains(e.logs.String(), "key:Alt+A") {
		t.Fatalf("result %+v", res)
	}

	d = e.ask(deploy(question.RiskLow))
	e.focusWindow(d)
	e.clock.advance(question.DefaultArmDelay)
	e.press(d, fyne.KeyReturn)
	if res := e.result(d.q.ID); res.Outcome != question.Declined {
		t.Fatalf("Enter on an approval: %+v", res)
	}
}

// TestDialog_TabReachesTheAnswersBeforeSnooze: from the dialog, Tab visits
// the message entry and every answer button before Snooze (it started at
// Snooze), so Allow once is three Tabs away, not six.
func TestDialog_TabReachesTheAnswersBeforeSnooze(t *testing.T) {
	e, _ := newApprovalEnv(t)
	d := e.ask(deploy(question.RiskLow))
	e.focusWindow(d)
	e.clock.advance(question.DefaultArmDelay)
	c := d.win.Canvas()
	var order []string
	for range 5 {
		c.FocusNext()
		switch f := c.Focused().(type) {
		case *dialogButton:
			order = append(order, f.Text)
		case *keyEntry:
			order = append(order, "message")
		default:
			order = append(order, "?")
		}
	}
	want := []string{"message", "Always…", "Deny", "Allow once", "Snooze"}
	if strings.Join(order, ",") != strings.Join(want, ",") {
		t.Fatalf("Tab order %q, want %q", order, want)
	}
}

// TestDialog_EnterOnAnEmptyTextSendsNothing: Enter in an empty text field
// sends nothing and says how to send an empty answer; a typed one goes.
func TestDialog_EnterOnAnEmptyTextSendsNothing(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindText, Message: "Branch name?", FreeText: true})
	e.focusWindow(d)
	e.clock.advance(question.DefaultArmDelay)
	e.press(d, fyne.KeyReturn)
	e.pending(d.q.ID)
	if !d.errText.Visible() || !strings.Contains(d.errText.Text, "empty") || !strings.Contains(d.errText.Text, "click OK") {
		t.Fatalf("error line %v %q", d.errText.Visible(), d.errText.Text)
	}
	test.Type(d.r.(*textRenderer).entry, "   ")
	e.press(d, fyne.KeyReturn)
	e.pending(d.q.ID)
	test.Type(d.r.(*textRenderer).entry, "feature/keys")
	e.press(d, fyne.KeyReturn)
	if res := e.result(d.q.ID); string(res.Value) != `"   feature/keys"` {
		t.Fatalf("value %s", res.Value)
	}

	// A click on OK sends an empty answer: the person meant it.
	d = e.ask(question.Question{Kind: question.KindText, Message: "Extra flags?", FreeText: true})
	e.focusWindow(d)
	e.clock.advance(question.DefaultArmDelay)
	test.Tap(findButton(t, d, "OK"))
	if res := e.result(d.q.ID); res.Outcome != question.Answered || string(res.Value) != `""` {
		t.Fatalf("OK on an empty answer: %+v %s", res, res.Value)
	}
}

// TestDialog_EnterBeforeUnlockSaysSo: Enter while the buttons are still
// locked sends nothing and the unlock hint says so (it did nothing
// silently); once they unlock the key hint is back and a new Enter answers.
func TestDialog_EnterBeforeUnlockSaysSo(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(confirmQ())
	e.focusWindow(d)
	e.press(d, fyne.KeyReturn)
	e.pending(d.q.ID)
	if !d.unlockHint.Visible() || !strings.HasPrefix(d.unlockHint.Text, "Enter sent nothing: answer buttons unlock") {
		t.Fatalf("unlock hint %v %q", d.unlockHint.Visible(), d.unlockHint.Text)
	}
	e.clock.advance(question.DefaultArmDelay)
	if d.unlockHint.Visible() || !d.keysHint.Visible() || d.errText.Visible() {
		t.Fatalf("armed: unlock hint %v, key hint %v, error %v", d.unlockHint.Visible(), d.keysHint.Visible(), d.errText.Visible())
	}
	e.press(d, fyne.KeyReturn)
	if res := e.result(d.q.ID); string(res.Value) != `"yes"` {
		t.Fatalf("result %+v %s", res, res.Value)
	}
}

// TestDialog_NoteTypingNeverTouchesTheOptions: digits, Space and letters
// typed into a choice's note go into the note; the options stay as they
// were, and Alt letters of no button type nothing and pick nothing.
func TestDialog_NoteTypingNeverTouchesTheOptions(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindChoice, Message: "Which database?", FreeText: true,
		Options: []question.Option{{Label: "Postgres"}, {Label: "SQLite"}, {Label: "MySQL"}}})
	e.focusWindow(d)
	e.clock.advance(question.DefaultArmDelay)
	r := d.r.(*choiceRenderer)
	before := r.list.selected()
	d.win.Canvas().Focus(r.note)
	for _, k := range []fyne.KeyName{fyne.Key2, fyne.KeySpace, fyne.Key3} {
		e.press(d, k)
	}
	test.Type(r.note, "2 or 3, not 1")
	e.altKey(d, fyne.KeyQ)
	if got := r.list.selected(); len(got) != len(before) {
		t.Fatalf("typing in the note changed the options: %v, was %v", got, before)
	}
	if r.note.Text != "2 or 3, not 1" {
		t.Fatalf("note %q", r.note.Text)
	}
	e.pending(d.q.ID)
}
