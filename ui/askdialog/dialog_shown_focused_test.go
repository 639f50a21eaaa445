package askdialog

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"github.com/asktray/asktray/app/question"
)

// activeOnShowApp is a Fyne test app whose windows become active inside
// Show, as a Win32 window does (ShowWindow activates it before returning;
// under Wine's virtual desktop every new window is active the moment it is
// shown): Show tells the canvas's focused widget, if any, that it gained
// focus, which is all the GLFW driver does with a window focus event
// (processFocused, FocusManager.FocusGained), and no focus event follows.
type activeOnShowApp struct{ fyne.App }

func (a activeOnShowApp) NewWindow(title string) fyne.Window {
	return activeOnShowWindow{a.App.NewWindow(title)}
}

type activeOnShowWindow struct{ fyne.Window }

func (w activeOnShowWindow) Show() {
	w.Window.Show()
	if f := w.Canvas().Focused(); f != nil {
		f.FocusGained()
	}
}

// TestDialog_ArmsWhenShownAlreadyActive is a dialog whose window is active
// the moment it is shown: the guard sees that focus (the first control is
// focused before Show), arms after the same delay as on a focus event, and
// the keyboard then answers; before the delay nothing acts. Shown again
// after a snooze, it arms again the same way.
func TestDialog_ArmsWhenShownAlreadyActive(t *testing.T) {
	e := newDialogEnv(t)
	e.m.app = activeOnShowApp{e.app}
	d := e.ask(confirmQ())
	if !d.guard.active {
		t.Fatal("the window was active when shown, but the guard did not see it")
	}
	e.press(d, fyne.KeyReturn) // at once: too soon, and it starts the delay again
	e.pending(d.q.ID)
	e.clock.advance(question.DefaultArmDelay - time.Millisecond)
	if d.guard.armed || !findButton(t, d, "Yes").Disabled() {
		t.Fatal("armed before the delay")
	}
	e.clock.advance(time.Millisecond)
	if !d.guard.armed || findButton(t, d, "Yes").Disabled() {
		t.Fatal("not armed after the delay of focus it was shown with")
	}

	// A snooze hides it; shown again, it is active again at once and arms after the delay.
	d.hide()
	if d.guard.armed || d.guard.active {
		t.Fatalf("hidden: armed %v active %v", d.guard.armed, d.guard.active)
	}
	d.show(false)
	if !d.guard.active || d.guard.armed {
		t.Fatalf("shown again: active %v armed %v, want active and not yet armed", d.guard.active, d.guard.armed)
	}
	e.clock.advance(question.DefaultArmDelay)
	e.press(d, fyne.KeyReturn)
	if res := e.result(d.q.ID); string(res.Value) != `"yes"` {
		t.Fatalf("value %s", res.Value)
	}
}
