package question

// Strict JSON decoding (DecodeObject, for ParseSchema, ValidateContent and
// the MCP tools' arguments), and the JSON paths and short quotes their error
// messages use.

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

	"github.com/asktray/asktray/app/ellipsis"
)

// Member is one member of a JSON object, as DecodeObject returns it.
type Member struct {
	Name  string
	Value json.RawMessage
}

// The errors DecodeObject returns for input that is not one JSON object.
var (
	ErrNotJSON   = errors.New("not valid JSON")
	ErrNotObject = errors.New("must be a JSON object")
)

// DuplicateKeyError is a key given twice in one JSON object.
type DuplicateKeyError struct{ Key string }

func (e *DuplicateKeyError) Error() string { return "duplicate key " + quoteShort(e.Key) }

// DecodeObject decodes raw, which must be one JSON object, into its top-level
// members in order. Unlike encoding/json, which keeps the last of two
// duplicates and so lets a value hide behind another, it refuses a key given
// twice (*DuplicateKeyError); keys are compared exactly, after unescaping, so
// "Type" and "type" are distinct and "\u0074ype" is "type". Anything but one
// object is ErrNotJSON or ErrNotObject. It is the one duplicate-key scanner:
// the schema and content checks here and the MCP tools' arguments use it.
func DecodeObject(raw json.RawMessage) ([]Member, error) {
	if !json.Valid(raw) {
		return nil, ErrNotJSON
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, ErrNotObject
	}
	var members []Member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, ErrNotJSON
		}
		key, _ := tok.(string)
		if slices.ContainsFunc(members, func(m Member) bool { return m.Name == key }) {
			return nil, &DuplicateKeyError{Key: key}
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, ErrNotJSON
		}
		members = append(members, Member{Name: key, Value: v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, ErrNotJSON
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, ErrNotJSON
	}
	return members, nil
}

// decodeObjectStrict is DecodeObject refusing invalid UTF-8 too, which
// encoding/json would silently replace: a schema or a form's content must
// say exactly what the person sees.
func decodeObjectStrict(raw json.RawMessage) ([]Member, error) {
	if !utf8.Valid(raw) {
		return nil, errors.New("not valid UTF-8")
	}
	return DecodeObject(raw)
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
		return strconv.Quote(strings.TrimSuffix(t, ellipsis.Mark)) + ellipsis.Mark
	}
	return strconv.Quote(s)
}

// shortText cuts s to 41 characters, the last one the ellipsis, for an
// error message.
func shortText(s string) string { return ellipsis.Cut(s, 41) }

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
