package ui

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// TestAwayUntil_StatusWindowAndTheEnd: the status window offers away for
// an hour, two, until 18:00 or tomorrow 09:00; a choice sets away with its
// end in the policy, and the window and the tooltip say until when. When
// the end comes the tray comes back by itself (a timer: nothing in the
// policy changes then) and opens what away held (issue 38 item 8).
func TestAwayUntil_StatusWindowAndTheEnd(t *testing.T) {
	a := test.NewTempApp(t)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	pol := tempPolicy(t)
	tr := newTray(a, app.Env{Broker: b, Policy: pol, Log: slog.New(slog.DiscardHandler),
		Endpoint: func() (string, string) { return "http://127.0.0.1:7931/mcp", "" }, DataDir: "/data"})
	ended := make(chan struct{}, 1)
	tr.awayEnds = func() { ended <- struct{}{} }
	tr.install()
	tr.showStatus()
	s := tr.status
	if got := s.awayFor.Options; len(got) < 3 || got[0] != "for 1 hour" || got[len(got)-1] != "until tomorrow 09:00" {
		t.Fatalf("away choices %q", got)
	}
	before := time.Now()
	s.awayFor.SetSelected("for 1 hour")
	until := pol.AwayUntil()
	if !pol.Away() || until.Before(before.Add(time.Hour)) || until.After(time.Now().Add(time.Hour)) {
		t.Fatalf("away %v until %v, want an hour from now", pol.Away(), until)
	}
	hm := until.Local().Format("15:04")
	if !tr.away || !s.away.Checked || !strings.HasSuffix(s.away.Text, "until "+hm) || !strings.Contains(tr.tooltip(0, 0), "until "+hm) {
		t.Fatalf("tray away %v, check %v %q, tooltip %q", tr.away, s.away.Checked, s.away.Text, tr.tooltip(0, 0))
	}

	// An end a moment away: the timer fires then and the tray comes back.
	if err := pol.SetAwayUntil(time.Now().Add(300 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	tr.policyChanged()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the end of away never fired")
	}
	if pol.Away() {
		t.Fatal("the policy is still away after its end")
	}
	tr.policyChanged() // what awayEnds does on the Fyne goroutine
	if tr.away || s.away.Checked || strings.Contains(s.away.Text, "until") {
		t.Fatalf("after the end: tray away %v, check %v %q", tr.away, s.away.Checked, s.away.Text)
	}
	if tr.awayTimer != nil {
		t.Fatal("a timer is left once away has no end")
	}
}

// TestAwayDue: the tray's away timer waits for the policy's next change
// but never more than awayRecheck (a timer does not count a suspend), and
// when it fires the tray follows the policy: back once away's end has
// passed, the next timer set for the weekly schedule's next stretch.
func TestAwayDue(t *testing.T) {
	a := test.NewTempApp(t)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	pol := tempPolicy(t)
	tr := newTray(a, app.Env{Broker: b, Policy: pol, Log: slog.New(slog.DiscardHandler),
		Endpoint: func() (string, string) { return "http://127.0.0.1:7931/mcp", "" }, DataDir: "/data"})
	tr.awayEnds = func() {} // the test runs awayDue itself, on its goroutine
	tr.install()
	later := strings.ToLower(time.Now().AddDate(0, 0, 2).Weekday().String()[:3])
	sched, err := policy.ParseSchedule(later) // the day after tomorrow, all day
	if err != nil {
		t.Fatal(err)
	}
	pol.SetAwaySchedule(sched)
	tr.policyChanged()
	if tr.away || tr.awayTimer == nil || tr.awayWait != awayRecheck {
		t.Fatalf("a schedule days off: away %v, the timer waits %v, want %v", tr.away, tr.awayWait, awayRecheck)
	}
	if err := pol.SetAwayUntil(time.Now().Add(200 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	tr.policyChanged()
	if !tr.away || tr.awayWait > time.Second {
		t.Fatalf("away for 200 ms: away %v, the timer waits %v", tr.away, tr.awayWait)
	}
	for deadline := time.Now().Add(10 * time.Second); pol.Away(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("away never ended")
		}
	}
	tr.awayDue()
	if tr.away || tr.awayTimer == nil || tr.awayWait != awayRecheck || strings.Contains(tr.tooltip(0, 0), "away") {
		t.Fatalf("after the end: away %v, the timer waits %v, tooltip %q", tr.away, tr.awayWait, tr.tooltip(0, 0))
	}
}
