package askdialog

import (
	"encoding/json"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// confirmRenderer asks yes or no, with one no and one yes: Decline would
// tell the agent the same as No, so there is none, and Esc answers No. Yes
// and No carry the question's labels when it gives them. A question that
// reads as destructive (present.ReadsDestructive: the agent's flag, or its
// yes label or text saying overwrite, delete, force, …) shows a warning
// line, draws Yes outlined in the danger colour (secondary, never filled)
// and makes No the default, so Enter never destroys; otherwise Yes is the
// default unless the question's default is "no". Its methods run on the
// Fyne goroutine.
type confirmRenderer struct {
	noPick
	q       *question.Question
	yes, no *action
	warning fyne.CanvasObject // nil unless it reads as destructive
}

func newConfirmRenderer(q *question.Question, _ host) (renderer, error) {
	r := &confirmRenderer{q: q}
	r.yes = &action{label: present.LabelOr(present.Visible(q.YesLabel), "Yes"), respond: fixedReply(question.Accept, json.RawMessage(`"yes"`))}
	r.no = &action{label: present.LabelOr(present.Visible(q.NoLabel), "No"), isNo: true, respond: fixedReply(question.Accept, json.RawMessage(`"no"`))}
	switch {
	case present.ReadsDestructive(q):
		r.yes.outlined, r.yes.icon = true, theme.WarningIcon()
		r.no.importance, r.no.isDefault = widget.HighImportance, true
		r.warning = warningLine(present.DestructiveWarning(q))
	case string(q.Default) == `"no"` || string(q.Default) == "false":
		r.no.importance, r.no.isDefault = widget.HighImportance, true
	default:
		r.yes.importance, r.yes.isDefault = widget.HighImportance, true
	}
	return r, nil
}

// Content returns the warning line of a destructive question, or nil.
func (r *confirmRenderer) Content() fyne.CanvasObject { return r.warning }

// Actions returns No and Yes.
func (r *confirmRenderer) Actions() []*action { return []*action{r.no, r.yes} }

// Answer returns the default button's answer.
func (r *confirmRenderer) Answer() (question.Response, error) {
	if r.no.isDefault {
		return r.no.respond()
	}
	return r.yes.respond()
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
