package ui

import (
	"encoding/json"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
)

// approvalRenderer asks to allow an action once: Allow once accepts
// ("allow"), Deny declines and is the default. A high-risk or destructive
// request shows a warning line and paints Allow as dangerous. Its methods
// run on the Fyne goroutine.
type approvalRenderer struct {
	noPick
	allow, deny *action
	risk        fyne.CanvasObject // the risk line, or nil
}

func newApprovalRenderer(q *question.Question, _ host) (renderer, error) {
	r := &approvalRenderer{
		allow: &action{label: "Allow once", icon: theme.ConfirmIcon(), respond: fixedReply(question.Accept, json.RawMessage(`"allow"`))},
		deny:  &action{label: "Deny", icon: theme.CancelIcon(), importance: widget.HighImportance, isDefault: true, respond: fixedReply(question.Decline, nil)},
	}
	switch {
	case q.Risk == question.RiskHigh || q.Destructive:
		r.allow.importance = widget.DangerImportance
		r.risk = warningLine("High risk: allow only if you expected this request.")
	case q.Risk != "":
		l := smallLabel("Risk: " + string(q.Risk))
		r.risk = l
	}
	return r, nil
}

// Content returns the risk line, or nil.
func (r *approvalRenderer) Content() fyne.CanvasObject { return r.risk }

// Actions returns Deny and Allow once; Deny is the decline.
func (r *approvalRenderer) Actions() []*action { return []*action{r.deny, r.allow} }

// Answer returns the allow answer.
func (r *approvalRenderer) Answer() (question.Response, error) { return r.allow.respond() }

// Focus leaves focus on the dialog.
func (r *approvalRenderer) Focus() fyne.Focusable { return nil }
