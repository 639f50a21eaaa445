package askdialog

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// popUp shows content in a modal pop-up under the object below (a form's
// date picker) and returns what closes it. While it is open Escape closes
// it and the other dialog keys do nothing, so no key meant for the pop-up
// answers the question; closing it restarts the arm delay, as Fyne told
// the pop-up's focus manager, not our widgets, about window focus. Runs on
// the Fyne goroutine.
func (d *questionDialog) popUp(content, below fyne.CanvasObject) (closeIt func()) {
	if d.popup != nil {
		d.popup.Hide()
	}
	p := widget.NewModalPopUp(content, d.win.Canvas())
	d.popup = p
	closeIt = func() {
		if d.popup != p {
			return
		}
		d.popup = nil
		p.Hide()
		d.rearm()
	}
	d.closePopup = closeIt
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(below)
	p.ShowAtPosition(pos.AddXY(0, below.Size().Height))
	return closeIt
}

// popupKey handles a dialog key while a pop-up is open: Escape closes it.
// It reports whether one was open.
func (d *questionDialog) popupKey(ev *fyne.KeyEvent) bool {
	if d.popup == nil {
		return false
	}
	if ev.Name == fyne.KeyEscape {
		d.closePopup()
	}
	return true
}
