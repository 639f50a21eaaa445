package present

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/asktray/asktray/app/question"
)

// FieldRule says up front what form field f accepts, before anything is
// typed: its kind and range ("Whole number, 1–100"), its length ("At most
// 200 characters"), its format ("Date, YYYY-MM-DD"), how many to pick
// ("Pick 1–3"); parts are joined by Sep, and "" means there is nothing to
// say (a plain string, an enum, a boolean). Front ends show it under the
// field whatever its message. Any goroutine may call it.
func FieldRule(f question.Field) string {
	var parts []string
	switch f.Type {
	case question.FieldInteger:
		parts = append(parts, "whole number"+numberRange(f))
	case question.FieldNumber:
		parts = append(parts, "number"+numberRange(f))
	case question.FieldMultiSelect:
		if r := countRange(f.MinItems, f.MaxItems, ""); r != "" {
			parts = append(parts, "pick "+r)
		}
	case question.FieldString:
		if s := formatRule[f.Format]; s != "" {
			parts = append(parts, s)
		}
		if r := countRange(f.MinLength, f.MaxLength, "character"); r != "" {
			parts = append(parts, r)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return UpperFirst(strings.Join(parts, Sep))
}

// formatRule names what each string format expects.
var formatRule = map[string]string{
	"email":     "email address, like ada@example.com",
	"uri":       "full address with its scheme, like https://example.com/",
	"date":      "date, YYYY-MM-DD",
	"date-time": "date and time, YYYY-MM-DDThh:mm:ss with a time zone (Z or +01:00)",
}

// numberRange is ", 1–100", ", at least 0", ", at most 9" or "".
func numberRange(f question.Field) string {
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	switch lo, hi := f.Minimum, f.Maximum; {
	case lo != nil && hi != nil:
		return fmt.Sprintf(", %s–%s", num(*lo), num(*hi))
	case lo != nil:
		return ", at least " + num(*lo)
	case hi != nil:
		return ", at most " + num(*hi)
	}
	return ""
}

// countRange is "3–40 characters", "at least 1", "at most 200 characters"
// or "", counting noun (none when "").
func countRange(lo, hi *int, noun string) string {
	unit := func(n int) string {
		if noun == "" {
			return strconv.Itoa(n)
		}
		return CountNoun(n, noun)
	}
	switch {
	case lo != nil && *lo > 0 && hi != nil:
		if noun == "" {
			return fmt.Sprintf("%d–%d", *lo, *hi)
		}
		return fmt.Sprintf("%d–%d %ss", *lo, *hi, noun)
	case lo != nil && *lo > 0:
		return "at least " + unit(*lo)
	case hi != nil:
		return "at most " + unit(*hi)
	}
	return ""
}
