package askdialog

import (
	"encoding/json"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/ui/internal/uikit"
)

// approvalHost is what the approval renderer needs besides host: whether
// rules can be made here, and the "Always…" menu that makes them.
type approvalHost interface {
	host
	// canAlways reports whether the dialog can add rules (it has a policy).
	canAlways() bool
	// showAlways opens the "Always allow… / Always deny…" menu.
	showAlways()
}

// approvalRenderer asks to allow an action. The dialog shows the action as
// its title and the Markdown details as its message (see
// questionDialog.layout); this adds the risk, the agent's reason and an
// optional message for the agent. Its buttons: Deny (the default, so Enter
// never allows), Allow once, and Always…, which opens the menu for a rule.
// A high-risk or destructive request shows a warning line and draws Allow
// outlined in the danger colour. Esc denies, like Deny. Every button acts
// through the dialog's guard. Its methods run on the Fyne goroutine.
type approvalRenderer struct {
	noPick
	allow, deny, always *action
	risk                fyne.CanvasObject // the risk line, or nil
	reason              *widget.Label     // the agent's reason, or nil
	note                *keyEntry         // the message that goes with the answer
	content             fyne.CanvasObject
}

func newApprovalRenderer(q *question.Question, h host) (renderer, error) {
	r := &approvalRenderer{}
	r.note = newKeyEntry(h, false)
	r.note.SetPlaceHolder("Message to the agent (optional)")
	r.note.OnChanged = func(string) { h.changed() }
	for _, a := range answerActions(q, r.reply) {
		if a.isNo {
			r.deny = a
		} else {
			r.allow = a // outlined when the risk line warns
		}
	}
	if ah, ok := h.(approvalHost); ok && ah.canAlways() && r.allow != nil {
		r.always = &action{label: "Always…", importance: widget.LowImportance, do: ah.showAlways}
	}
	box := container.NewVBox()
	if why := present.Unseen(q); why != "" {
		// What the dialog cannot show in full is never allowed here: no
		// Allow (present.Answers), no rule, and the reason in its place.
		box.Add(warningLine(why))
	}
	switch line, warn := present.RiskLine(q); {
	case warn:
		r.risk = warningLine(line)
	case line != "":
		r.risk = uikit.SmallLabel(line)
	}
	if r.risk != nil {
		box.Add(r.risk)
	}
	if reason := strings.TrimSpace(q.AgentReason); reason != "" {
		r.reason = widget.NewLabel("Why: " + present.Visible(reason))
		r.reason.Wrapping = fyne.TextWrapWord
		box.Add(r.reason)
	}
	box.Add(r.note)
	r.content = box
	return r, nil
}

// reply returns a respond func giving action a with value and the message.
func (r *approvalRenderer) reply(a question.Action, value json.RawMessage) func() (question.Response, error) {
	return func() (question.Response, error) {
		return question.Response{Action: a, Value: value, Note: strings.TrimSpace(r.note.Text)}, nil
	}
}

// Content returns the risk line, the reason and the message entry.
func (r *approvalRenderer) Content() fyne.CanvasObject { return r.content }

// Actions returns Always… (when rules can be made), Deny and Allow once;
// Deny is the decline. A request too long to show has Deny alone
// (present.Unseen).
func (r *approvalRenderer) Actions() []*action {
	switch {
	case r.allow == nil:
		return []*action{r.deny}
	case r.always != nil:
		return []*action{r.always, r.deny, r.allow}
	}
	return []*action{r.deny, r.allow}
}

// Answer returns the allow-once answer, or an error when the request is
// too long to show in full.
func (r *approvalRenderer) Answer() (question.Response, error) {
	if r.allow == nil {
		return question.Response{}, present.ErrUnseen
	}
	return r.allow.respond()
}

// Focus leaves focus on the dialog, so Enter denies rather than typing.
func (r *approvalRenderer) Focus() fyne.Focusable { return nil }
