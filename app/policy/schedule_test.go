package policy

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // Europe/Berlin for the daylight saving test, whatever the machine has

	"github.com/asktray/asktray/app/question"
)

// zone is a local time without daylight saving, so that each test reads
// the wall clock the same on every machine.
var zone = time.FixedZone("UTC+2", 2*3600)

// at is a wall-clock time in zone on a day of the week of December 2026
// (Monday the 7th to Sunday the 13th, and the Monday after).
func at(day string, hh, mm int) time.Time {
	d := map[string]int{"mon": 7, "tue": 8, "wed": 9, "thu": 10, "fri": 11, "sat": 12, "sun": 13, "mon2": 14}[day]
	return time.Date(2026, 12, d, hh, mm, 0, 0, zone)
}

// TestParseSchedule: a person's words, read back as the app understands
// them; what it cannot read is an error quoting the phrase and saying what
// it expected.
func TestParseSchedule(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"weekdays after 18:00":                    "Mon–Fri 18:00–24:00 all day",
		"weekends":                                "Sat, Sun all day",
		"weekdays after 18:00, weekends":          "Mon–Fri 18:00–24:00; Sat, Sun all day",
		"Mon-Fri 18:00-8:00":                      "Mon–Fri 18:00–08:00 the next day",
		"sat and sun":                             "Sat, Sun all day",
		"every day before 7:00":                   "every day 00:00–07:00",
		"Friday from 13:00 to 17:30; tue":         "Fri 13:00–17:30; Tue all day",
		"fri-mon between 10pm and 6am":            "Mon, Fri–Sun 22:00–06:00 the next day",
		"daily 12:00–13:00":                       "every day 12:00–13:00",
		"on Wednesdays after 5pm\nthursday":       "Wed 17:00–24:00; Thu all day",
		"":                                        "",
		" , ; ":                                   "",
		"mon, wed, fri 9:00 - 12:00":              "Mon all day; Wed all day; Fri 09:00–12:00",
		"weekend all day":                         "Sat, Sun all day",
		"tue/thu until 08:30":                     "Tue, Thu 00:00–08:30",
		"weekdays 0:00-24:00":                     "Mon–Fri all day",
		"thursdays after 12am":                    "Thu all day",
		"monday through wednesday after 20:00":    "Mon–Wed 20:00–24:00",
		"sunday 23:00-01:00, saturday 22:00-2:00": "Sun 23:00–01:00 the next day; Sat 22:00–02:00 the next day",
	} {
		s, err := ParseSchedule(in)
		if err != nil {
			t.Errorf("ParseSchedule(%q): %v", in, err)
			continue
		}
		want = strings.Replace(want, "18:00–24:00 all day", "18:00–24:00", 1)
		if got := s.Describe(); got != want {
			t.Errorf("ParseSchedule(%q) reads %q, want %q", in, got, want)
		}
		if s.IsZero() != (want == "") {
			t.Errorf("ParseSchedule(%q).IsZero() = %v", in, s.IsZero())
		}
	}
	for in, says := range map[string]string{
		"after 18:00":              `"after 18:00": invalid: it names no days`,
		"weekdayz after 18:00":     `"weekdayz after 18:00": invalid: it names no days`,
		"weekdays after 25:00":     `"25:00" is not a time of day`,
		"weekdays after 18:60":     `"18:60" is not a time of day`,
		"weekdays at 18:00":        `"at 18:00" is not a time of day`,
		"weekdays 18:00-18:00":     "starts and ends at the same time",
		"weekdays before 0:00":     "before 00:00 is no time at all",
		"weekends, mon after 13pm": `"mon after 13pm": invalid: "13pm" is not a time of day`,
	} {
		_, err := ParseSchedule(in)
		if err == nil || !errors.Is(err, question.ErrInvalid) || !strings.Contains(err.Error(), says) {
			t.Errorf("ParseSchedule(%q) = %v, want an error saying %q", in, err, says)
		}
	}
}

// TestSchedule_WeekBoundaries: what a schedule covers at the edges of its
// stretches, over midnight and over the end of the week (Saturday night
// into Sunday, Sunday night into Monday), and when a stretch ends and the
// next begins, stretches that touch read as one.
func TestSchedule_WeekBoundaries(t *testing.T) {
	t.Parallel()
	s, err := ParseSchedule("weekdays after 18:00, weekdays before 9:00, weekends, sun 23:00-01:00")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		t    time.Time
		want bool
	}{
		{at("mon", 8, 59), true}, {at("mon", 9, 0), false}, {at("mon", 17, 59), false}, {at("mon", 18, 0), true},
		{at("fri", 23, 59), true}, {at("sat", 0, 0), true}, {at("sun", 23, 59), true}, {at("mon2", 0, 30), true},
		{at("wed", 12, 0), false}, {at("wed", 12, 0).Add(59 * time.Second), false},
	} {
		if got := s.Covers(c.t); got != c.want {
			t.Errorf("Covers(%s) = %v, want %v", c.t.Format("Mon 15:04"), got, c.want)
		}
	}
	// Friday evening, the weekend and Monday morning are one stretch.
	if end := s.End(at("fri", 19, 30)); !end.Equal(at("mon2", 9, 0)) {
		t.Errorf("the stretch from Friday 19:30 ends %s, want Monday 09:00", end.Format("Mon 2 15:04"))
	}
	if end := s.End(at("wed", 12, 0)); !end.Equal(at("wed", 12, 0)) {
		t.Errorf("End of an uncovered time is %s, want the time itself", end)
	}
	if start := s.Start(at("wed", 12, 0).Add(30 * time.Second)); !start.Equal(at("wed", 18, 0)) {
		t.Errorf("after Wednesday noon it starts %s, want Wednesday 18:00", start.Format("Mon 15:04"))
	}
	// Saturday night into Sunday wraps the week's table at its end.
	night, _ := ParseSchedule("saturday 22:00-02:00")
	if !night.Covers(at("sun", 1, 59)) || night.Covers(at("sun", 2, 0)) || night.Covers(at("sat", 21, 59)) {
		t.Error("saturday 22:00-02:00 does not cover Saturday 22:00 to Sunday 02:00")
	}
	if end := night.End(at("sat", 23, 0)); !end.Equal(at("sun", 2, 0)) {
		t.Errorf("saturday 22:00-02:00 ends %s, want Sunday 02:00", end)
	}
	always, _ := ParseSchedule("every day")
	if !always.End(at("wed", 1, 0)).IsZero() {
		t.Error("a schedule of the whole week ends")
	}
	var none Schedule
	if none.Covers(at("wed", 1, 0)) || !none.Start(at("wed", 1, 0)).IsZero() || !none.End(at("wed", 1, 0)).Equal(at("wed", 1, 0)) {
		t.Error("the zero schedule covers something")
	}
}

// TestSchedule_WallClockAcrossDaylightSaving: the schedule is read on the
// local wall clock: in Berlin, the night clocks go forward (29 March 2026,
// a day of 23 hours), 18:00 stays 18:00 and the stretches end at midnight.
func TestSchedule_WallClockAcrossDaylightSaving(t *testing.T) {
	t.Parallel()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := ParseSchedule("every day after 18:00")
	sat := time.Date(2026, 3, 28, 20, 0, 0, 0, berlin)
	if end := s.End(sat); !end.Equal(time.Date(2026, 3, 29, 0, 0, 0, 0, berlin)) {
		t.Errorf("Saturday's stretch ends %s", end)
	}
	start := s.Start(time.Date(2026, 3, 29, 0, 0, 0, 0, berlin))
	if start.Hour() != 18 || start.Day() != 29 || start.Sub(time.Date(2026, 3, 28, 18, 0, 0, 0, berlin)) != 23*time.Hour {
		t.Errorf("Sunday's stretch starts %s, want 18:00 on the wall clock, 23 h after Saturday's", start)
	}
	if !s.Covers(time.Date(2026, 3, 29, 16, 30, 0, 0, time.UTC).In(berlin)) {
		t.Error("16:30 UTC is 18:30 in Berlin in summer time, and not covered")
	}
}

// TestAwaySchedule: the policy is away while the schedule says so, with
// the clock given; switching away off during a stretch holds until the
// stretch ends (at most 12 hours, so Friday evening does not cancel the
// weekend) across a reopen; the person's own end and the schedule's
// stretch that it runs into read as one; NextAwayChange is when the
// schedule next begins.
func TestAwaySchedule(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), File)
	p, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	now := at("fri", 17, 0)
	p.now = func() time.Time { return now }
	s, _ := ParseSchedule("weekdays after 18:00, weekends")
	told := 0
	p.Subscribe(func() { told++ })
	p.SetAwaySchedule(s)
	p.SetAwaySchedule(s)
	if told != 1 {
		t.Errorf("subscribers told %d times of one schedule", told)
	}
	if p.Away() || !p.AwayUntil().IsZero() || !p.NextAwayChange().Equal(at("fri", 18, 0)) {
		t.Fatalf("Friday 17:00: away %v until %v, next change %v", p.Away(), p.AwayUntil(), p.NextAwayChange())
	}
	if p.Judge(question.Question{Kind: question.KindText, Message: "Name?", FreeText: true}).Hold != NotHeld {
		t.Error("held before the schedule")
	}
	now = at("fri", 18, 0)
	if !p.Away() || !p.AwayUntil().Equal(at("mon2", 0, 0)) {
		t.Fatalf("Friday 18:00: away %v until %v, want until Monday 00:00", p.Away(), p.AwayUntil())
	}
	if p.Judge(question.Question{Kind: question.KindText, Message: "Name?", FreeText: true}).Hold != Held {
		t.Error("not held while the schedule says away")
	}

	// Back at 19:00: not away until 07:00 (12 hours), then the weekend.
	now = at("fri", 19, 0)
	if err := p.SetAway(false); err != nil {
		t.Fatal(err)
	}
	again, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	again.now, again.sched = p.now, s
	for _, pol := range []*Policy{p, again} {
		if pol.Away() || !pol.NextAwayChange().Equal(at("sat", 7, 0)) {
			t.Errorf("back at 19:00: away %v, next change %v, want Saturday 07:00", pol.Away(), pol.NextAwayChange())
		}
	}
	now = at("sat", 7, 0)
	if !p.Away() || !again.Away() {
		t.Error("the weekend did not begin after 12 hours back")
	}

	// Away until Monday 08:00 runs into nothing: it ends then; until Monday
	// 18:30 runs into the evening's stretch: it ends at midnight.
	now = at("mon2", 7, 0)
	if err := p.SetAwayUntil(at("mon2", 8, 0)); err != nil {
		t.Fatal(err)
	}
	if !p.AwayUntil().Equal(at("mon2", 8, 0)) || !p.NextAwayChange().Equal(at("mon2", 8, 0)) {
		t.Errorf("away until 08:00 reads until %v", p.AwayUntil())
	}
	if err := p.SetAwayUntil(at("mon2", 18, 30)); err != nil {
		t.Fatal(err)
	}
	if got := p.AwayUntil(); !got.Equal(time.Date(2026, 12, 15, 0, 0, 0, 0, zone)) {
		t.Errorf("away until 18:30 into the evening's stretch reads until %v, want Tuesday 00:00", got)
	}
	now = at("mon2", 18, 45)
	if !p.Away() {
		t.Error("not away after the person's end, in the schedule's stretch")
	}
	// Switched on without an end, away lasts; the schedule plays no part.
	if err := p.SetAway(true); err != nil || !p.AwayUntil().IsZero() || !p.Away() {
		t.Errorf("away on: err %v, until %v", err, p.AwayUntil())
	}
	// Off outside a stretch: the schedule begins as written.
	now = at("mon2", 12, 0)
	if err := p.SetAway(false); err != nil || p.Away() || !p.NextAwayChange().Equal(at("mon2", 18, 0)) {
		t.Errorf("off at noon: err %v, away %v, next change %v", err, p.Away(), p.NextAwayChange())
	}
}
