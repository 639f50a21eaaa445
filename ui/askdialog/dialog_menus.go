package askdialog

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// dialogMenus are a dialog's bar buttons that open a menu (Snooze, Browser,
// Always…), their menus, the last pop-up each showed, and the Always…
// panel. The dialog embeds them; they are used on the Fyne goroutine only.
type dialogMenus struct {
	snoozeButton *dialogButton
	snoozeMenu   *fyne.Menu
	snoozePopup  *widget.PopUpMenu // the last one shown
	webButton    *dialogButton     // "Browser": open or copy the question's page link; nil without one
	webPopup     *widget.PopUpMenu // its menu, the last one shown
	always       *alwaysPanel      // the open "Always…" scope dialog, or nil
	alwaysButton *dialogButton     // Always…, or nil
	alwaysMenu   *fyne.Menu        // the "Always…" choices
	alwaysPopup  *widget.PopUpMenu // the menu of alwaysMenu while shown
}

// popUnder shows menu in a pop-up under button and returns the pop-up.
// While a pop-up is open Fyne tells its own focus manager, not our
// widgets, about window focus, so closing it restarts the arm delay
// (unless it opened the Always… panel, which restarts it itself). Runs on
// the Fyne goroutine.
func (d *questionDialog) popUnder(menu *fyne.Menu, button *dialogButton) *widget.PopUpMenu {
	p := widget.NewPopUpMenu(menu, d.win.Canvas())
	hide := p.OnDismiss
	p.OnDismiss = func() {
		hide()
		if d.always == nil {
			d.rearm()
		}
	}
	p.ShowAtRelativePosition(fyne.NewPos(0, button.Size().Height), button)
	return p
}

// rearm restarts the arm delay after a pop-up closed: Fyne did not tell
// our widgets about window focus while it was open. Runs on the Fyne goroutine.
func (d *questionDialog) rearm() {
	if d.visible && !d.done {
		d.guard.deactivate()
		d.guard.activate()
	}
}

// showSnoozeMenu opens the snooze choices under the Snooze button.
func (d *questionDialog) showSnoozeMenu() {
	d.snoozeMenu.Items = d.snoozeItems()
	d.snoozePopup = d.popUnder(d.snoozeMenu, d.snoozeButton)
}

// snoozeItems returns the snooze choices as of now: 5 minutes, 1 hour, and
// the next 09:00 (today's when it is still ahead, so never more than the
// broker's 24 h limit away).
func (d *questionDialog) snoozeItems() []*fyne.MenuItem {
	now := d.clock.now()
	morning, label := nextMorning(now)
	return []*fyne.MenuItem{
		fyne.NewMenuItem("For 5 minutes", func() { d.snooze(d.clock.now().Add(5 * time.Minute)) }),
		fyne.NewMenuItem("For 1 hour", func() { d.snooze(d.clock.now().Add(time.Hour)) }),
		fyne.NewMenuItem(label, func() { d.snooze(morning) }),
	}
}

// nextMorning returns the next 09:00 local time after now and a menu label for it.
func nextMorning(now time.Time) (time.Time, string) {
	t := time.Date(now.Year(), now.Month(), now.Day(), 9, 0, 0, 0, now.Location())
	if now.Before(t) {
		return t, "Until 09:00"
	}
	return t.AddDate(0, 0, 1), "Until tomorrow 09:00"
}

// showWebMenu opens the browser choices under the Browser button.
func (d *questionDialog) showWebMenu() {
	d.webPopup = d.popUnder(d.webMenu(), d.webButton)
}
