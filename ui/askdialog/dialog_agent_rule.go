package askdialog

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// agentRulesItem is the Always… menu's item that opens the agent's own
// standing permissions (Question.AgentRules).
func agentRulesItem(c question.Client) string {
	return "Allow, and let " + c.DisplayName() + " keep a rule…"
}

// openAgentRules opens the panel of the agent's own standing permissions
// (Claude Code's permission suggestions): each label in full, wrapped,
// with a button that allows the request with that rule for the agent to
// keep (question.AgentRuleValue). Asktray makes no rule of its own. Like
// the Always… panel it is modal, restarts the arm delay, and its buttons
// act only through the guard. It runs on the Fyne goroutine.
func (d *questionDialog) openAgentRules() {
	if d.done || d.always != nil || len(d.q.AgentRules) == 0 {
		return
	}
	if d.alwaysPopup != nil {
		d.alwaysPopup.Hide() // a tap on an item hides it too; a call from a test does not
		d.alwaysPopup = nil
	}
	p := &alwaysPanel{d: d}
	who := d.q.Client.DisplayName()
	p.title = widget.NewLabelWithStyle("Allow, and let "+who+" keep a rule", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	explain := widget.NewLabel(who + " keeps the rule you pick in its own settings and stops asking for what it " +
		"covers; Asktray makes no rule of its own. " + who + " lists and removes its rules itself.")
	explain.Wrapping = fyne.TextWrapWord
	request := widget.NewLabel("Request: " + present.CommandOrPath(&d.q, 200))
	request.Wrapping = fyne.TextWrapWord
	box := container.NewVBox(p.title, request, explain)
	for i, ar := range d.q.AgentRules {
		label := widget.NewLabel(fmt.Sprintf("%d. %s", i+1, present.Visible(ar.Label)))
		label.Wrapping = fyne.TextWrapWord
		ruleLabel := ar.Label
		b := newDialogButton(d, fmt.Sprintf("Allow with rule %d", i+1), &action{label: "Agent rule", do: func() { p.answerAgentRule(ruleLabel) }}, nil)
		b.Importance = widget.HighImportance
		p.answers = append(p.answers, b)
		box.Add(label)
		box.Add(container.NewHBox(layout.NewSpacer(), b))
	}
	p.cancel = newDialogButton(d, "Cancel", nil, p.close)
	box.Add(widget.NewSeparator())
	box.Add(container.NewHBox(layout.NewSpacer(), p.cancel))
	p.pop = widget.NewModalPopUp(container.New(minWidth(contentWidth()-4*theme.Padding()), box), d.win.Canvas())
	p.show()
}

// answerAgentRule closes the panel and allows the request with the agent's
// rule label, for the agent to keep; the hook service hands the agent that
// rule as Claude Code sent it (updatedPermissions). Its button has passed
// the guard.
func (p *alwaysPanel) answerAgentRule(label string) {
	d := p.d
	p.close()
	d.answer("Agent rule", "agent-rule-panel", func() (question.Response, error) {
		return question.Response{Action: question.Accept, Value: question.AgentRuleValue(label)}, nil
	})
}
