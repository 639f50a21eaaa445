package askdialog

import (
	"errors"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// confirmRenderer asks yes or no, with one no and one yes as the model
// states them (present.Answers): Decline would tell the agent the same as
// No, so there is none, and Esc answers No. Yes and No carry the
// question's labels when it gives them. A question that reads as
// destructive (present.ReadsDestructive: the agent's flag, or its yes
// label or text saying overwrite, delete, force, …) shows a warning line,
// draws Yes outlined in the danger colour (secondary, never filled) and
// makes No the default, so Enter never destroys; otherwise Yes is the
// default unless the question's default is "no". Its methods run on the
// Fyne goroutine.
type confirmRenderer struct {
	noPick
	q       *question.Question
	actions []*action         // No, Yes
	warning fyne.CanvasObject // nil unless it reads as destructive
}

func newConfirmRenderer(q *question.Question, _ host) (renderer, error) {
	r := &confirmRenderer{q: q, actions: answerActions(q, fixedReply)}
	if present.ReadsDestructive(q) {
		r.warning = warningLine(present.DestructiveWarning(q))
	}
	return r, nil
}

// Content returns the warning line of a destructive question, or nil.
func (r *confirmRenderer) Content() fyne.CanvasObject { return r.warning }

// Actions returns No and Yes.
func (r *confirmRenderer) Actions() []*action { return r.actions }

// Answer returns the default button's answer.
func (r *confirmRenderer) Answer() (question.Response, error) {
	for _, a := range r.actions {
		if a.isDefault {
			return a.respond()
		}
	}
	return question.Response{}, errors.New("no default answer") // present.Answers gives a confirm one
}

// Focus leaves focus on the dialog.
func (r *confirmRenderer) Focus() fyne.Focusable { return nil }

// warningLine is a warning icon and a wrapped line of warning-coloured text.
func warningLine(text string) fyne.CanvasObject {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.DangerImportance
	icon := widget.NewIcon(theme.NewErrorThemedResource(theme.WarningIcon()))
	return newIconRow(icon, l)
}
