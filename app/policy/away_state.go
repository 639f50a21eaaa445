package policy

import (
	"fmt"
	"time"

	"github.com/asktray/asktray/app/question"
)

// The person is away when they said so (SetAway, SetAwayUntil, until its
// end) or when the weekly schedule says so (SetAwaySchedule), unless they
// switched away off during the schedule's stretch (then the schedule takes
// over again from the stretch's end). Judge, Visible, the Gate, the tray,
// the CLI and the hooks all read it here.

// Away reports whether the person is away now. It does not block.
func (p *Policy) Away() bool {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.awayNow()
}

// awayNow is Away; the caller holds p.mu.
func (p *Policy) awayNow() bool {
	now := p.now()
	return p.manual(now) || p.scheduled(now)
}

// manual reports whether the person's own away covers t; the caller holds p.mu.
func (p *Policy) manual(t time.Time) bool {
	return p.away && (p.until.IsZero() || t.Before(p.until))
}

// scheduled reports whether the weekly schedule says away at t, read on
// t's wall clock, and the person did not come back during that stretch;
// the caller holds p.mu.
func (p *Policy) scheduled(t time.Time) bool {
	return p.sched.Covers(t) && !t.Before(p.back)
}

// AwayUntil returns when away ends by itself: the end the person gave, or
// the end of the schedule's stretch, whichever comes last when the one
// runs into the other. It is the zero time when away is off or lasts
// until switched off. It does not block.
func (p *Policy) AwayUntil() time.Time {
	p.mu.RLock()
	defer p.mu.RUnlock()
	now := p.now()
	t := now
	for range 8 { // the person's stretch and the schedule's alternate at most a few times
		switch {
		case p.manual(t):
			if p.until.IsZero() {
				return time.Time{}
			}
			t = p.until.In(now.Location())
		case p.scheduled(t):
			if t = p.sched.End(t); t.IsZero() {
				return time.Time{} // the schedule covers the whole week
			}
		case t.Equal(now):
			return time.Time{}
		default:
			return t
		}
	}
	return t
}

// NextAwayChange returns when Away may next change by itself (nothing in
// the policy changes then, so no subscriber hears of it): when away ends
// while away, else when the schedule next begins; the zero time for never.
// The tray sets a timer for it. It does not block.
func (p *Policy) NextAwayChange() time.Time {
	if p.Away() {
		return p.AwayUntil()
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	from := p.now()
	if p.back.After(from) {
		from = p.back.In(from.Location())
	}
	return p.sched.Start(from)
}

// maxBack is how long switching away off during a stretch of the weekly
// schedule keeps the person back at most: coming back on a Friday evening
// of "weekdays after 18:00, weekends" does not cancel the weekend.
const maxBack = 12 * time.Hour

// SetAway turns away on (until switched off) or off and saves it. Off
// during a stretch of the weekly schedule means back until that stretch
// ends, at most maxBack. It blocks for the file write.
func (p *Policy) SetAway(on bool) error {
	return p.change(func() error {
		p.away, p.until, p.back = on, time.Time{}, time.Time{}
		if now := p.now(); !on && p.sched.Covers(now) {
			p.back = now.Add(maxBack)
			if end := p.sched.End(now); !end.IsZero() && end.Before(p.back) {
				p.back = end
			}
			p.back = p.back.UTC()
		}
		return nil
	})
}

// SetAwayUntil turns away on until t, when it ends by itself (whoever
// reads Away then reads false, unless the schedule says away then; the
// tray comes back then), and saves it. A t not in the future is an error
// naming it. It blocks for the file write.
func (p *Policy) SetAwayUntil(t time.Time) error {
	if !t.After(p.now()) {
		return fmt.Errorf("away until %s: %w: the time has passed", t.Format("2006-01-02 15:04"), question.ErrInvalid)
	}
	return p.change(func() error {
		p.away, p.until, p.back = true, t.UTC(), time.Time{}
		return nil
	})
}

// SetAwaySchedule sets the weekly away schedule. The schedule lives in
// the settings (away_schedule), so nothing is written. Subscribers are
// told when it changed. It does not block.
func (p *Policy) SetAwaySchedule(s Schedule) {
	p.mu.Lock()
	changed := p.sched.text != s.text
	p.sched = s
	p.mu.Unlock()
	if changed {
		p.notify()
	}
}

// AwaySchedule returns the weekly away schedule. It does not block.
func (p *Policy) AwaySchedule() Schedule {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.sched
}
