package question

// Parsing each kind of form field's keywords, and reading keyword values,
// for ParseSchema.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

func (f *Field) parseString(path string, kw map[string]json.RawMessage) error {
	var err error
	if f.MinLength, f.MaxLength, err = optIntRange(path, kw, "minLength", "maxLength"); err != nil {
		return err
	}
	if raw, ok := kw["format"]; ok {
		v, ok := stringValue(raw)
		if !ok {
			return errAt(path+".format", "must be a string")
		}
		if !slices.Contains(formats, v) {
			return errAt(path+".format", "format %s is not supported (email, uri, date, date-time)", quoteShort(v))
		}
		f.Format = v
	}
	return nil
}

func (f *Field) parseNumber(path string, kw map[string]json.RawMessage) error {
	var err error
	if f.Minimum, err = optNumber(path, kw, "minimum", f.Type == FieldInteger); err != nil {
		return err
	}
	if f.Maximum, err = optNumber(path, kw, "maximum", f.Type == FieldInteger); err != nil {
		return err
	}
	if f.Minimum != nil && f.Maximum != nil && *f.Maximum < *f.Minimum {
		return errAt(path+".maximum", "%s is below the minimum %s", formatFloat(*f.Maximum), formatFloat(*f.Minimum))
	}
	return nil
}

func (f *Field) parseEnum(path string, kw map[string]json.RawMessage) error {
	var err error
	if raw, ok := kw["oneOf"]; ok {
		f.Values, err = parseConsts(path+".oneOf", raw)
		return err
	}
	if f.Values, err = parseEnumValues(path+".enum", kw["enum"]); err != nil {
		return err
	}
	raw, ok := kw["enumNames"]
	if !ok {
		return nil
	}
	npath := path + ".enumNames"
	var names []json.RawMessage
	if !isArray(raw) || json.Unmarshal(raw, &names) != nil {
		return errAt(npath, "must be an array of strings")
	}
	if len(names) != len(f.Values) {
		return errAt(npath, "%d names for %d values", len(names), len(f.Values))
	}
	for i, n := range names {
		if f.Values[i].Title, err = enumText(fmt.Sprintf("%s[%d]", npath, i), n); err != nil {
			return err
		}
	}
	return nil
}

func (f *Field) parseMultiSelect(path string, kw map[string]json.RawMessage) error {
	var err error
	if f.MinItems, f.MaxItems, err = optIntRange(path, kw, "minItems", "maxItems"); err != nil {
		return err
	}
	raw, ok := kw["items"]
	if !ok {
		return errAt(path, `keyword "items" is required`)
	}
	ipath := path + ".items"
	items, err := decodeObjectStrict(raw)
	if err != nil {
		return errAt(ipath, "%v", err)
	}
	ikw := make(map[string]json.RawMessage, len(items))
	for _, k := range items {
		switch k.Name {
		case "type", "enum", "anyOf":
			ikw[k.Name] = k.Value
		default:
			return errAt(ipath, "keyword %q is not supported", k.Name)
		}
	}
	if anyOf, ok := ikw["anyOf"]; ok {
		if _, ok := ikw["enum"]; ok {
			return errAt(ipath, `keywords "enum" and "anyOf" cannot be combined`)
		}
		if _, ok := ikw["type"]; ok {
			return errAt(ipath, `keyword "type" is not supported together with "anyOf"`)
		}
		f.Values, err = parseConsts(ipath+".anyOf", anyOf)
	} else {
		t, ok := ikw["type"]
		if !ok {
			return errAt(ipath, `keyword "type" is required`)
		}
		if v, ok := stringValue(t); !ok || v != "string" {
			return errAt(ipath+".type", `must be "string"`)
		}
		enum, ok := ikw["enum"]
		if !ok {
			return errAt(ipath, `keyword "enum" or "anyOf" is required`)
		}
		f.Values, err = parseEnumValues(ipath+".enum", enum)
	}
	if err != nil {
		return err
	}
	if f.MinItems != nil && *f.MinItems > len(f.Values) {
		return errAt(path+".minItems", "%d is more than the %d values", *f.MinItems, len(f.Values))
	}
	return nil
}

// parseEnumValues parses an "enum" array; each value is its own title.
func parseEnumValues(path string, raw json.RawMessage) ([]EnumValue, error) {
	items, err := valueList(path, raw)
	if err != nil {
		return nil, err
	}
	values := make([]EnumValue, 0, len(items))
	for i, item := range items {
		ipath := fmt.Sprintf("%s[%d]", path, i)
		v, err := enumText(ipath, item)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(values, func(e EnumValue) bool { return e.Value == v }) {
			return nil, errAt(ipath, "duplicate value %s", quoteShort(v))
		}
		values = append(values, EnumValue{Value: v, Title: v})
	}
	return values, nil
}

// parseConsts parses a "oneOf" or "anyOf" array of {"const", "title"} objects.
func parseConsts(path string, raw json.RawMessage) ([]EnumValue, error) {
	items, err := valueList(path, raw)
	if err != nil {
		return nil, err
	}
	values := make([]EnumValue, 0, len(items))
	for i, item := range items {
		ipath := fmt.Sprintf("%s[%d]", path, i)
		kws, err := decodeObjectStrict(item)
		if err != nil {
			return nil, errAt(ipath, "%v", err)
		}
		var v EnumValue
		var haveConst, haveTitle bool
		for _, k := range kws {
			switch k.Name {
			case "const":
				v.Value, err = enumText(ipath+".const", k.Value)
				haveConst = true
			case "title":
				v.Title, err = enumText(ipath+".title", k.Value)
				haveTitle = true
			default:
				err = errAt(ipath, "keyword %q is not supported", k.Name)
			}
			if err != nil {
				return nil, err
			}
		}
		switch {
		case !haveConst:
			return nil, errAt(ipath, `keyword "const" is required`)
		case !haveTitle:
			return nil, errAt(ipath, `keyword "title" is required`)
		}
		if slices.ContainsFunc(values, func(e EnumValue) bool { return e.Value == v.Value }) {
			return nil, errAt(ipath+".const", "duplicate value %s", quoteShort(v.Value))
		}
		values = append(values, v)
	}
	return values, nil
}

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
