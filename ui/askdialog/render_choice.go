package askdialog

import (
	"fmt"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/ui/internal/uikit"
)

// choiceRenderer asks for one option (choice, radio marks) or several
// (multi_choice, check marks), each with its description under its label.
// Keys 1..9 pick or toggle the Nth option; the question's default is
// preselected; a multi_choice's selection bounds are shown and enforced; an
// optional note entry appears when the question allows free text. Its
// methods run on the Fyne goroutine.
type choiceRenderer struct {
	q    *question.Question
	h    host
	list *optionList
	rule *widget.Label // multi_choice: how many to pick, and how many are picked
	note *keyEntry     // nil unless free text is on
}

func newChoiceRenderer(q *question.Question, h host) (renderer, error) {
	r := &choiceRenderer{q: q, h: h}
	labels, descs := optionTexts(q.Options)
	r.list = newOptionList(h, labels, descs, q.Kind == question.KindChoice, true, r.changed)
	for _, d := range present.DefaultLabels(q.Default) {
		r.list.set(slices.Index(labels, d), true)
	}
	if q.Kind == question.KindMultiChoice {
		r.rule = uikit.SmallLabel("")
		r.updateRule()
	}
	if q.FreeText {
		r.note = newKeyEntry(h, false)
		r.note.PlaceHolder = "Add a note (optional)"
		r.note.OnChanged = func(string) { h.changed() }
	}
	return r, nil
}

func (r *choiceRenderer) changed() {
	if r.rule != nil {
		r.updateRule()
	}
	r.h.changed()
}

// Content returns the rule, the options and the note entry; options that
// scroll take the window's extra height (see Grows).
func (r *choiceRenderer) Content() fyne.CanvasObject {
	list := r.list.content()
	var top, bottom fyne.CanvasObject
	if r.rule != nil {
		top = r.rule
	}
	if r.note != nil {
		bottom = r.note
	}
	return container.NewBorder(top, bottom, nil, nil, list)
}

// Grows gives a long, scrolling list of options the window's extra height.
func (r *choiceRenderer) Grows() bool { return r.list.scroll != nil }

// Actions returns Decline and OK, OK being the default.
func (r *choiceRenderer) Actions() []*action {
	return answerActions(r.q, fixedReply)
}

// Answer returns the picked labels, in option order, and the note.
func (r *choiceRenderer) Answer() (question.Response, error) {
	picked := []string{}
	for _, i := range r.list.selected() {
		picked = append(picked, r.q.Options[i].Label)
	}
	note := ""
	if r.note != nil {
		note = r.note.Text
	}
	if err := present.PickError(r.q, len(picked), note); err != nil {
		return question.Response{}, err
	}
	resp, err := acceptValue(picked)
	resp.Note = note
	return resp, err
}

// updateRule shows how many to pick and how many are picked, red when too many.
func (r *choiceRenderer) updateRule() {
	_, hi := r.q.SelectBounds()
	n := len(r.list.selected())
	r.rule.Importance = widget.LowImportance
	if n > hi {
		r.rule.Importance = widget.DangerImportance
	}
	r.rule.SetText(fmt.Sprintf("%s%s%d picked", present.SelectRule(r.q), present.Sep, n))
}

// Focus leaves focus on the dialog, where the digit keys work.
func (r *choiceRenderer) Focus() fyne.Focusable { return nil }

// Pick picks (choice) or toggles (multi_choice) option n.
func (r *choiceRenderer) Pick(n int) bool {
	if n < 1 || n > len(r.list.rows) {
		return false
	}
	r.list.toggle(n - 1)
	return true
}
