package ui

import (
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
	return tip
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
