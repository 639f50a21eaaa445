// Package presenttest holds, for tests only, the questions on which every
// front end's answer buttons are checked against the one model,
// present.Answers: the dialog (ui/askdialog), the question page
// (app/webask) and the terminal walk (app/cli) each render every case and
// compare.
package presenttest

import (
	"encoding/json"

	"github.com/asktray/asktray/app/question"
)

// Case is one question whose answer buttons a front end renders.
type Case struct {
	Name string
	Q    question.Question
}

// ButtonCases returns a question of every kind, and of each variant that
// changes a kind's buttons: a confirm's own labels, its default no, one
// that reads as destructive, an approval that warns and one too long to
// show in full. Each call returns fresh copies.
func ButtonCases() []Case {
	opts := []question.Option{{Label: "unit"}, {Label: "e2e"}}
	form := json.RawMessage(`{"type":"object","properties":{"version":{"type":"string"}}}`)
	return []Case{
		{"text", question.Question{Kind: question.KindText, Message: "Commit message?", FreeText: true}},
		{"text with options", question.Question{Kind: question.KindText, Message: "Which branch?", Options: opts}},
		{"choice", question.Question{Kind: question.KindChoice, Message: "Which tests?", Options: opts}},
		{"multi_choice", question.Question{Kind: question.KindMultiChoice, Message: "Which tests?", Options: opts}},
		{"form", question.Question{Kind: question.KindForm, Message: "Release details", Schema: form}},
		{"confirm", question.Question{Kind: question.KindConfirm, Message: "Run the tests?"}},
		{"confirm with labels", question.Question{Kind: question.KindConfirm, Message: "Ship it?", YesLabel: "Ship", NoLabel: "Wait"}},
		{"confirm defaulting to no", question.Question{Kind: question.KindConfirm, Message: "Run the tests?", Default: json.RawMessage(`"no"`)}},
		{"confirm defaulting to false", question.Question{Kind: question.KindConfirm, Message: "Run the tests?", Default: json.RawMessage(`false`)}},
		{"confirm flagged destructive", question.Question{Kind: question.KindConfirm, Message: "Clean up?", Destructive: true}},
		{"confirm reading destructive", question.Question{Kind: question.KindConfirm, Message: "Overwrite docs/api.yaml?", YesLabel: "Overwrite"}},
		{"approval", question.Question{Kind: question.KindApproval, Action: "Run make test", Message: "Run make test"}},
		{"approval at high risk", question.Question{Kind: question.KindApproval, Action: "Deploy", Message: "Deploy", Risk: question.RiskHigh}},
		{"approval too long to show", question.Question{Kind: question.KindApproval, Action: "Run a long command", Message: "Run a long command", Cut: true}},
		{"notice", question.Question{Kind: question.KindNotice, Message: "Build finished."}},
	}
}
