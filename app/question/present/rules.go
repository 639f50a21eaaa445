package present

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/asktray/asktray/app/question"
)

// SelectRule says how many options a multi_choice wants ("Pick 1 to 3").
func SelectRule(q *question.Question) string {
	lo, hi := q.SelectBounds()
	switch {
	case lo == hi:
		return fmt.Sprintf("Pick %d", lo)
	case lo > 0 && hi < len(q.Options):
		return fmt.Sprintf("Pick %d to %d", lo, hi)
	case lo > 0:
		return fmt.Sprintf("Pick at least %d", lo)
	case hi < len(q.Options):
		return fmt.Sprintf("Pick up to %d", hi)
	}
	return "Pick any"
}

// PickError says how n picked options break the question's rule, or nil: a
// multi_choice within its bounds; a choice, or a text question whose
// suggestions are its only answers, exactly one. A choice with free text
// may be answered by its note alone.
func PickError(q *question.Question, n int, note string) error {
	if q.Kind != question.KindMultiChoice {
		if n == 1 || (q.Kind == question.KindChoice && n == 0 && note != "") {
			return nil
		}
		return errors.New("pick one of the options")
	}
	lo, hi := q.SelectBounds()
	switch {
	case n < lo:
		return fmt.Errorf("pick at least %d (%d picked)", lo, n)
	case n > hi:
		return fmt.Errorf("pick at most %d (%d picked)", hi, n)
	}
	return nil
}

// LengthRule says how long a free-text answer must be ("3–12 characters"),
// or "" when there is no rule.
func LengthRule(q *question.Question) string {
	minL, maxL := q.MinLength, q.MaxLength
	switch {
	case minL > 0 && maxL > 0:
		return fmt.Sprintf("%d–%d characters", minL, maxL)
	case minL > 0:
		return "at least " + CountNoun(minL, "character")
	case maxL > 0:
		return "up to " + CountNoun(maxL, "character")
	}
	return ""
}

// LengthError says how text breaks the question's length rule, or nil.
func LengthError(q *question.Question, text string) error {
	n := utf8.RuneCountInString(text)
	switch minL, maxL := q.MinLength, q.MaxLength; {
	case n < minL:
		return fmt.Errorf("at least %s, %d more to go", CountNoun(minL, "character"), minL-n)
	case maxL > 0 && n > maxL:
		return fmt.Errorf("at most %s, %d too many", CountNoun(maxL, "character"), n-maxL)
	}
	return nil
}
