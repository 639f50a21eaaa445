package askdialog

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// withDatePicker puts a calendar button right of a date field's entry: it
// opens Fyne's calendar (widget.Calendar) in a pop-up at the typed date's
// month, or this month, and the day picked is written into the entry as
// YYYY-MM-DD. Typing stays possible and is checked as before. The
// calendar's own buttons only fill the entry, so they need no guard. Runs
// on the Fyne goroutine.
func (ff *formField) withDatePicker(h host) fyne.CanvasObject {
	ff.pick = newDialogButton(h, "", nil, func() { ff.openCalendar(h) })
	ff.pick.Icon = theme.CalendarIcon()
	return container.NewBorder(nil, nil, nil, ff.pick, ff.entry)
}

// openCalendar shows the calendar under the field.
func (ff *formField) openCalendar(h host) {
	at, err := time.ParseInLocation(time.DateOnly, ff.entry.Text, time.Local)
	if err != nil {
		at = time.Now()
	}
	var closeIt func()
	cal := widget.NewCalendar(at, func(t time.Time) {
		closeIt()
		ff.touched = true // a picked date is an edit: its problems show at once
		ff.entry.SetText(t.Format(time.DateOnly))
		if c := fyne.CurrentApp().Driver().CanvasForObject(ff.entry); c != nil {
			c.Focus(ff.entry)
		}
	})
	cancel := widget.NewButton("Cancel", func() { closeIt() })
	cancel.Importance = widget.LowImportance
	closeIt = h.popUp(container.NewVBox(cal, container.NewHBox(cancel)), ff.entry)
}
