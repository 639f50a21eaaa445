package askdialog

import (
	"encoding/json"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// renderer draws the controls of one kind of question and turns them into
// an answer. There is one per kind, in render_<kind>.go; the dialog around
// it owns the window, the message, the guard and the bottom bar. Its methods
// run on the Fyne goroutine.
type renderer interface {
	// Content returns the controls shown under the message, or nil.
	Content() fyne.CanvasObject
	// Actions returns the kind's answer buttons, left to right, its one no
	// (Decline, No or Deny) included; exactly one is the default, which
	// Enter presses.
	Actions() []*action
	// Answer returns the accept response built from the current input, or
	// an error for the person; the dialog still runs it through
	// Question.CheckResponse before the broker sees it.
	Answer() (question.Response, error)
	// Focus returns the control that takes keyboard focus when the dialog
	// opens, or nil for the dialog itself.
	Focus() fyne.Focusable
	// Pick handles digit key n (1..9): it picks or toggles option n and
	// reports whether the kind has such an option.
	Pick(n int) bool
}

// host is what a renderer needs from its dialog: the sink its widgets
// report to, changed, called whenever the person edits the input, and
// popUp, which shows content in a modal pop-up under below and returns
// what closes it.
type host interface {
	inputSink
	changed()
	popUp(content, below fyne.CanvasObject) (closeIt func())
}

// revealer is a renderer whose controls scroll: Reveal scrolls the one
// holding w into view when w gains focus.
type revealer interface {
	Reveal(w fyne.Focusable)
}

// grower is a renderer whose content takes the window's extra height
// (Grows true), in place of the message, which then stays its own height.
type grower interface {
	Grows() bool
}

// action is one answer button.
type action struct {
	label      string
	icon       fyne.Resource
	importance widget.Importance
	isDefault  bool
	// isNo marks the kind's one no (No, Deny): Esc presses it. A kind
	// without one (text, choice, form, notice) is cancelled by Esc.
	isNo bool
	// outlined draws a dangerous yes as secondary: outlined and lettered
	// in the danger colour, never filled (see outlinedButton).
	outlined bool
	// respond builds the response; nil means the renderer's Answer.
	respond func() (question.Response, error)
	// do, when set, runs in place of answering (a button that opens more
	// choices, such as Always…); it still acts only through the guard.
	do func()
}

// renderers maps each kind to its renderer's constructor.
var renderers = map[question.Kind]func(q *question.Question, h host) (renderer, error){
	question.KindText:        newTextRenderer,
	question.KindConfirm:     newConfirmRenderer,
	question.KindChoice:      newChoiceRenderer,
	question.KindMultiChoice: newChoiceRenderer,
	question.KindForm:        newFormRenderer,
	question.KindNotice:      newNoticeRenderer,
	question.KindApproval:    newApprovalRenderer,
}

// newRenderer returns the renderer for q's kind.
func newRenderer(q *question.Question, h host) (renderer, error) {
	mk, ok := renderers[q.Kind]
	if !ok {
		return nil, fmt.Errorf("no dialog for questions of kind %q", q.Kind)
	}
	return mk(q, h)
}

// answerActions returns the dialog's buttons for q's answers, left to
// right, as the one model states them (present.Answers): label, default,
// no and danger. reply builds the respond func of a button with a fixed
// answer (a decline, or an accept with its value); a button that accepts
// the controls' input answers through the renderer's Answer.
func answerActions(q *question.Question, reply func(question.Action, json.RawMessage) func() (question.Response, error)) []*action {
	bs := present.Answers(q)
	as := make([]*action, len(bs))
	for i, b := range bs {
		a := &action{label: b.Label, icon: answerIcon(b), isDefault: b.Default, isNo: b.IsNo, outlined: b.Danger}
		switch {
		case b.Default:
			a.importance = widget.HighImportance
		case b.Action == question.Decline && !b.IsNo:
			a.importance = widget.LowImportance // Decline beside OK
		}
		if !b.FromInput() {
			a.respond = reply(b.Action, b.Value)
		}
		as[i] = a
	}
	return as
}

// answerIcon is the icon of answer button b: none on Decline and on a
// confirm's plain Yes and No, a warning on a dangerous Yes, a cross on
// Deny and a tick on the rest (OK, Submit, Allow once).
func answerIcon(b present.Button) fyne.Resource {
	yesNo := string(b.Value) == `"yes"` || string(b.Value) == `"no"`
	switch {
	case b.Action == question.Decline && b.IsNo:
		return theme.CancelIcon()
	case b.Action == question.Decline:
		return nil
	case yesNo && b.Danger:
		return theme.WarningIcon()
	case yesNo:
		return nil
	}
	return theme.ConfirmIcon()
}

// fixedReply returns a respond func giving a fixed response.
func fixedReply(a question.Action, value json.RawMessage) func() (question.Response, error) {
	return func() (question.Response, error) { return question.Response{Action: a, Value: value}, nil }
}

// acceptValue returns an accept response with v as its JSON value.
func acceptValue(v any) (question.Response, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return question.Response{}, err
	}
	return question.Response{Action: question.Accept, Value: b}, nil
}

// noPick is the Pick of kinds without options.
type noPick struct{}

func (noPick) Pick(int) bool { return false }
