package askdialog

import (
	"encoding/json"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
)

func TestTextDialog_TypeAndOK(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindText, Message: "Name the branch", FreeText: true,
		Placeholder: "feature/…", MinLength: 3, MaxLength: 40})
	if got := d.win.Title(); got != "claude-code asks" {
		t.Errorf("title %q", got)
	}
	r := d.r.(*textRenderer)
	if r.entry.PlaceHolder != "feature/…" || r.entry.MultiLine {
		t.Errorf("entry placeholder %q multiline %v", r.entry.PlaceHolder, r.entry.MultiLine)
	}
	d.guard.arm()
	test.Type(r.entry, "feature/dialogs")
	test.Tap(findButton(t, d, "OK"))
	res := e.result(d.q.ID)
	if res.Outcome != question.Answered || string(res.Value) != `"feature/dialogs"` || res.Via != question.ViaDialog {
		t.Fatalf("result %+v value %s", res, res.Value)
	}
	if e.windowOpen(d.win) {
		t.Error("window still open after answering")
	}
}

func TestTextDialog_LengthEnforcedInline(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindText, Message: "Commit message?", FreeText: true, MinLength: 5, MaxLength: 8})
	r := d.r.(*textRenderer)
	d.guard.arm()
	test.Type(r.entry, "abc")
	if r.rule.Text != "5–8 characters  ·  3 so far" {
		t.Errorf("rule %q", r.rule.Text)
	}
	test.Tap(findButton(t, d, "OK"))
	if !d.errText.Visible() || d.errText.Text == "" {
		t.Fatal("no inline message for a too-short answer")
	}
	e.pending(d.q.ID)
	test.Type(r.entry, "defghij") // 10 now
	test.Tap(findButton(t, d, "OK"))
	e.pending(d.q.ID)
	r.entry.SetText("abcdef")
	if d.errText.Visible() {
		t.Error("stale message still shown after an edit")
	}
	// Enter in the single-line entry presses OK.
	d.win.Canvas().Focus(r.entry)
	e.press(d, fyne.KeyReturn)
	if res := e.result(d.q.ID); string(res.Value) != `"abcdef"` {
		t.Fatalf("value %s", res.Value)
	}
}

func TestTextDialog_MultilineDefaultAndCtrlEnter(t *testing.T) {
	e := newDialogEnv(t)
	def, _ := json.Marshal("line one")
	d := e.ask(question.Question{Kind: question.KindText, Message: "Release notes?", FreeText: true, Multiline: true, Default: def})
	r := d.r.(*textRenderer)
	if !r.entry.MultiLine || r.entry.Text != "line one" {
		t.Fatalf("multiline %v text %q", r.entry.MultiLine, r.entry.Text)
	}
	if e.focused(d) != r.entry {
		t.Error("entry does not have focus")
	}
	d.guard.arm()
	// Plain Enter is a new line in a multi-line entry.
	e.press(d, fyne.KeyReturn)
	e.pending(d.q.ID)
	e.keyDown(d, fyne.KeyReturn)
	r.entry.TypedShortcut(&desktopCtrlEnter)
	res := e.result(d.q.ID)
	if res.Outcome != question.Answered || string(res.Value) != `"line one\n"` {
		t.Fatalf("result %+v %s", res, res.Value)
	}
}

func TestTextDialog_SuggestionsOnly(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindText, Message: "Which remote?",
		Options: []question.Option{{Label: "origin"}, {Label: "upstream", Description: "the fork's parent"}}})
	d.guard.arm()
	e.press(d, fyne.Key2)
	test.Tap(findButton(t, d, "OK"))
	if res := e.result(d.q.ID); string(res.Value) != `"upstream"` {
		t.Fatalf("value %s", res.Value)
	}
}

// threeSuggestions are suggested answers with descriptions, as ask_user
// sends them; the last label is long enough to be cut off in a chip row.
var threeSuggestions = []question.Option{
	{Label: "feature/question-dialogs", Description: "the branch the dialog work started on"},
	{Label: "fix/form-scrolling", Description: "only the form's scrolling fix"},
	{Label: "chore/dialog-screenshots-and-documentation", Description: "screenshots and docs, nothing else"},
}

func TestTextDialog_SuggestionsListedWithDescriptions(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindText, Message: "Which branch?", FreeText: true, Options: threeSuggestions})
	r := d.r.(*textRenderer)
	if len(r.fills) != 3 {
		t.Fatalf("%d suggestion rows", len(r.fills))
	}
	win := d.win.Canvas().Size()
	prevBottom := float32(-1)
	for i, row := range r.fills {
		pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(row)
		size := row.Size()
		if !row.Visible() || size.Width <= 0 || pos.X < 0 || pos.X+size.Width > win.Width || pos.Y+size.Height > win.Height {
			t.Errorf("suggestion %d at %v size %v, outside the %v window", i+1, pos, size, win)
		}
		if pos.Y < prevBottom {
			t.Errorf("suggestion %d at y %v overlaps the one above (bottom %v): not one under the other", i+1, pos.Y, prevBottom)
		}
		prevBottom = pos.Y + size.Height
		if got := rowTexts(row); !slices.Contains(got, threeSuggestions[i].Label) || !slices.Contains(got, threeSuggestions[i].Description) {
			t.Errorf("suggestion %d shows %q, want its label and description", i+1, got)
		}
	}
	d.guard.arm()
	test.Tap(r.fills[2])
	if r.entry.Text != threeSuggestions[2].Label {
		t.Fatalf("entry %q after tapping suggestion 3", r.entry.Text)
	}
	test.Tap(findButton(t, d, "OK"))
	if res := e.result(d.q.ID); string(res.Value) != `"chore/dialog-screenshots-and-documentation"` {
		t.Fatalf("value %s", res.Value)
	}
}

// rowTexts returns the texts an option or suggestion row draws, visible ones only.
func rowTexts(row *optionRow) []string {
	var out []string
	for _, o := range test.WidgetRenderer(row).Objects() {
		if l, ok := o.(*widget.Label); ok && l.Visible() && l.Size().Height > 0 {
			out = append(out, l.Text)
		}
	}
	return out
}
