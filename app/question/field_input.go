package question

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// This file turns what a person types into a form field's value, with
// messages in plain words; ValidateContent remains the final check.

// ParseInput turns what a person typed into a form field's text box into
// the field's JSON value, or an error in plain words for showing next to the
// field ("enter a whole number, like 42"). The dialog and the question page
// share it; the answer is still checked by ValidateContent. Any goroutine
// may call it.
func (f Field) ParseInput(text string) (json.RawMessage, error) {
	switch f.Type {
	case FieldInteger:
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, errors.New("enter a whole number, like 42")
		}
		if err := inputRangeError(f, float64(n)); err != nil {
			return nil, err
		}
		return json.RawMessage(strconv.FormatInt(n, 10)), nil
	case FieldNumber:
		v, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, errors.New("enter a number, like 2.5")
		}
		if err := inputRangeError(f, v); err != nil {
			return nil, err
		}
		if json.Valid([]byte(text)) {
			return json.RawMessage(text), nil
		}
		return json.RawMessage(strconv.FormatFloat(v, 'f', -1, 64)), nil
	}
	n := utf8.RuneCountInString(text)
	switch {
	case f.MinLength != nil && n < *f.MinLength:
		return nil, fmt.Errorf("at least %s", plural(*f.MinLength, "character"))
	case f.MaxLength != nil && n > *f.MaxLength:
		return nil, fmt.Errorf("at most %s (%d now)", plural(*f.MaxLength, "character"), n)
	}
	if err := inputFormatError(f.Format, text); err != nil {
		return nil, err
	}
	return json.Marshal(text)
}

// formatError checks text against a string format, mirroring question's checks in kinder words.
func inputFormatError(format, text string) error {
	switch format {
	case "email":
		a, err := mail.ParseAddress(text)
		if err != nil || a.Name != "" || a.Address != text || !strings.Contains(text, "@") {
			return errors.New("enter an email address, like ada@example.com")
		}
	case "uri":
		if u, err := url.Parse(text); err != nil || u.Scheme == "" {
			return errors.New("enter a full address with its scheme, like https://example.com/")
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, text); err != nil {
			return errors.New("enter a date as YYYY-MM-DD, like 2026-03-31")
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, text); err != nil {
			return errors.New("enter a date and time like 2026-03-31T09:30:00Z (RFC 3339, with a time zone)")
		}
	}
	return nil
}

// rangeError checks v against the field's minimum and maximum.
func inputRangeError(f Field, v float64) error {
	lo, hi := f.Minimum, f.Maximum
	switch {
	case lo != nil && hi != nil && (v < *lo || v > *hi):
		return fmt.Errorf("must be between %s and %s", inputNum(*lo), inputNum(*hi))
	case lo != nil && v < *lo:
		return fmt.Errorf("must be at least %s", inputNum(*lo))
	case hi != nil && v > *hi:
		return fmt.Errorf("must be at most %s", inputNum(*hi))
	}
	return nil
}

// CheckPicks checks a multi-select field's number of picks, in plain words.
func (f Field) CheckPicks(n int) error {
	switch {
	case f.MinItems != nil && n < *f.MinItems:
		return fmt.Errorf("pick at least %d", *f.MinItems)
	case f.MaxItems != nil && n > *f.MaxItems:
		return fmt.Errorf("pick at most %d", *f.MaxItems)
	}
	return nil
}

func inputNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// InputHint hints at what a text box for f expects ("a whole number, 1 to
// 9", "YYYY-MM-DD"), or "".
func (f Field) InputHint() string {
	switch f.Type {
	case FieldInteger:
		return "a whole number" + inputRangeHint(f)
	case FieldNumber:
		return "a number" + inputRangeHint(f)
	}
	return map[string]string{
		"email": "name@example.com", "uri": "https://…",
		"date": "YYYY-MM-DD", "date-time": "YYYY-MM-DDThh:mm:ssZ",
	}[f.Format]
}

func inputRangeHint(f Field) string {
	switch {
	case f.Minimum != nil && f.Maximum != nil:
		return fmt.Sprintf(", %s to %s", inputNum(*f.Minimum), inputNum(*f.Maximum))
	case f.Minimum != nil:
		return ", at least " + inputNum(*f.Minimum)
	case f.Maximum != nil:
		return ", at most " + inputNum(*f.Maximum)
	}
	return ""
}
