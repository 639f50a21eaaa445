package present

import (
	"encoding/json"

	"github.com/asktray/asktray/app/question"
)

// Button is one answer button of a question's kind, as every front end
// offers it: the dialog draws it, the question page posts it and the
// terminal walk lists it (Answers).
type Button struct {
	// Label is what the button says, made visible (Visible).
	Label string
	// Action is what pressing it answers: question.Accept or
	// question.Decline.
	Action question.Action
	// Value is an accept's fixed value ("allow", "yes", "no", "ok"); nil
	// for a decline and for an accept whose value the kind's controls
	// give (FromInput: OK, Submit).
	Value json.RawMessage
	// Default marks the one button Enter presses. It is never a dangerous
	// yes, nor an allow.
	Default bool
	// IsNo marks the kind's one no (No, Deny), which the dialog's Esc
	// presses; text, choice, form and notice have none.
	IsNo bool
	// Danger marks a yes that may lose something or allows a high-risk
	// request: drawn in the danger colour (in the dialog outlined, never
	// filled).
	Danger bool
}

// FromInput reports whether b accepts with the value of the kind's
// controls (the typed text, the picked options, the form) rather than a
// fixed one.
func (b Button) FromInput() bool { return b.Action == question.Accept && b.Value == nil }

// Answers returns the answer buttons of q's kind, left to right as the
// dialog shows them (the yes, allow or OK last), with exactly one default:
//
//   - text, choice, multi_choice: Decline, OK (the default, from input);
//   - form: Decline, Submit (the default, from input);
//   - confirm: No and Yes, with the question's labels when it gives them.
//     No is the default when the question reads as destructive
//     (ReadsDestructive; Yes is then dangerous) or its default is "no";
//     otherwise Yes is. There is no Decline beside No;
//   - approval: Deny (the default, the decline) and Allow once, dangerous
//     when the risk line warns (RiskLine); no Allow at all for what cannot
//     be shown in full (Unseen);
//   - notice: OK, the default.
//
// A front end may add ways out of its own beside these (the dialog's
// Snooze and Always…, the page's Cancel and Decline, the walk's Decline,
// Dismiss, Snooze, Skip and Quit), never another way to accept. It returns
// nil for an unknown kind.
func Answers(q *question.Question) []Button {
	decline := Button{Label: "Decline", Action: question.Decline}
	ok := Button{Label: "OK", Action: question.Accept, Default: true}
	switch q.Kind {
	case question.KindText, question.KindChoice, question.KindMultiChoice:
		return []Button{decline, ok}
	case question.KindForm:
		ok.Label = "Submit"
		return []Button{decline, ok}
	case question.KindConfirm:
		return confirmAnswers(q)
	case question.KindApproval:
		deny := Button{Label: "Deny", Action: question.Decline, Default: true, IsNo: true}
		if Unseen(q) != "" {
			return []Button{deny}
		}
		_, warn := RiskLine(q)
		return []Button{deny, {Label: "Allow once", Action: question.Accept, Value: json.RawMessage(`"allow"`), Danger: warn}}
	case question.KindNotice:
		ok.Value = json.RawMessage(`"ok"`)
		return []Button{ok}
	}
	return nil
}

// confirmAnswers returns a confirm's No and Yes (see Answers).
func confirmAnswers(q *question.Question) []Button {
	no := Button{Label: LabelOr(Visible(q.NoLabel), "No"), Action: question.Accept, Value: json.RawMessage(`"no"`), IsNo: true}
	yes := Button{Label: LabelOr(Visible(q.YesLabel), "Yes"), Action: question.Accept, Value: json.RawMessage(`"yes"`)}
	switch {
	case ReadsDestructive(q):
		yes.Danger, no.Default = true, true
	case string(q.Default) == `"no"` || string(q.Default) == "false":
		no.Default = true
	default:
		yes.Default = true
	}
	return []Button{no, yes}
}

// DefaultButton returns the index in bs of the default button, or -1 when
// none is.
func DefaultButton(bs []Button) int {
	for i, b := range bs {
		if b.Default {
			return i
		}
	}
	return -1
}
