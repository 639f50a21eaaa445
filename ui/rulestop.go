package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/ui/internal/uikit"
)

// stopRuleAction is the action of a notification of rule decisions and
// the item under the tray's summary of the day that open the window below.
const stopRuleAction = "Stop a rule…"

// ruleStopTruth says what undoing a rule's decision can mean, and no more:
// a rule decides in the Gate, before a question is pending, and its answer
// goes back to the agent at once, so no decision of a rule ever waits to
// be taken back (docs/rules.md, "Stopping a rule").
const ruleStopTruth = "What these rules allowed has already gone back to the agent, which went ahead; " +
	"what they denied, the agent was told. Asktray cannot take a decision back, and none of them is " +
	"still waiting. Stopping a rule removes it from your rules, so the next such request asks you; " +
	"Undo puts it back as it was."

// stoppedLead starts the line of a rule stopped in the window.
const stoppedLead = "Stopped: it decides nothing now; the next such request asks you, unless another rule covers it. "

// ruleStop is the small window a click on a notification of rule
// decisions opens: the rules behind it, each with "Stop this rule", which
// removes it, and then Undo, which puts it back. Its methods run on the
// Fyne goroutine.
type ruleStop struct {
	t       *tray
	win     fyne.Window
	rows    *fyne.Container
	status  *widget.Label
	stopped map[string]policy.Rule // rules stopped here, as they were, for Undo
	shown   []ruleStopRow          // the rows on show, for tests
}

// ruleStopRow is one rule's line and its button.
type ruleStopRow struct {
	id     string
	text   *widget.Label
	button *widget.Button
}

// showRuleStop opens the window for rules ids (those behind a
// notification, or the day's), making it on first use. Runs on the Fyne
// goroutine.
func (t *tray) showRuleStop(ids []string) {
	if t.env.Policy == nil {
		return
	}
	s := t.ruleStop
	if s == nil {
		s = &ruleStop{t: t, rows: container.NewVBox(), status: widget.NewLabel(""), stopped: map[string]policy.Rule{}}
		s.status.Wrapping = fyne.TextWrapWord
		truth := uikit.SmallLabel(ruleStopTruth)
		truth.Wrapping = fyne.TextWrapWord
		s.win = t.app.NewWindow("Rules that decided for you")
		s.win.SetContent(container.NewPadded(container.NewBorder(nil, container.NewVBox(widget.NewSeparator(), truth, s.status),
			nil, nil, container.NewVScroll(s.rows))))
		s.win.SetCloseIntercept(s.win.Hide)
		s.win.Resize(fyne.NewSize(620, 320))
		t.ruleStop = s
	}
	s.fill(ids)
	s.status.SetText("")
	s.win.Show()
	s.win.RequestFocus()
}

// fill makes a row for each rule of ids.
func (s *ruleStop) fill(ids []string) {
	s.rows.RemoveAll()
	s.shown = nil
	s.rows.Add(widget.NewLabelWithStyle("These rules decided without asking you:", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	for i, id := range ids {
		if i > 0 {
			s.rows.Add(widget.NewSeparator())
		}
		row := ruleStopRow{id: id, text: widget.NewLabel(""), button: widget.NewButton("", nil)}
		row.text.Wrapping = fyne.TextWrapWord
		row.button.OnTapped = func() { s.toggle(row) }
		s.show(row)
		s.shown = append(s.shown, row)
		s.rows.Add(container.NewBorder(nil, nil, nil, container.NewCenter(row.button), row.text))
	}
}

// show says where row's rule stands: in force (Stop this rule), stopped
// here (Undo), or gone some other way (nothing to do).
func (s *ruleStop) show(row ruleStopRow) {
	rule, live := s.t.env.Policy.Rule(row.id)
	was, stoppedHere := s.stopped[row.id]
	switch {
	case live:
		row.text.SetText(ruleLine(rule, s.t.day.byRule[row.id], ""))
		row.button.SetText("Stop this rule")
		row.button.Importance = widget.DangerImportance
		row.button.Enable()
	case stoppedHere:
		row.text.SetText(ruleLine(was, s.t.day.byRule[row.id], stoppedLead))
		row.button.SetText("Undo")
		row.button.Importance = widget.MediumImportance
		row.button.Enable()
	default:
		row.text.SetText("Rule " + row.id + " was removed already.")
		row.button.SetText("Stop this rule")
		row.button.Disable()
	}
	row.button.Refresh()
}

// toggle stops row's rule (Policy.Remove, keeping it for Undo) or puts it
// back (Policy.Restore); a failure is said in the window. It blocks for
// the rules file's write.
func (s *ruleStop) toggle(row ruleStopRow) {
	pol := s.t.env.Policy
	var err error
	if rule, live := pol.Rule(row.id); live {
		if err = pol.Remove(row.id); err == nil {
			s.stopped[row.id] = rule
		}
	} else if was, ok := s.stopped[row.id]; ok {
		if err = pol.Restore(was); err == nil {
			delete(s.stopped, row.id)
		}
	}
	if err != nil {
		s.status.SetText("Could not change rule " + row.id + ": " + err.Error())
		s.status.Importance = widget.DangerImportance
		if s.t.env.Log != nil {
			s.t.env.Log.Error("stop or restore a rule", "rule", row.id, "err", err)
		}
	} else {
		s.status.SetText("")
	}
	s.status.Refresh()
	s.show(row)
}

// ruleLine says a rule in words: what it decides, which requests, how
// often it decided today: "Allows `Bash` requests from claude-code,
// commands starting “npm test” (rule r1, 12 decisions today)".
func ruleLine(r policy.Rule, today int, lead string) string {
	verb := "Allows "
	if r.Decision == policy.Deny {
		verb = "Denies "
	}
	count := ""
	switch {
	case today == 1:
		count = ", 1 decision today"
	case today > 1:
		count = fmt.Sprintf(", %d decisions today", today)
	}
	return lead + verb + present.Unspan(r.Covers()) + ", " + present.Unspan(r.MatchText()) + " (rule " + r.ID + count + ")"
}
