package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/question"
)

// TestQuit_StopsWorkFromOtherGoroutines: once the tray quits, work handed
// to the UI from other goroutines (a second start's show, a broker event,
// a D-Bus click) is dropped, and the app is told there is no window to
// show: after Fyne's loop stops, fyne.Do runs its function at once on the
// caller's goroutine, where a window call panicked (issue 37 item 12).
func TestQuit_StopsWorkFromOtherGoroutines(t *testing.T) {
	a := test.NewTempApp(t)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	var show func()
	shows := 0
	tr := newTray(a, app.Env{Broker: b, SetShow: func(fn func()) { show = fn; shows++ }})
	tr.env.SetShow(func() { tr.gate.do(tr.showStatus) })
	ran := 0
	if !tr.gate.do(func() { ran++ }) || ran != 1 {
		t.Fatalf("before quitting, work did not run (%d)", ran)
	}
	tr.quitApp()
	if show != nil || shows != 2 {
		t.Fatalf("quitting did not tell the app there is no window to show (show %v, %d calls)", show != nil, shows)
	}
	if tr.gate.do(func() { ran++ }) || ran != 1 {
		t.Fatalf("after quitting, work still ran (%d)", ran)
	}
	tr.gate.do(tr.showStatus)
	if tr.status != nil {
		t.Fatal("a show after quitting made the status window")
	}
}
