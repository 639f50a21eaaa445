package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/settings"
	"github.com/asktray/asktray/ui/internal/uikit"
)

// labelAwayWeekly is the row of the weekly away schedule (away_schedule).
const labelAwayWeekly = "Away every week"

// awayWeeklyHint says how to write the schedule and what it does.
const awayWeeklyHint = "In your words: weekdays after 18:00, weekends, mon-fri 18:00-8:00 (overnight), sat before 10:00. " +
	"Away then as if switched on in the tray, with the behaviour above; switching away off during one of these " +
	"stretches keeps you back until it ends (at most 12 hours)."

// awaySchedule is the weekly away schedule's field and the line under it
// that says how the app reads it, as it is typed. Its methods run on the
// Fyne goroutine.
type awaySchedule struct {
	entry *widget.Entry
	reads *widget.Label
}

// newAwaySchedule returns the empty field.
func newAwaySchedule() awaySchedule {
	a := awaySchedule{entry: widget.NewEntry(), reads: uikit.SmallLabel("")}
	a.entry.SetPlaceHolder("e.g. weekdays after 18:00, weekends")
	a.reads.Wrapping = fyne.TextWrapWord
	a.entry.OnChanged = func(string) { a.show() }
	return a
}

// view is the field over the line that reads it back.
func (a awaySchedule) view() fyne.CanvasObject { return container.NewVBox(a.entry, a.reads) }

// load shows st's schedule.
func (a awaySchedule) load(st settings.Settings) {
	a.entry.SetText(st.AwaySchedule)
	a.show()
}

// show says how the app reads the field, or what it cannot read.
func (a awaySchedule) show() {
	s, err := policy.ParseSchedule(a.entry.Text)
	switch {
	case err != nil:
		a.reads.SetText("Not understood: " + plainError(err))
		a.reads.Importance = widget.DangerImportance
	case s.IsZero():
		a.reads.SetText("No weekly schedule: away only when you switch it on.")
		a.reads.Importance = widget.MediumImportance
	default:
		a.reads.SetText("Away every week: " + s.Describe() + ".")
		a.reads.Importance = widget.MediumImportance
	}
	a.reads.Refresh()
}

// parse puts the field into st; an error names the field.
func (a awaySchedule) parse(st *settings.Settings) error {
	st.AwaySchedule = strings.TrimSpace(a.entry.Text)
	if _, err := policy.ParseSchedule(st.AwaySchedule); err != nil {
		return fmt.Errorf("%s: %s", labelAwayWeekly, plainError(err))
	}
	return nil
}

// plainError is a schedule's error without the word "invalid" that marks
// its kind for the code: "\"mon at 6\": \"at 6\" is not a time of day …".
func plainError(err error) string {
	return strings.Replace(err.Error(), ": invalid: ", ": ", 1)
}
