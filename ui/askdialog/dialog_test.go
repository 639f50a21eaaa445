package askdialog

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app/question"
)

func confirmQ() question.Question {
	return question.Question{Kind: question.KindConfirm, Header: "Tests", Message: "Run the test suite now?"}
}

func TestDialog_NothingActsBeforeArming(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(confirmQ())
	yes := findButton(t, d, "Yes")
	if !yes.Disabled() || !d.unlockHint.Visible() || d.keysHint.Visible() {
		t.Fatalf("unarmed: disabled %v, hint %v", yes.Disabled(), d.unlockHint.Visible())
	}
	test.Tap(yes)
	yes.Enable() // even an enabled-looking button does nothing before arming
	test.Tap(yes)
	test.Tap(findButton(t, d, "No"))
	e.press(d, fyne.KeyReturn)
	e.press(d, fyne.KeyEscape)
	e.press(d, fyne.KeySpace)
	e.pending(d.q.ID)
	if !e.windowOpen(d.win) {
		t.Fatal("window closed")
	}
	d.guard.arm()
	if yes.Disabled() || d.unlockHint.Visible() || !d.keysHint.Visible() {
		t.Fatal("armed: buttons still disabled or hint still shown")
	}
	test.Tap(yes)
	if res := e.result(d.q.ID); string(res.Value) != `"yes"` {
		t.Fatalf("value %s", res.Value)
	}
	if d.guard.rejected < 5 {
		t.Errorf("rejected %d inputs, want at least 5", d.guard.rejected)
	}
	if logs := e.logs.String(); !strings.Contains(logs, "control=Yes input=pointer since_shown_ms=") {
		t.Errorf("answer not logged with its input: %s", logs)
	}
}

func TestDialog_ArmsAfterDelayOfFocus(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(confirmQ())
	e.clock.advance(time.Second)
	if d.guard.armed {
		t.Fatal("armed without window focus")
	}
	e.focusWindow(d)
	e.clock.advance(question.DefaultArmDelay - time.Millisecond)
	if d.guard.armed || !findButton(t, d, "Yes").Disabled() {
		t.Fatal("armed before the delay")
	}
	e.clock.advance(time.Millisecond)
	if !d.guard.armed || findButton(t, d, "Yes").Disabled() {
		t.Fatal("not armed after the delay")
	}
	// Losing focus disarms; regaining it starts the delay again.
	e.blurWindow(d)
	if d.guard.armed || !findButton(t, d, "Yes").Disabled() {
		t.Fatal("still armed after losing focus")
	}
	e.press(d, fyne.KeyReturn)
	e.pending(d.q.ID)
	e.focusWindow(d)
	e.clock.advance(question.DefaultArmDelay / 2)
	e.press(d, fyne.KeyReturn) // too early, and it starts the delay again
	e.pending(d.q.ID)
	e.clock.advance(question.DefaultArmDelay)
	e.press(d, fyne.KeyReturn)
	if res := e.result(d.q.ID); string(res.Value) != `"yes"` {
		t.Fatalf("value %s", res.Value)
	}
}

// TestDialog_TypingNeverArms is a person typing in a terminal when a
// confirm pops up and takes focus: every key they press before the dialog
// is armed starts the delay again, so the Enter that ends their line does
// nothing however long they typed, and the dialog arms only once the delay
// has passed with no key pressed.
func TestDialog_TypingNeverArms(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(confirmQ())
	e.focusWindow(d)
	line := []fyne.KeyName{fyne.KeyL, fyne.KeyS, fyne.KeySpace, fyne.KeyMinus, fyne.KeyL, fyne.KeyA}
	for i := range 20 { // 20 keys 150 ms apart: 3 s of typing, six arming delays
		e.clock.advance(150 * time.Millisecond)
		e.press(d, line[i%len(line)])
		if d.guard.armed {
			t.Fatalf("armed while typing, after key %d", i+1)
		}
	}
	if !findButton(t, d, "Yes").Disabled() || d.unlockHint.Text != "Answer buttons unlock once you stop typing" {
		t.Fatalf("while typing: Yes enabled %v, hint %q", !findButton(t, d, "Yes").Disabled(), d.unlockHint.Text)
	}
	e.clock.advance(150 * time.Millisecond)
	e.press(d, fyne.KeyReturn) // the end of the line
	e.clock.advance(question.DefaultArmDelay - time.Millisecond)
	e.press(d, fyne.KeyReturn) // pressed again a little too soon: still nothing
	e.pending(d.q.ID)
	e.clock.advance(question.DefaultArmDelay - time.Millisecond)
	if d.guard.armed {
		t.Fatal("armed before the delay passed with no key pressed")
	}
	e.clock.advance(time.Millisecond)
	if !d.guard.armed || d.unlockHint.Visible() {
		t.Fatalf("not armed once the keys stopped for the delay: armed %v", d.guard.armed)
	}
	e.typeKey(d, fyne.KeyReturn) // a repeat of the last Enter, no new key-down
	e.pending(d.q.ID)
	e.press(d, fyne.KeyReturn)
	if res := e.result(d.q.ID); string(res.Value) != `"yes"` {
		t.Fatalf("value %s", res.Value)
	}
	if logs := e.logs.String(); !strings.Contains(logs, "arming_restarts=22") {
		t.Errorf("restarts not logged: %s", logs)
	}
}

func TestDialog_FocusMovingInsideKeepsArmed(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindText, Message: "Name?", FreeText: true})
	e.focusWindow(d)
	e.clock.advance(question.DefaultArmDelay)
	c := d.win.Canvas()
	c.FocusNext()
	c.FocusNext()
	e.clock.flush()
	if !d.guard.armed {
		t.Fatal("moving focus inside the window disarmed")
	}
	c.Unfocus() // what a tap on a non-focusable spot does
	e.clock.flush()
	if !d.guard.armed || c.Focused() != d.root {
		t.Fatalf("after unfocus: armed %v, focus %T", d.guard.armed, c.Focused())
	}
	test.Tap(findButton(t, d, "Decline"))
	if res := e.result(d.q.ID); res.Outcome != question.Declined {
		t.Fatalf("result %+v", res)
	}
}

func TestDialog_HeldKeyNeverAnswers(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(confirmQ())
	e.keyDown(d, fyne.KeyReturn) // pressed before arming, still held
	e.typeKey(d, fyne.KeyReturn)
	d.guard.arm()
	for range 5 { // key-repeat: typed keys without a new key-down
		e.typeKey(d, fyne.KeyReturn)
	}
	e.keyDown(d, fyne.KeyReturn) // a platform that repeats key-downs
	e.typeKey(d, fyne.KeyReturn)
	e.pending(d.q.ID)
	e.keyUp(d, fyne.KeyReturn)
	e.press(d, fyne.KeyReturn) // a fresh press after arming acts
	if res := e.result(d.q.ID); string(res.Value) != `"yes"` {
		t.Fatalf("value %s", res.Value)
	}
}

func TestDialog_RepeatActsOnce(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindMultiChoice, Message: "Which?", Options: testSuites})
	d.guard.arm()
	e.keyDown(d, fyne.Key1)
	for range 4 {
		e.typeKey(d, fyne.Key1)
	}
	e.keyUp(d, fyne.Key1)
	if got := d.r.(*choiceRenderer).list.selected(); len(got) != 1 {
		t.Fatalf("one held key toggled %d times: %v", 4, got)
	}
}

func TestDialog_DeclineEscapeClose(t *testing.T) {
	cases := []struct {
		name string
		do   func(e *dialogEnv, d *questionDialog)
		want question.Outcome
	}{
		{"decline", func(_ *dialogEnv, d *questionDialog) { test.Tap(findButton(t, d, "Decline")) }, question.Declined},
		{"escape", func(e *dialogEnv, d *questionDialog) { e.press(d, fyne.KeyEscape) }, question.Cancelled},
		{"escape in entry", func(e *dialogEnv, d *questionDialog) {
			d.win.Canvas().Focus(d.r.(*textRenderer).entry)
			e.press(d, fyne.KeyEscape)
		}, question.Cancelled},
		{"close button", func(_ *dialogEnv, d *questionDialog) { d.closeRequested() }, question.Cancelled},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newDialogEnv(t)
			d := e.ask(question.Question{Kind: question.KindText, Message: "Name?", FreeText: true})
			w := d.win
			d.guard.arm()
			c.do(e, d)
			if res := e.result(d.q.ID); res.Outcome != c.want || res.Value != nil {
				t.Fatalf("result %+v", res)
			}
			if e.windowOpen(w) {
				t.Fatal("window still open")
			}
		})
	}
}

func TestDialog_CloseButtonWorksUnarmed(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(confirmQ())
	d.closeRequested()
	if res := e.result(d.q.ID); res.Outcome != question.Cancelled {
		t.Fatalf("result %+v", res)
	}
}

func TestDialog_ClientLineAndTimeLeft(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindConfirm, Message: "hi", Deadline: time.Now().Add(5 * time.Minute),
		Client: question.Client{Name: "claude-code", Version: "2.1.3", SessionID: "4f2a9c1e-77b0-4d55"}})
	// The session by its start (the first question seen from it), not its id.
	if want := "claude-code 2.1.3  ·  session since " + d.q.Created.Local().Format("15:04"); d.client.Text != want {
		t.Errorf("client line %q, want %q", d.client.Text, want)
	}
	e.clock.now = d.q.Deadline.Add(-(4*time.Minute + 59*time.Second))
	e.clock.tick()
	if !strings.HasSuffix(d.times.Text, "  ·  4:59 left") || !strings.HasPrefix(d.times.Text, "asked ") {
		t.Errorf("times %q", d.times.Text)
	}
}

// TestArmDelayClamped: the manager holds its delay by question.ClampArmDelay,
// when made and when the setting changes.
func TestArmDelayClamped(t *testing.T) {
	e := newDialogEnv(t)
	m := newDialogs(e.app, e.broker, nil, 10*time.Millisecond)
	if m.armDelay != question.MinArmDelay {
		t.Fatalf("armDelay %v", m.armDelay)
	}
	for in, want := range map[time.Duration]time.Duration{0: question.DefaultArmDelay, 100 * time.Millisecond: question.MinArmDelay, time.Second: time.Second} {
		if m.SetArmDelay(in); m.armDelay != want {
			t.Errorf("SetArmDelay(%v): %v, want %v", in, m.armDelay, want)
		}
	}
}

// TestNextMorning checks the snooze menu's "until 09:00" (the shortened
// session id and the time left are tested with app/question/present).
func TestNextMorning(t *testing.T) {
	at := func(h, m int) time.Time { return time.Date(2026, 3, 14, h, m, 0, 0, time.Local) }
	if got, label := nextMorning(at(7, 30)); !got.Equal(at(9, 0)) || label != "Until 09:00" {
		t.Errorf("07:30 -> %v %q", got, label)
	}
	if got, label := nextMorning(at(9, 0)); !got.Equal(at(9, 0).AddDate(0, 0, 1)) || label != "Until tomorrow 09:00" {
		t.Errorf("09:00 -> %v %q", got, label)
	}
}

func TestDialog_NothingOverflowsTheWidth(t *testing.T) {
	long := strings.Repeat("word ", 18) + "end"
	opts := make([]question.Option, 20)
	for i := range opts {
		opts[i] = question.Option{Label: fmt.Sprintf("%02d %s", i, long), Description: strings.Repeat("detail ", 70)}
	}
	values := `"enum":[` + strings.Repeat(`"`+strings.Repeat("v", 150)+`",`, 1) + `"b","c","d","e","f"]`
	schema := `{"type":"object","properties":{"pick":{"type":"string","title":"` + long + `",` + values + `},
		"r":{"type":"string","enum":["` + long + `","x"]},"t":{"type":"string","description":"` + long + `"}}}`
	client := question.Client{Name: strings.Repeat("n", 200), Version: strings.Repeat("1", 200), SessionID: strings.Repeat("s", 200)}
	qs := []question.Question{
		{Kind: question.KindConfirm, Client: client, Header: strings.Repeat("H", 64), Message: strings.Repeat("m", 4000),
			YesLabel: strings.Repeat("Y", 40), NoLabel: strings.Repeat("N", 40)},
		{Kind: question.KindMultiChoice, Client: client, Message: "```\n" + strings.Repeat("x", 300) + "\n```", Options: opts, FreeText: true},
		{Kind: question.KindForm, Client: client, Message: "m", Schema: json.RawMessage(schema)},
		{Kind: question.KindText, Client: client, Message: "m", FreeText: true, Options: opts[:3]},
	}
	e := newDialogEnv(t)
	for _, q := range qs {
		d := e.ask(q)
		d.win.Content().Refresh()
		if w := d.win.Content().MinSize().Width; w > dialogWidth {
			t.Errorf("%s: content needs %.0f wide", q.Kind, w)
		}
		if h := d.win.Canvas().Size().Height; h > maxDialogHeight {
			t.Errorf("%s: window %.0f high", q.Kind, h)
		}
	}
	if rows := e.ask(qs[1]).r.(*choiceRenderer).list.content(); !isScroll(rows) {
		t.Error("20 options do not scroll")
	}
}

func isScroll(o fyne.CanvasObject) bool {
	_, ok := o.(*container.Scroll)
	return ok
}
