package question

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// ValidateContent checks content (a JSON object of answers) against s and returns it canonicalised.
//
// The result is compact JSON with the fields in schema order and their JSON
// types kept: a boolean stays a boolean, an integer stays an integer and a
// number keeps its JSON number text; strings are re-encoded without HTML
// escaping and a multi_select keeps the order the person chose. Optional
// fields may be absent; null counts as absent for an optional field and as
// missing for a required one. Empty content or null is read as {}. Keys are
// case-sensitive and a key given twice is an error. Errors are *FieldError
// values naming the field, for example `content.age: 130 is above the maximum 120`.
func (s *FormSchema) ValidateContent(content json.RawMessage) (json.RawMessage, error) {
	const root = "content"
	var given []Member
	if trimmed := bytes.TrimSpace(content); len(trimmed) > 0 && string(trimmed) != "null" {
		var err error
		if given, err = decodeObjectStrict(content); err != nil {
			return nil, errAt(root, "%v", err)
		}
	}
	values := make(map[string]json.RawMessage, len(given))
	for _, kv := range given {
		if _, ok := s.Field(kv.Name); !ok {
			return nil, errAt(joinPath(root, kv.Name), "not in the schema")
		}
		values[kv.Name] = kv.Value
	}
	out := []byte{'{'}
	for i := range s.Fields {
		f := &s.Fields[i]
		path := joinPath(root, f.Name)
		raw, ok := values[f.Name]
		if !ok || string(raw) == "null" {
			if f.Required {
				return nil, errAt(path, "required")
			}
			continue
		}
		v, err := f.check(path, raw)
		if err != nil {
			return nil, err
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = appendString(out, f.Name)
		out = append(out, ':')
		out = append(out, v...)
	}
	return append(out, '}'), nil
}

// check validates one non-null value for f and returns it canonicalised.
// path names the value in errors.
func (f *Field) check(path string, raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	switch f.Type {
	case FieldString, FieldEnum:
		s, ok := stringValue(raw)
		if !ok {
			return nil, errAt(path, "must be a string")
		}
		if err := f.checkString(s); err != nil {
			return nil, errAt(path, "%v", err)
		}
		return appendString(nil, s), nil
	case FieldNumber, FieldInteger:
		if err := f.checkNumber(raw); err != nil {
			return nil, errAt(path, "%v", err)
		}
		return slices.Clone(raw), nil
	case FieldBoolean:
		if string(raw) != "true" && string(raw) != "false" {
			return nil, errAt(path, "must be true or false")
		}
		return slices.Clone(raw), nil
	case FieldMultiSelect:
		return f.checkMultiSelect(path, raw)
	}
	return nil, errAt(path, "field type %q is unknown", f.Type)
}

func (f *Field) checkString(s string) error {
	if f.Type == FieldEnum {
		if !f.allows(s) {
			return fmt.Errorf("%s is not one of the allowed values", quoteShort(s))
		}
		return nil
	}
	n := utf8.RuneCountInString(s)
	if f.MinLength != nil && n < *f.MinLength {
		return fmt.Errorf("%s, at least %d", plural(n, "character"), *f.MinLength)
	}
	if f.MaxLength != nil && n > *f.MaxLength {
		return fmt.Errorf("%s, at most %d", plural(n, "character"), *f.MaxLength)
	}
	return checkFormat(f.Format, s)
}

// checkFormat checks s against a string format of the MCP subset.
func checkFormat(format, s string) error {
	ok := true
	switch format {
	case "email":
		a, err := mail.ParseAddress(s)
		ok = err == nil && a.Name == "" && a.Address == s && strings.Contains(s, "@")
	case "uri":
		u, err := url.Parse(s)
		ok = err == nil && u.Scheme != ""
	case "date":
		_, err := time.Parse(time.DateOnly, s)
		ok = err == nil
	case "date-time":
		_, err := time.Parse(time.RFC3339, s)
		ok = err == nil
	}
	if !ok {
		return fmt.Errorf("%s is not %s", quoteShort(s), formatNames[format])
	}
	return nil
}

// formatNames describes each format in error messages.
var formatNames = map[string]string{
	"email":     "an email address",
	"uri":       "an absolute URI",
	"date":      "a date (YYYY-MM-DD)",
	"date-time": "a date-time (RFC 3339)",
}

func (f *Field) checkNumber(raw json.RawMessage) error {
	text := string(raw)
	if !isNumber(raw) {
		if f.Type == FieldInteger {
			return errors.New("must be an integer")
		}
		return errors.New("must be a number")
	}
	if f.Type == FieldInteger {
		if strings.ContainsAny(text, ".eE") {
			return fmt.Errorf("must be an integer, not %s", shortText(text))
		}
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return fmt.Errorf("%s is out of range for an integer", shortText(text))
		}
		if f.Minimum != nil && intBelow(n, *f.Minimum) {
			return fmt.Errorf("%s is below the minimum %s", shortText(text), formatFloat(*f.Minimum))
		}
		if f.Maximum != nil && intAbove(n, *f.Maximum) {
			return fmt.Errorf("%s is above the maximum %s", shortText(text), formatFloat(*f.Maximum))
		}
		return nil
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return fmt.Errorf("%s is out of range", shortText(text))
	}
	if f.Minimum != nil && v < *f.Minimum {
		return fmt.Errorf("%s is below the minimum %s", shortText(text), formatFloat(*f.Minimum))
	}
	if f.Maximum != nil && v > *f.Maximum {
		return fmt.Errorf("%s is above the maximum %s", shortText(text), formatFloat(*f.Maximum))
	}
	return nil
}

// intBelow reports whether n < bound, exactly, for a whole bound.
func intBelow(n int64, bound float64) bool {
	switch {
	case bound >= 0x1p63:
		return true
	case bound < -0x1p63:
		return false
	}
	return n < int64(bound)
}

// intAbove reports whether n > bound, exactly, for a whole bound.
func intAbove(n int64, bound float64) bool {
	switch {
	case bound >= 0x1p63:
		return false
	case bound < -0x1p63:
		return true
	}
	return n > int64(bound)
}

func (f *Field) checkMultiSelect(path string, raw json.RawMessage) (json.RawMessage, error) {
	var items []json.RawMessage
	if !isArray(raw) || json.Unmarshal(raw, &items) != nil {
		return nil, errAt(path, "must be an array of strings")
	}
	out := []byte{'['}
	seen := make(map[string]bool, len(items))
	for i, item := range items {
		ipath := fmt.Sprintf("%s[%d]", path, i)
		s, ok := stringValue(item)
		switch {
		case !ok:
			return nil, errAt(ipath, "must be a string")
		case !f.allows(s):
			return nil, errAt(ipath, "%s is not one of the allowed values", quoteShort(s))
		case seen[s]:
			return nil, errAt(ipath, "duplicate value %s", quoteShort(s))
		}
		seen[s] = true
		if i > 0 {
			out = append(out, ',')
		}
		out = appendString(out, s)
	}
	if f.MinItems != nil && len(items) < *f.MinItems {
		return nil, errAt(path, "%s, at least %d", plural(len(items), "item"), *f.MinItems)
	}
	if f.MaxItems != nil && len(items) > *f.MaxItems {
		return nil, errAt(path, "%s, at most %d", plural(len(items), "item"), *f.MaxItems)
	}
	return append(out, ']'), nil
}

func (f *Field) allows(v string) bool {
	return slices.ContainsFunc(f.Values, func(e EnumValue) bool { return e.Value == v })
}
