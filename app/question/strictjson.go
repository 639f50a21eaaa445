package question

// Strict JSON decoding for ParseSchema and ValidateContent, and the JSON
// paths and short quotes their error messages use.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

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
