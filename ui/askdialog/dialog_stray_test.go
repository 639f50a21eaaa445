package askdialog

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/asktray/asktray/app/question"
)

// typeLine sends what the GLFW driver sends the focused widget for each
// character of line, 120 ms apart: key-down, the typed rune (Space and
// digits also as a typed key, as GLFW reports both), key-up.
func (e *dialogEnv) typeLine(d *questionDialog, line string) {
	e.t.Helper()
	for _, r := range line {
		e.clock.advance(120 * time.Millisecond)
		k := runeKey(r)
		e.keyDown(d, k)
		e.focused(d).TypedRune(r)
		if k == fyne.KeySpace || digitKey(k) > 0 {
			e.typeKey(d, k)
		}
		e.keyUp(d, k)
	}
}

// runeKey names the key that types r on a US layout, near enough for the guard.
func runeKey(r rune) fyne.KeyName {
	switch r {
	case ' ':
		return fyne.KeySpace
	case '-':
		return fyne.KeyMinus
	case '/':
		return fyne.KeySlash
	case '.':
		return fyne.KeyPeriod
	}
	return fyne.KeyName(strings.ToUpper(string(unicode.ToLower(r))))
}

// TestDialog_TextTypedBeforeArmingIsNotKept is item 8 of issue 37: a person
// typing a command line for their terminal when a text question pops up
// and takes focus. The rest of the line goes to the dialog's field, which
// has focus; none of it is kept, nor does Backspace eat the default, and
// the Enter that ends the line does nothing. Once the delay has passed
// with no key pressed, what the person types is theirs.
func TestDialog_TextTypedBeforeArmingIsNotKept(t *testing.T) {
	e := newDialogEnv(t)
	def, _ := json.Marshal("main")
	d := e.ask(question.Question{Kind: question.KindText, Message: "Which branch?", FreeText: true, Default: def})
	r := d.r.(*textRenderer)
	if e.focused(d) != r.entry {
		t.Fatal("the entry does not have focus")
	}
	e.focusWindow(d)
	e.typeLine(d, "git push origin e2e-fix 2 3")
	e.press(d, fyne.KeyBackspace)
	e.press(d, fyne.KeyReturn)
	if r.entry.Text != "main" {
		t.Fatalf("the field took keys typed before arming: %q", r.entry.Text)
	}
	e.pending(d.q.ID)
	e.clock.advance(question.DefaultArmDelay)
	if !d.guard.armed {
		t.Fatal("not armed once the keys stopped")
	}
	e.press(d, fyne.KeyBackspace)
	e.typeLine(d, "-2")
	e.press(d, fyne.KeyReturn)
	if res := e.result(d.q.ID); string(res.Value) != `"mai-2"` {
		t.Fatalf("value %s", res.Value)
	}
	// 27 characters and Backspace at least (GLFW also types Space and
	// the digits as keys, which are dropped too).
	m := regexp.MustCompile(`dropped_edits=(\d+)`).FindStringSubmatch(e.logs.String())
	if m == nil {
		t.Fatalf("dropped edits not logged: %s", e.logs.String())
	}
	if n, _ := strconv.Atoi(m[1]); n < 28 {
		t.Errorf("%d dropped edits logged, want 28 or more", n)
	}
}

// TestDialog_ChoiceTypedBeforeArmingPicksNothing: a choice with option 2
// picked by default and a note, popping up under the same typing: no
// digit, Space or letter changes the picks or the note, so the default
// stands, and a key held down from before arming, whose repeats come
// after, types nothing either.
func TestDialog_ChoiceTypedBeforeArmingPicksNothing(t *testing.T) {
	e := newDialogEnv(t)
	def, _ := json.Marshal([]string{"b"})
	d := e.ask(question.Question{Kind: question.KindMultiChoice, Message: "Which suites?", Options: testSuites,
		Default: def, FreeText: true})
	r := d.r.(*choiceRenderer)
	e.focusWindow(d)
	e.typeLine(d, "make e2e 1 3")
	d.win.Canvas().Focus(r.list.rows[0]) // Tab to the first option, then more typing
	e.typeLine(d, "go test ./... 2")
	d.win.Canvas().Focus(r.note)
	e.typeLine(d, "run e2e")
	e.keyDown(d, fyne.KeyE) // held from before arming
	e.clock.advance(question.DefaultArmDelay)
	if !d.guard.armed {
		t.Fatal("not armed once the keys stopped")
	}
	e.focused(d).TypedRune('e') // its repeat, with no new key-down
	if got := r.list.selected(); len(got) != 1 || got[0] != 1 || r.note.Text != "" {
		t.Fatalf("typing before arming changed the answer: picked %v, note %q", got, r.note.Text)
	}
	e.keyUp(d, fyne.KeyE)
	e.typeLine(d, "ok")
	d.win.Canvas().Focus(r.list.rows[2])
	e.keyDown(d, fyne.KeySpace)
	e.focused(d).TypedRune(' ')
	e.keyUp(d, fyne.KeySpace)
	e.press(d, fyne.KeyReturn)
	if res := e.result(d.q.ID); string(res.Value) != `["b","c"]` || res.Note != "ok" {
		t.Fatalf("value %s note %q", res.Value, res.Note)
	}
}

// TestGuard_ModifierHeldAcrossArmingStillTypes: Shift held down from
// before arming types nothing by itself, so a capital typed after is kept.
func TestGuard_ModifierHeldAcrossArmingStillTypes(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindText, Message: "Name?", FreeText: true})
	r := d.r.(*textRenderer)
	e.focusWindow(d)
	e.keyDown(d, desktop.KeyShiftLeft)
	e.clock.advance(question.DefaultArmDelay)
	e.typeLine(d, "A")
	if r.entry.Text != "A" {
		t.Fatalf("entry %q", r.entry.Text)
	}
}
