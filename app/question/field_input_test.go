package question

import (
	"encoding/json"
	"testing"
)

// TestFieldParseInput: typed text becomes the field's JSON value, or an
// error in plain words naming the limit.
func TestFieldParseInput(t *testing.T) {
	one, nine, three := 1.0, 9.0, 3
	for _, c := range []struct {
		name   string
		f      Field
		text   string
		want   string
		errMsg string
	}{
		{"integer", Field{Type: FieldInteger}, "42", "42", ""},
		{"integer text", Field{Type: FieldInteger}, "12a", "", "enter a whole number, like 42"},
		{"integer range", Field{Type: FieldInteger, Minimum: &one, Maximum: &nine}, "10", "", "must be between 1 and 9"},
		{"number kept as typed", Field{Type: FieldNumber}, "2.50", "2.50", ""},
		{"number below", Field{Type: FieldNumber, Minimum: &one}, "0.5", "", "must be at least 1"},
		{"string too short", Field{Type: FieldString, MinLength: &three}, "ab", "", "at least 3 characters"},
		{"string", Field{Type: FieldString}, "Ada", `"Ada"`, ""},
		{"email", Field{Type: FieldString, Format: "email"}, "ada@", "", "enter an email address, like ada@example.com"},
		{"date", Field{Type: FieldString, Format: "date"}, "2026-03-31", `"2026-03-31"`, ""},
	} {
		got, err := c.f.ParseInput(c.text)
		switch {
		case c.errMsg != "" && (err == nil || err.Error() != c.errMsg):
			t.Errorf("%s: err %v, want %q", c.name, err, c.errMsg)
		case c.errMsg == "" && (err != nil || string(got) != c.want):
			t.Errorf("%s: %s, %v; want %s", c.name, got, err, c.want)
		case c.errMsg == "" && !json.Valid(got):
			t.Errorf("%s: %s is not JSON", c.name, got)
		}
	}
}

// TestFieldCheckPicksAndHint: the multi-select bounds and the text box hints.
func TestFieldCheckPicksAndHint(t *testing.T) {
	one, two := 1, 2
	f := Field{Type: FieldMultiSelect, MinItems: &one, MaxItems: &two}
	if err := f.CheckPicks(0); err == nil || err.Error() != "pick at least 1" {
		t.Errorf("0 picks: %v", err)
	}
	if err := f.CheckPicks(3); err == nil || err.Error() != "pick at most 2" {
		t.Errorf("3 picks: %v", err)
	}
	if err := f.CheckPicks(2); err != nil {
		t.Errorf("2 picks: %v", err)
	}
	lo, hi := 1.0, 9.0
	if got := (Field{Type: FieldInteger, Minimum: &lo, Maximum: &hi}).InputHint(); got != "a whole number, 1 to 9" {
		t.Errorf("integer hint %q", got)
	}
	if got := (Field{Type: FieldString, Format: "date"}).InputHint(); got != "YYYY-MM-DD" {
		t.Errorf("date hint %q", got)
	}
}
