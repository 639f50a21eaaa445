package policy

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/asktray/asktray/app/question"
)

// minutesPerWeek is the length of a week in wall-clock minutes.
const minutesPerWeek = 7 * 24 * 60

// Schedule is a weekly away schedule, as the person wrote it ("weekdays
// after 18:00, weekends"): stretches of the week in local wall-clock time,
// so 18:00 stays 18:00 across a change of daylight saving time. The zero
// Schedule covers nothing. A Schedule is immutable; any goroutine may use it.
type Schedule struct {
	text  string
	spans []span
	week  *[minutesPerWeek]bool // minute of the week (Sunday 00:00 is 0) → away
}

// span is one phrase of a schedule: the days it starts on and its minutes
// of the day [from, to). A to not after from runs past midnight into the
// next day.
type span struct {
	days     [7]bool // by time.Weekday
	from, to int
}

// The words a schedule's days may be written in.
var (
	dayNames = map[string]time.Weekday{
		"sun": time.Sunday, "mon": time.Monday, "tue": time.Tuesday, "tues": time.Tuesday, "wed": time.Wednesday,
		"thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday, "fri": time.Friday, "sat": time.Saturday,
	}
	dayGroups = map[string][]time.Weekday{
		"weekdays": {time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday},
		"weekends": {time.Saturday, time.Sunday},
		"daily":    {time.Sunday, time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday, time.Saturday},
	}
)

// ParseSchedule reads a weekly schedule in a person's words: phrases
// separated by commas, semicolons or new lines, each some days and
// optionally a time of day: "weekdays after 18:00", "weekends", "mon-fri
// 18:00-08:00" (overnight, into the next morning), "sat and sun", "every
// day before 7:00", "friday from 13:00 to 17:30", "tue all day". "after
// 18:00" lasts until midnight, "before 9:00" from midnight. An empty text
// is no schedule. An error quotes the phrase and says what it expected
// (wrapping question.ErrInvalid).
func ParseSchedule(text string) (Schedule, error) {
	s := Schedule{text: strings.TrimSpace(text)}
	phrases := strings.FieldsFunc(s.text, func(r rune) bool { return r == ',' || r == ';' || r == '\n' })
	for _, ph := range phrases {
		if strings.TrimSpace(ph) == "" {
			continue
		}
		sp, err := parseSpan(ph)
		if err != nil {
			return Schedule{}, fmt.Errorf("%q: %w: %s", strings.TrimSpace(ph), question.ErrInvalid, err)
		}
		s.spans = append(s.spans, sp)
	}
	if len(s.spans) > 0 {
		s.week = new([minutesPerWeek]bool)
		for _, sp := range s.spans {
			sp.mark(s.week)
		}
	}
	return s, nil
}

// parseSpan reads one phrase: its days, then its time of day.
func parseSpan(phrase string) (span, error) {
	var sp span
	words := scheduleWords(phrase)
	i := 0
	for i < len(words) {
		days, n := dayTerm(words[i:])
		if n == 0 {
			break
		}
		for _, d := range days {
			sp.days[d] = true
		}
		i += n
	}
	if sp.days == [7]bool{} {
		return sp, fmt.Errorf("it names no days (write weekdays, weekends, every day, or days such as mon, tuesday or mon-fri)")
	}
	from, to, err := parseTimeOfDay(words[i:])
	sp.from, sp.to = from, to
	return sp, err
}

// dayFillers are the words between days that name none: "on weekdays",
// "sat and sun", "tue/thu".
var dayFillers = map[string]bool{"on": true, "every": true, "and": true, "&": true, "/": true}

// dayTerm reads the days at the start of words, one term: "every day",
// a group (weekdays, weekends, daily), a day or a range of days (mon-fri,
// monday to wednesday), or a filler word that names none. n is how many
// words it took: 0 when words do not start with a day.
func dayTerm(words []string) (days []time.Weekday, n int) {
	w := words[0]
	switch {
	case w == "every" && len(words) > 1 && words[1] == "day":
		return dayGroups["daily"], 2
	case dayFillers[w]:
		return nil, 1
	case w == "daily":
		return dayGroups[w], 1
	}
	if g, ok := dayGroups[strings.TrimSuffix(w, "s")+"s"]; ok {
		return g, 1
	}
	d, ok := dayOf(w)
	if !ok {
		return nil, 0
	}
	if len(words) > 2 && (words[1] == "-" || words[1] == "to" || words[1] == "through") {
		if e, ok := dayOf(words[2]); ok {
			for k := d; ; k = (k + 1) % 7 {
				days = append(days, k)
				if k == e {
					return days, 3
				}
			}
		}
	}
	return []time.Weekday{d}, 1
}

// scheduleWords splits a phrase into lower-case words, a dash (an en dash
// too) a word of its own.
func scheduleWords(phrase string) []string {
	phrase = strings.ToLower(phrase)
	phrase = strings.NewReplacer("–", " - ", "—", " - ", "-", " - ", "/", " / ", "&", " & ").Replace(phrase)
	return strings.Fields(phrase)
}

// dayOf reads a day's name, short or long, singular or plural.
func dayOf(w string) (time.Weekday, bool) {
	w = strings.TrimSuffix(w, "s")
	if d, ok := dayNames[w]; ok {
		return d, true
	}
	for name, d := range dayNames {
		if len(name) == 3 && strings.HasPrefix(w, name) && strings.HasSuffix(w, "day") {
			return d, true
		}
	}
	return 0, false
}

// wholeDay is the minutes of a day.
const wholeDay = 24 * 60

// parseTimeOfDay reads what follows the days: nothing or "all day" (the
// whole day), "after T" or "from T", "before T" or "until T", "T-T",
// "from T to T", "between T and T". It returns minutes of the day.
func parseTimeOfDay(words []string) (from, to int, err error) {
	rest := strings.Join(words, " ")
	switch {
	case rest == "" || rest == "all day":
		return 0, wholeDay, nil
	case len(words) == 2:
		return halfDay(words[0], words[1], rest)
	case len(words) == 4 && (words[0] == "from" || words[0] == "between"):
		return timeRange(words[1:], rest)
	case len(words) == 3:
		return timeRange(words, rest)
	}
	return 0, 0, notATime(rest)
}

// notATime says that rest is not a time of day the schedule reads.
func notATime(rest string) error {
	return fmt.Errorf("%q is not a time of day (write after 18:00, before 9:00, 18:00-8:00, all day, or nothing for the whole day)", rest)
}

// halfDay reads "after T" (or from: until midnight) and "before T" (or
// until, till: from midnight).
func halfDay(word, t, rest string) (from, to int, err error) {
	switch word {
	case "after", "from":
		from, err = clockMinutes(t)
		return from, wholeDay, err
	case "before", "until", "till":
		to, err = clockMinutes(t)
		if err == nil && to == 0 {
			err = fmt.Errorf("before 00:00 is no time at all")
		}
		return 0, to, err
	}
	return 0, 0, notATime(rest)
}

// timeRange reads "T-T", "T to T", "T until T" or "T and T".
func timeRange(w []string, rest string) (from, to int, err error) {
	if w[1] != "-" && w[1] != "to" && w[1] != "until" && w[1] != "and" {
		return 0, 0, notATime(rest)
	}
	if from, err = clockMinutes(w[0]); err == nil {
		to, err = clockMinutes(w[2])
	}
	if err == nil && from == to {
		err = fmt.Errorf("it starts and ends at the same time")
	}
	return from, to, err
}

// clockMinutes reads a time of day, "18:00", "18", "7:30", "6pm", "24:00"
// (only as an end), as minutes since midnight.
func clockMinutes(w string) (int, error) {
	bad := fmt.Errorf("%q is not a time of day such as 18:00 or 6pm", w)
	pm, am := strings.HasSuffix(w, "pm"), strings.HasSuffix(w, "am")
	w = strings.TrimSuffix(strings.TrimSuffix(w, "pm"), "am")
	hs, ms, hasMin := strings.Cut(w, ":")
	h, err := strconv.Atoi(hs)
	if err != nil || len(hs) > 2 {
		return 0, bad
	}
	m := 0
	if hasMin {
		if m, err = strconv.Atoi(ms); err != nil || len(ms) != 2 || m > 59 {
			return 0, bad
		}
	}
	switch {
	case (am || pm) && (h < 1 || h > 12):
		return 0, bad
	case pm && h != 12:
		h += 12
	case am && h == 12:
		h = 0
	}
	if h > 24 || (h == 24 && m > 0) {
		return 0, bad
	}
	return h*60 + m, nil
}

// mark sets the minutes of the week the span covers.
func (sp span) mark(week *[minutesPerWeek]bool) {
	length := sp.to - sp.from
	if length <= 0 {
		length += 24 * 60
	}
	for d := range 7 {
		if !sp.days[d] {
			continue
		}
		start := d*24*60 + sp.from
		for k := range length {
			week[(start+k)%minutesPerWeek] = true
		}
	}
}

// IsZero reports whether the schedule covers nothing.
func (s Schedule) IsZero() bool { return s.week == nil }

// String is the schedule as the person wrote it.
func (s Schedule) String() string { return s.text }

// minuteOfWeek is t's wall-clock minute of the week, in t's location.
func minuteOfWeek(t time.Time) int {
	return int(t.Weekday())*24*60 + t.Hour()*60 + t.Minute()
}

// Covers reports whether the schedule says away at t, read on the wall
// clock of t's location.
func (s Schedule) Covers(t time.Time) bool {
	return s.week != nil && s.week[minuteOfWeek(t)]
}

// next returns the first wall-clock minute at or after t (in t's location)
// whose coverage is want, or the zero time when there is none within a
// week: a schedule that covers every minute never ends.
func (s Schedule) next(t time.Time, want bool) time.Time {
	if s.week == nil {
		if !want {
			return t
		}
		return time.Time{}
	}
	m0 := minuteOfWeek(t)
	for k := range minutesPerWeek + 1 {
		if s.week[(m0+k)%minutesPerWeek] != want {
			continue
		}
		if k == 0 {
			return t
		}
		// Counted on the wall clock: time.Date normalizes the minutes past
		// the day's end, and a day of 23 or 25 hours keeps 18:00 at 18:00.
		return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute()+k, 0, 0, t.Location())
	}
	return time.Time{}
}

// End returns when the stretch of the schedule that covers t ends; t
// itself when it does not cover t; the zero time when it never ends.
func (s Schedule) End(t time.Time) time.Time { return s.next(t, false) }

// Start returns when the schedule next covers a time at or after t; t
// itself when it covers t; the zero time when it covers nothing.
func (s Schedule) Start(t time.Time) time.Time { return s.next(t, true) }

// Describe says the schedule as the app reads it, one phrase a part:
// "Mon–Fri 18:00–24:00; Sat, Sun all day"; "" for none.
func (s Schedule) Describe() string {
	parts := make([]string, 0, len(s.spans))
	for _, sp := range s.spans {
		parts = append(parts, sp.describe())
	}
	return strings.Join(parts, "; ")
}

// describe says one span: its days, then its hours.
func (sp span) describe() string {
	hours := "all day"
	if sp.from != 0 || sp.to != 24*60 {
		hours = clock(sp.from) + "–" + clock(sp.to)
		if sp.to <= sp.from {
			hours += " the next day"
		}
	}
	return describeDays(sp.days) + " " + hours
}

// clock writes minutes since midnight as 18:00.
func clock(m int) string { return fmt.Sprintf("%02d:%02d", m/60, m%60) }

// describeDays names a set of days, Monday first, runs of three or more
// as a range: "Mon–Fri", "Sat, Sun", "every day".
func describeDays(days [7]bool) string {
	if days == [7]bool{true, true, true, true, true, true, true} {
		return "every day"
	}
	order := []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday, time.Saturday, time.Sunday}
	var parts []string
	for i := 0; i < len(order); {
		if !days[order[i]] {
			i++
			continue
		}
		j := i
		for j+1 < len(order) && days[order[j+1]] {
			j++
		}
		if j-i >= 2 {
			parts = append(parts, order[i].String()[:3]+"–"+order[j].String()[:3])
		} else {
			for k := i; k <= j; k++ {
				parts = append(parts, order[k].String()[:3])
			}
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
