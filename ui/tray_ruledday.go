package ui

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/asktray/asktray/app/question"
)

// ruledWindow is how long rule decisions after a shown one gather into one
// notification: a standing rule that allows 300 requests must not queue
// 300 bubbles, which defeats the point of the rule.
const ruledWindow = time.Minute

// ruledBatch gathers the rule decisions made within ruledWindow of the
// last one notified. Its fields are used on the Fyne goroutine.
type ruledBatch struct {
	until           time.Time      // the window's end; zero while none is open
	allowed, denied int            // decisions gathered since the window opened
	byRule          map[string]int // the same, by rule id
}

// ruledDay sums up a day's decisions made without the person: by the
// person's rules (allowed, denied, by which rule) and by an agent's own
// automatic check (Claude Code's auto mode classifier). Its fields are
// used on the Fyne goroutine.
type ruledDay struct {
	date            string // YYYY-MM-DD in local time
	allowed, denied int
	blocked         int            // blocked by an agent's own check
	byRule          map[string]int // decisions by rule id
}

// noteRuled notifies a rule's decision (title, body) at once when no
// window is open, and opens one; within a window it only counts, and when
// the window ends one notification says what was gathered ("12 allowed by
// your rules in the last minute"). It runs on the Fyne goroutine.
func (t *tray) noteRuled(title, body string, allowed bool, ruleID string) {
	now := t.clock()
	if t.batch.until.IsZero() || !now.Before(t.batch.until) {
		t.batch = ruledBatch{until: now.Add(ruledWindow), byRule: map[string]int{}}
		if t.note != nil {
			t.note.queueRuled(title, body, []string{ruleID})
		}
		t.after(ruledWindow, t.flushRuled)
		return
	}
	if allowed {
		t.batch.allowed++
	} else {
		t.batch.denied++
	}
	t.batch.byRule[ruleID]++
}

// flushRuled ends the window: one notification for what it gathered, if
// anything. It runs on the Fyne goroutine.
func (t *tray) flushRuled() {
	b := t.batch
	t.batch = ruledBatch{}
	if b.allowed+b.denied == 0 || t.note == nil {
		return
	}
	t.note.queueRuled(ruledBatchTitle(b.allowed, b.denied), "By rule: "+byRuleLine(b.byRule)+". Tray menu: Rule decisions today.",
		slices.Sorted(maps.Keys(b.byRule)))
}

// ruledBatchTitle says a window's decisions: "12 allowed by your rules in
// the last minute", "3 denied by …", "12 allowed and 3 denied by …".
func ruledBatchTitle(allowed, denied int) string {
	var parts []string
	if allowed > 0 {
		parts = append(parts, fmt.Sprintf("%d allowed", allowed))
	}
	if denied > 0 {
		parts = append(parts, fmt.Sprintf("%d denied", denied))
	}
	return strings.Join(parts, " and ") + " by your rules in the last minute"
}

// byRuleLine lists counts by rule, most first: "r1 10, r2 3".
func byRuleLine(byRule map[string]int) string {
	ids := slices.SortedFunc(maps.Keys(byRule), func(a, b string) int {
		if byRule[a] != byRule[b] {
			return byRule[b] - byRule[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf("rule %s %d", id, byRule[id])
	}
	return strings.Join(parts, ", ")
}

// countDay adds an ended question to the day's summary when a rule or an
// agent's own check decided it, starting a new day at local midnight. It
// runs on the Fyne goroutine.
func (t *tray) countDay(ev question.Event) {
	r := ev.Result
	if r == nil {
		return
	}
	if day := t.clock().Format(time.DateOnly); t.day.date != day {
		t.day = ruledDay{date: day, byRule: map[string]int{}}
	}
	switch {
	case r.DecidedBy == question.ByRule && r.RuleID != "":
		if r.Outcome == question.AutoApproved {
			t.day.allowed++
		} else {
			t.day.denied++
		}
		t.day.byRule[r.RuleID]++
	case r.Reason == question.ReasonAgentBlocked && r.DecidedBy == question.ByAgent:
		t.day.blocked++
	}
}

// dayItem is the tray menu's "Today: 120 allowed, 3 denied by rules · 2
// blocked by agents" submenu, with the decisions by rule and the recent
// ones under it; nil before anything was decided without the person today.
func (t *tray) dayItem() *fyne.MenuItem {
	d := t.day
	if d.date != t.clock().Format(time.DateOnly) || d.allowed+d.denied+d.blocked == 0 {
		return t.recentRuledItem()
	}
	label := fmt.Sprintf("Today: %d allowed, %d denied by rules", d.allowed, d.denied)
	if d.blocked > 0 {
		label += fmt.Sprintf(" · %d blocked by agents' own checks", d.blocked)
	}
	sub := fyne.NewMenu("")
	if len(d.byRule) > 0 {
		sub.Items = append(sub.Items, fyne.NewMenuItem("By rule: "+byRuleLine(d.byRule), t.history.Show))
		sub.Items = append(sub.Items, t.muteItems(d.byRule)...)
		ids := slices.Sorted(maps.Keys(d.byRule))
		sub.Items = append(sub.Items, fyne.NewMenuItem(stopRuleAction, func() { t.showRuleStop(ids) }))
	}
	if recent := t.recentRuledItem(); recent != nil {
		sub.Items = append(sub.Items, fyne.NewMenuItemSeparator())
		sub.Items = append(sub.Items, recent.ChildMenu.Items...)
	}
	it := fyne.NewMenuItem(label, t.history.Show)
	if len(sub.Items) > 0 {
		it.ChildMenu = sub
	}
	return it
}

// muteItems are the day's rules as check items, "Notify rule r1's
// decisions", ticked while the rule's decisions are notified; a click
// mutes or unmutes the rule (policy.Rule.Quiet, saved with the rules).
// Rules since removed are left out. It runs on the Fyne goroutine.
func (t *tray) muteItems(byRule map[string]int) []*fyne.MenuItem {
	if t.env.Policy == nil {
		return nil
	}
	var items []*fyne.MenuItem
	for _, id := range slices.Sorted(maps.Keys(byRule)) {
		rule, ok := t.env.Policy.Rule(id)
		if !ok {
			continue
		}
		it := fyne.NewMenuItem("Notify rule "+id+"'s decisions", func() { t.setQuiet(id, !rule.Quiet) })
		it.Checked = !rule.Quiet
		items = append(items, it)
	}
	return items
}

// setQuiet mutes (quiet) or unmutes rule id's notifications and rebuilds
// the menu. It blocks for the rules file's write; it runs on the Fyne
// goroutine.
func (t *tray) setQuiet(id string, quiet bool) {
	rule, ok := t.env.Policy.Rule(id)
	if !ok {
		return
	}
	rule.Quiet = quiet
	if err := t.env.Policy.Update(rule); err != nil {
		if t.env.Log != nil {
			t.env.Log.Error("mute a rule's notifications", "rule", id, "err", err)
		}
		return
	}
	t.muted++
	t.refresh()
}
