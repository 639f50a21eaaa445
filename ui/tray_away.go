package ui

import (
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question/present"
)

// tooltip is the tray icon's tooltip with n questions and some notices
// pending.
func (t *tray) tooltip(n, notices int) string {
	tip := "Asktray: " + present.WaitingLabel(n, notices)
	switch {
	case t.away && t.env.Policy != nil && t.env.Policy.AwayMode() == policy.AwayReject:
		tip += " (away: new questions are rejected)"
	case t.away && t.env.Policy != nil && t.env.Policy.AwayMode() == policy.AwayHandback:
		tip += " (away: questions go back to the agents' chats)"
	case t.away:
		tip += " (away)"
	}
	if until := t.awayUntil(); !until.IsZero() {
		tip = strings.TrimSuffix(tip, ")") + ", until " + until.Local().Format("15:04") + ")"
	}
	return tip
}

// awayUntil is when away ends by itself, or zero.
func (t *tray) awayUntil() time.Time {
	if !t.away || t.env.Policy == nil {
		return time.Time{}
	}
	return t.env.Policy.AwayUntil()
}

// awayChoice is one of the status window's "Away until…" choices.
type awayChoice struct {
	label string
	until time.Time
}

// awayChoices are the ends away may have, from now: for an hour or two,
// until 18:00 today while it is to come, until tomorrow 09:00.
func awayChoices(now time.Time) []awayChoice {
	now = now.Local()
	at := func(day, hour int) time.Time {
		return time.Date(now.Year(), now.Month(), now.Day()+day, hour, 0, 0, 0, time.Local)
	}
	out := []awayChoice{{"for 1 hour", now.Add(time.Hour)}, {"for 2 hours", now.Add(2 * time.Hour)}}
	if evening := at(0, 18); now.Before(evening.Add(-time.Hour)) {
		out = append(out, awayChoice{"until 18:00", evening})
	}
	return append(out, awayChoice{"until tomorrow 09:00", at(1, 9)})
}

// setAwayUntil turns away on until the end; the policy's subscription then
// updates the tray. Runs on the Fyne goroutine.
func (t *tray) setAwayUntil(until time.Time) {
	if t.env.Policy == nil {
		return
	}
	if err := t.env.Policy.SetAwayUntil(until); err != nil {
		if t.env.Log != nil {
			t.env.Log.Error("set away until", "err", err)
		}
		return
	}
	t.policyChanged()
}

// awayRecheck is the longest the tray's away timer waits: a timer counts
// time the machine spends running, so after a suspend over the moment
// away was to change the tray is at most this late; the rules and the
// hooks read the policy's clock and are never late.
const awayRecheck = 5 * time.Minute

// followAwayEnd sets the timer that brings the tray up to date when away
// ends or the weekly schedule begins by itself (nothing in the policy
// changes then, so no subscriber hears of it: Policy.NextAwayChange), or
// stops it when nothing is to change. Runs on the Fyne goroutine.
func (t *tray) followAwayEnd() {
	if t.awayTimer != nil {
		t.awayTimer.Stop()
		t.awayTimer = nil
	}
	if t.env.Policy == nil {
		return
	}
	next := t.env.Policy.NextAwayChange()
	if next.IsZero() {
		return
	}
	ends := t.awayEnds
	if ends == nil {
		ends = func() { t.gate.do(t.awayDue) }
	}
	t.awayWait = min(time.Until(next)+50*time.Millisecond, awayRecheck)
	t.awayTimer = time.AfterFunc(t.awayWait, ends)
}

// awayDue follows away at the timer: on or off as the policy says now,
// and the next timer. Runs on the Fyne goroutine.
func (t *tray) awayDue() {
	if t.env.Policy == nil {
		return
	}
	t.awayChanged(t.env.Policy.Away())
	t.followAwayEnd()
	t.refresh() // the tooltip says until when
}

// awayItem is the do-not-disturb toggle. While away, new questions open no
// dialog and show no notification and the tray lists them (away mode
// hold), or the policy rejects them before anyone sees them (reject).
// Coming back opens the held dialogs. Away lives in the policy, so it
// survives a restart and 'asktray away on|off' changes it too.
func (t *tray) awayItem() *fyne.MenuItem {
	item := fyne.NewMenuItem("Away (do not disturb)", func() { t.setAway(!t.away) })
	item.Checked = t.away
	return item
}

// setAway switches do-not-disturb on or off through the policy; the
// policy's subscription then updates the tray (policyChanged). Without a
// policy (tests) it switches the tray alone.
func (t *tray) setAway(away bool) {
	if t.env.Policy == nil {
		t.awayChanged(away)
		return
	}
	if err := t.env.Policy.SetAway(away); err != nil {
		if t.env.Log != nil {
			t.env.Log.Error("set away", "err", err)
		}
		return
	}
	t.policyChanged()
}

// followPolicy subscribes the tray to the policy, whose away and rules
// also change from the CLI ('asktray away on') and the control API, and
// returns the unsubscribe. Call it on the Fyne goroutine or before a.Run.
func (t *tray) followPolicy() (cancel func()) {
	if t.env.Policy == nil {
		return func() {}
	}
	return t.env.Policy.Subscribe(func() { t.gate.do(t.policyChanged) })
}

// policyChanged follows the policy: away on or off, and the rules shown
// in Settings. Runs on the Fyne goroutine.
func (t *tray) policyChanged() {
	if t.env.Policy == nil {
		return
	}
	t.awayChanged(t.env.Policy.Away())
	t.followAwayEnd()
	t.refresh() // the away mode shows in the tooltip
	t.settings.policyChanged()
}

// awayChanged shows away as on or off; coming back opens the dialogs held
// while away.
func (t *tray) awayChanged(away bool) {
	if away == t.away {
		return
	}
	t.away = away
	if !away && t.dialogs != nil {
		t.dialogs.Start()
	}
	t.refresh()
}
