package ui

import (
	"github.com/esiqveland/notify"
	"github.com/gen2brain/beeep"

	"fyne.io/fyne/v2"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// maxRecentRuled is how many rule decisions the tray menu lists.
const maxRecentRuled = 5

// ruledNote is a notification that says what happened and asks nothing:
// a decision a rule made, or (alert) a warning that someone may be guessing
// the person's password.
type ruledNote struct {
	title, body string
	alert       bool
	rules       []string // the rules that decided; a click offers to stop them
}

// ruled takes note of an approval a rule decided, so that no rule acts
// unseen: a notification naming the rule and what it allowed or denied
// (the rest of the minute's gathered into one, see noteRuled), and an
// entry in the tray menu's recent decisions. It runs on the Fyne
// goroutine.
func (t *tray) ruled(ev question.Event) {
	r := ev.Result
	if r == nil || r.DecidedBy != question.ByRule || r.RuleID == "" {
		return
	}
	text, quiet := "a rule since removed", false
	if t.env.Policy != nil {
		if rule, ok := t.env.Policy.Rule(r.RuleID); ok {
			text, quiet = rule.MatchText(), rule.Quiet
		}
	}
	allowed := r.Outcome == question.AutoApproved
	title, body := present.RuleDecided(&ev.Question, allowed, r.RuleID, text)
	if !quiet {
		t.noteRuled(title, body, allowed, r.RuleID)
	}
	verb := "Denied"
	if allowed {
		verb = "Allowed"
	}
	t.recentRuled = append([]string{verb + ": " + present.CommandOrPath(&ev.Question, 60) + " (rule " + r.RuleID + ")"}, t.recentRuled...)
	if len(t.recentRuled) > maxRecentRuled {
		t.recentRuled = t.recentRuled[:maxRecentRuled]
	}
}

// recentRuledItem is the tray menu's "Recent rule decisions" submenu, or
// nil when no rule has decided anything yet.
func (t *tray) recentRuledItem() *fyne.MenuItem {
	if len(t.recentRuled) == 0 {
		return nil
	}
	sub := fyne.NewMenu("")
	for _, s := range t.recentRuled {
		sub.Items = append(sub.Items, fyne.NewMenuItem(s, t.history.Show))
	}
	it := fyne.NewMenuItem("Recent rule decisions", nil)
	it.ChildMenu = sub
	return it
}

// queueRuled queues a notification of decisions made by rules (their
// ids). It never blocks and any goroutine may call it.
func (n *notifier) queueRuled(title, body string, rules []string) {
	n.enqueue(noteOp{ruled: &ruledNote{title: title, body: body, rules: rules}})
}

// queueAlert queues a warning the app raised (wrong passwords locked
// approving outside the dialog) as a critical notification. It never blocks
// and any goroutine may call it.
func (n *notifier) queueAlert(title, body string) {
	n.enqueue(noteOp{ruled: &ruledNote{title: title, body: body, alert: true}})
}

// showRuled shows a rule decision's notification: it says what happened
// and asks nothing; a click on one of rule decisions, or its "Stop a
// rule…" action, opens the window that stops the rules behind it
// (onRules). It blocks for at most a few seconds (the D-Bus call's timeout).
func (n *notifier) showRuled(rn ruledNote) {
	n.mu.Lock()
	dn := n.dn
	n.mu.Unlock()
	var err error
	if dn != nil {
		icon, urgency := "dialog-information", notify.UrgencyLow
		if rn.alert {
			icon, urgency = "dialog-warning", notify.UrgencyCritical
		}
		note := notify.Notification{AppName: "Asktray", AppIcon: icon, Summary: rn.title, Body: rn.body,
			ExpireTimeout: notify.ExpireTimeoutSetByNotificationServer}
		note.AddHint(notify.HintUrgency(urgency))
		if len(rn.rules) > 0 && n.onRules != nil {
			note.Actions = []notify.Action{notify.NewDefaultAction(stopRuleAction), {Key: "rules", Label: stopRuleAction}}
		}
		var nid uint32
		if nid, err = dn.SendNotification(note); err == nil && len(note.Actions) > 0 {
			n.mu.Lock()
			n.byRules[nid] = rn.rules
			n.mu.Unlock()
		}
	} else {
		err = beeep.Notify(rn.title, rn.body, "")
	}
	if err != nil {
		n.failed(err)
	}
}
