package askdialog

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/ui/internal/uikit"
)

// textRenderer asks for free text: a single- or multi-line entry with the
// question's placeholder and default, its length rule shown under it and
// enforced, and its suggested answers listed under it, one a row with its
// description, each filling the entry when tapped. When
// free text is off the suggestions are the only answers, picked like a
// choice. Its methods run on the Fyne goroutine.
type textRenderer struct {
	q     *question.Question
	h     host
	entry *keyEntry     // nil when free text is off
	rule  *widget.Label // the length rule and count; red while broken
	fills []*optionRow  // one per suggested answer, with free text on
	list  *optionList   // the suggested answers, with free text off
}

func newTextRenderer(q *question.Question, h host) (renderer, error) {
	r := &textRenderer{q: q, h: h}
	if !q.FreeText {
		labels, descs := optionTexts(q.Options)
		r.list = newOptionList(h, labels, descs, true, true, h.changed)
		if d := present.DefaultLabels(q.Default); len(d) == 1 {
			r.list.set(slices.Index(labels, d[0]), true)
		}
		return r, nil
	}
	r.entry = newKeyEntry(h, q.Multiline)
	r.entry.PlaceHolder = q.Placeholder
	if q.Multiline {
		r.entry.SetMinRowsVisible(4)
	}
	var def string
	if json.Unmarshal(q.Default, &def) == nil {
		r.entry.SetText(def)
	}
	r.rule = uikit.SmallLabel("")
	r.rule.Alignment = fyne.TextAlignTrailing
	r.entry.OnChanged = func(string) {
		r.updateRule()
		h.changed()
	}
	for _, o := range q.Options {
		text := o.Label
		row := newSuggestionRow(h, present.Visible(text), present.Visible(o.Description), theme.ContentPasteIcon(), func() { r.fill(text) })
		r.fills = append(r.fills, row)
	}
	r.updateRule()
	return r, nil
}

// Content returns the entry with its rule and suggestions, or the picker.
func (r *textRenderer) Content() fyne.CanvasObject {
	if r.entry == nil {
		return r.list.content()
	}
	box := container.NewVBox(r.entry)
	if r.rule.Text != "" {
		box.Add(r.rule)
	}
	if len(r.fills) > 0 {
		box.Add(uikit.SmallLabel("Suggestions:"))
		list := container.NewVBox()
		for _, row := range r.fills {
			list.Add(row)
		}
		content, _ := scrolledRows(list, len(r.fills))
		box.Add(content)
	}
	return box
}

// fill puts suggestion text in the entry and the cursor after it, where
// the person may go on typing.
func (r *textRenderer) fill(text string) {
	r.entry.SetText(text)
	if c := fyne.CurrentApp().Driver().CanvasForObject(r.entry); c != nil {
		c.Focus(r.entry)
	}
	cursorToEnd(r.entry)
}

// Actions returns Decline and OK, OK being the default.
func (r *textRenderer) Actions() []*action {
	return answerActions(r.q, fixedReply)
}

// Answer returns the typed text or the picked suggestion.
func (r *textRenderer) Answer() (question.Response, error) {
	if r.entry == nil {
		sel := r.list.selected()
		if err := present.PickError(r.q, len(sel), ""); err != nil {
			return question.Response{}, err
		}
		return acceptValue(r.q.Options[sel[0]].Label)
	}
	if err := present.LengthError(r.q, r.entry.Text); err != nil {
		return question.Response{}, err
	}
	return acceptValue(r.entry.Text)
}

// EnterRefusal keeps Enter from sending an empty typed answer: an agent
// that asked for text gets "" only from a click on OK.
func (r *textRenderer) EnterRefusal() error {
	if r.entry != nil && strings.TrimSpace(r.entry.Text) == "" {
		return errors.New("the answer is empty: type it, or click " + r.okLabel() + " to send it empty")
	}
	return nil
}

// okLabel is the label of the button that sends the text (OK).
func (r *textRenderer) okLabel() string {
	for _, a := range r.Actions() {
		if a.isDefault {
			return a.label
		}
	}
	return "OK"
}

// Focus puts the cursor in the entry, after any default text.
func (r *textRenderer) Focus() fyne.Focusable {
	if r.entry == nil {
		return nil
	}
	cursorToEnd(r.entry)
	return r.entry
}

// Pick picks suggestion n when free text is off.
func (r *textRenderer) Pick(n int) bool {
	if r.list == nil || n > len(r.list.rows) {
		return false
	}
	r.list.toggle(n - 1)
	return true
}

// updateRule shows the length rule with a live count, red while broken.
func (r *textRenderer) updateRule() {
	rule := present.LengthRule(r.q)
	if rule == "" {
		return
	}
	n, maxL := utf8.RuneCountInString(r.entry.Text), r.q.MaxLength
	r.rule.Importance = widget.LowImportance
	if maxL > 0 && n > maxL { // too short is fine while typing; OK says so
		r.rule.Importance = widget.DangerImportance
	}
	r.rule.SetText(fmt.Sprintf("%s%s%d so far", rule, present.Sep, n))
}

// cursorToEnd puts e's cursor after its text, where typing continues a
// default. It must run after layout: a wrapped entry counts rows as laid
// out, and SetText clamps the cursor to the last row and column.
func cursorToEnd(e *keyEntry) {
	e.CursorRow, e.CursorColumn = math.MaxInt32, math.MaxInt32
	e.SetText(e.Text)
}

// optionTexts splits options into labels and descriptions.
func optionTexts(opts []question.Option) (labels, descs []string) {
	for _, o := range opts {
		labels = append(labels, o.Label)
		descs = append(descs, o.Description)
	}
	return labels, descs
}
