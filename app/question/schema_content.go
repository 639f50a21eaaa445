package question

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
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
	var given []field
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

// The helpers below deal in raw JSON for ParseSchema and ValidateContent.

// field is one member of a JSON object, as decodeObjectStrict returns it.
type field struct {
	Name  string
	Value json.RawMessage
}

// decodeObjectStrict decodes raw, which must be one JSON object, into its
// members in order. Unlike encoding/json it refuses a key given twice; keys
// are compared exactly, after unescaping, so "Type" and "type" are distinct.
// It also refuses invalid UTF-8, which encoding/json would silently replace.
func decodeObjectStrict(raw json.RawMessage) ([]field, error) {
	if !utf8.Valid(raw) {
		return nil, errors.New("not valid UTF-8")
	}
	if !json.Valid(raw) {
		return nil, errors.New("not valid JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("must be a JSON object")
	}
	var fields []field
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, errors.New("not valid JSON")
		}
		key, _ := tok.(string)
		if slices.ContainsFunc(fields, func(f field) bool { return f.Name == key }) {
			return nil, fmt.Errorf("duplicate key %s", quoteShort(key))
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, errors.New("not valid JSON")
		}
		fields = append(fields, field{Name: key, Value: v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, errors.New("not valid JSON")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not valid JSON")
	}
	return fields, nil
}

// stringValue decodes raw if it is a JSON string.
func stringValue(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// isNumber reports whether raw, a valid JSON value, is a number.
func isNumber(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && (raw[0] == '-' || '0' <= raw[0] && raw[0] <= '9')
}

// isArray reports whether raw, a valid JSON value, is an array.
func isArray(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '['
}

// appendString appends s as a JSON string, without HTML escaping.
func appendString(dst []byte, s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	return append(dst, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
}

// errAt returns a *FieldError for the JSON path path.
func errAt(path, format string, args ...any) error {
	return &FieldError{Field: path, Msg: fmt.Sprintf(format, args...)}
}

// joinPath appends a member name to a JSON path: base.name when name is a
// plain word, base["name"] otherwise.
func joinPath(base, name string) string {
	plain := name != ""
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' && r != '$' {
			plain = false
			break
		}
	}
	if plain {
		return base + "." + name
	}
	return base + "[" + quoteShort(name) + "]"
}

// quoteShort quotes s for an error message, cut to 40 characters.
func quoteShort(s string) string {
	if t := shortText(s); t != s {
		return strconv.Quote(strings.TrimSuffix(t, "…")) + "…"
	}
	return strconv.Quote(s)
}

// shortText cuts s to 40 characters for an error message.
func shortText(s string) string {
	const limit = 40
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	return string([]rune(s)[:limit]) + "…"
}

// formatFloat formats a bound for a message, or for JSON: whole numbers below
// 1e21 in plain digits, others in the shortest form.
func formatFloat(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// The readers below decode keyword values of a requestedSchema for ParseSchema.

// valueList decodes a non-empty array of at most maxEnumValues elements.
func valueList(path string, raw json.RawMessage) ([]json.RawMessage, error) {
	var items []json.RawMessage
	if !isArray(raw) || json.Unmarshal(raw, &items) != nil || len(items) == 0 {
		return nil, errAt(path, "must be a non-empty array")
	}
	if len(items) > maxEnumValues {
		return nil, errAt(path, "%d values, at most %d", len(items), maxEnumValues)
	}
	return items, nil
}

// enumText decodes a value or title of an enum: a string of 1 to
// maxEnumTextLen characters.
func enumText(path string, raw json.RawMessage) (string, error) {
	s, ok := stringValue(raw)
	if !ok {
		return "", errAt(path, "must be a string")
	}
	switch n := utf8.RuneCountInString(s); {
	case n == 0:
		return "", errAt(path, "must not be empty")
	case n > maxEnumTextLen:
		return "", errAt(path, "%d characters, at most %d", n, maxEnumTextLen)
	}
	return s, nil
}

func optString(path string, kw map[string]json.RawMessage, key string) (string, error) {
	raw, ok := kw[key]
	if !ok {
		return "", nil
	}
	s, ok := stringValue(raw)
	if !ok {
		return "", errAt(path+"."+key, "must be a string")
	}
	return s, nil
}

// optIntRange parses a pair of optional non-negative integer bounds.
func optIntRange(path string, kw map[string]json.RawMessage, minKey, maxKey string) (lo, hi *int, err error) {
	get := func(key string) (*int, error) {
		raw, ok := kw[key]
		if !ok {
			return nil, nil
		}
		n, err := strconv.Atoi(string(bytes.TrimSpace(raw)))
		if err != nil || n < 0 || !isNumber(raw) {
			return nil, errAt(path+"."+key, "must be a non-negative integer")
		}
		return &n, nil
	}
	if lo, err = get(minKey); err != nil {
		return nil, nil, err
	}
	if hi, err = get(maxKey); err != nil {
		return nil, nil, err
	}
	if lo != nil && hi != nil && *hi < *lo {
		return nil, nil, errAt(path+"."+maxKey, "%d is less than %s %d", *hi, minKey, *lo)
	}
	return lo, hi, nil
}

// optNumber parses an optional numeric bound; whole says it must be a whole number.
func optNumber(path string, kw map[string]json.RawMessage, key string, whole bool) (*float64, error) {
	raw, ok := kw[key]
	if !ok {
		return nil, nil
	}
	kpath := path + "." + key
	if !isNumber(raw) {
		return nil, errAt(kpath, "must be a number")
	}
	text := string(bytes.TrimSpace(raw))
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return nil, errAt(kpath, "%s is out of range", shortText(text))
	}
	if whole && v != math.Trunc(v) {
		return nil, errAt(kpath, "must be a whole number for an integer field")
	}
	return &v, nil
}
