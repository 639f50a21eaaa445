package question

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FieldType is the kind of one form field.
type FieldType string

// The kinds of form field.
const (
	FieldString      FieldType = "string"
	FieldNumber      FieldType = "number"
	FieldInteger     FieldType = "integer"
	FieldBoolean     FieldType = "boolean"
	FieldEnum        FieldType = "enum"         // a single choice among Values
	FieldMultiSelect FieldType = "multi_select" // any number of distinct Values
)

// EnumValue is one allowed value of an enum or multi_select field.
type EnumValue struct {
	Value string `json:"value"`
	Title string `json:"title"` // what the person sees; Value when the schema gives no title
}

// Field is one property of a FormSchema.
type Field struct {
	Name        string      `json:"name"`
	Title       string      `json:"title,omitempty"`
	Description string      `json:"description,omitempty"`
	Type        FieldType   `json:"type"`
	Required    bool        `json:"required,omitempty"`
	Format      string      `json:"format,omitempty"` // email, uri, date or date-time; strings only
	MinLength   *int        `json:"min_length,omitempty"`
	MaxLength   *int        `json:"max_length,omitempty"`
	Minimum     *float64    `json:"minimum,omitempty"`
	Maximum     *float64    `json:"maximum,omitempty"`
	MinItems    *int        `json:"min_items,omitempty"`
	MaxItems    *int        `json:"max_items,omitempty"`
	Values      []EnumValue `json:"values,omitempty"` // enum and multi_select
	// Default is the field's default in canonical JSON, as ValidateContent
	// would return it; nil when the schema gives none.
	Default json.RawMessage `json:"default,omitempty"`
}

// FormSchema is an MCP elicitation requestedSchema, parsed by ParseSchema.
type FormSchema struct {
	Title       string  `json:"title,omitempty"`
	Description string  `json:"description,omitempty"`
	Fields      []Field `json:"fields"` // in the order of the JSON properties object
}

// Limits on a requestedSchema.
const (
	maxSchemaBytes  = 64 << 10
	maxFields       = 50
	maxFieldNameLen = 64  // runes
	maxEnumValues   = 100 // per field
	maxEnumTextLen  = 200 // runes, per value and per title
)

// formats lists the string formats of the MCP elicitation subset.
var formats = []string{"email", "uri", "date", "date-time"}

// Keywords a property may carry in the MCP elicitation subset, in any kind.
// Anything else is refused by name.
var propertyKeywords = []string{
	"type", "title", "description", "default",
	"minLength", "maxLength", "format",
	"enum", "enumNames", "oneOf",
	"minimum", "maximum",
	"minItems", "maxItems", "items",
}

// kindKeywords are the keywords each kind allows beyond type, title,
// description and default.
var kindKeywords = map[FieldType][]string{
	FieldString:      {"minLength", "maxLength", "format"},
	FieldEnum:        {"enum", "enumNames", "oneOf"},
	FieldNumber:      {"minimum", "maximum"},
	FieldInteger:     {"minimum", "maximum"},
	FieldBoolean:     nil,
	FieldMultiSelect: {"minItems", "maxItems", "items"},
}

// ParseSchema validates raw against the MCP elicitation subset and returns it parsed.
//
// The subset is MCP 2025-11-25's form-mode requestedSchema: a flat object of
// string, number, integer, boolean, single-select and multi-select
// properties. Every other keyword, including case variants of the known ones
// such as "Type", is refused by name, as is a key that appears twice in one
// object. Errors are *FieldError values whose Field is the JSON path, for
// example `requestedSchema.properties.age: keyword "exclusiveMinimum" is not supported`.
func ParseSchema(raw json.RawMessage) (*FormSchema, error) {
	const root = "requestedSchema"
	if len(raw) > maxSchemaBytes {
		return nil, errAt(root, "%d bytes, at most %d", len(raw), maxSchemaBytes)
	}
	top, err := decodeObjectStrict(raw)
	if err != nil {
		return nil, errAt(root, "%v", err)
	}
	s := &FormSchema{}
	var props, required json.RawMessage
	haveType := false
	for _, kv := range top {
		path := joinPath(root, kv.Name)
		switch kv.Name {
		case "$schema":
			if _, ok := stringValue(kv.Value); !ok {
				return nil, errAt(path, "must be a string")
			}
		case "type":
			if t, ok := stringValue(kv.Value); !ok || t != "object" {
				return nil, errAt(path, `must be "object"`)
			}
			haveType = true
		case "title", "description":
			v, ok := stringValue(kv.Value)
			if !ok {
				return nil, errAt(path, "must be a string")
			}
			if kv.Name == "title" {
				s.Title = v
			} else {
				s.Description = v
			}
		case "properties":
			props = kv.Value
		case "required":
			required = kv.Value
		default:
			return nil, errAt(root, "keyword %q is not supported", kv.Name)
		}
	}
	if !haveType {
		return nil, errAt(root, `keyword "type" is required`)
	}
	if props == nil {
		return nil, errAt(root, `keyword "properties" is required`)
	}
	if s.Fields, err = parseProperties(root+".properties", props); err != nil {
		return nil, err
	}
	if required != nil {
		if err := s.parseRequired(root+".required", required); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Field returns the field called name.
func (s *FormSchema) Field(name string) (Field, bool) {
	for _, f := range s.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

func parseProperties(path string, raw json.RawMessage) ([]Field, error) {
	props, err := decodeObjectStrict(raw)
	if err != nil {
		return nil, errAt(path, "%v", err)
	}
	if len(props) > maxFields {
		return nil, errAt(path, "%d properties, at most %d", len(props), maxFields)
	}
	fields := make([]Field, 0, len(props))
	for _, kv := range props {
		switch n := utf8.RuneCountInString(kv.Name); {
		case n == 0:
			return nil, errAt(path, "property name must not be empty")
		case n > maxFieldNameLen:
			return nil, errAt(path, "property name %s is %d characters, at most %d", quoteShort(kv.Name), n, maxFieldNameLen)
		}
		if strings.IndexFunc(kv.Name, unicode.IsControl) >= 0 {
			return nil, errAt(path, "property name %q contains a control character", kv.Name)
		}
		f, err := parseField(joinPath(path, kv.Name), kv.Name, kv.Value)
		if err != nil {
			return nil, err
		}
		fields = append(fields, f)
	}
	return fields, nil
}

func (s *FormSchema) parseRequired(path string, raw json.RawMessage) error {
	var items []json.RawMessage
	if !isArray(raw) || json.Unmarshal(raw, &items) != nil {
		return errAt(path, "must be an array of strings")
	}
	seen := make(map[string]bool, len(items))
	for i, item := range items {
		ipath := fmt.Sprintf("%s[%d]", path, i)
		name, ok := stringValue(item)
		if !ok {
			return errAt(ipath, "must be a string")
		}
		if seen[name] {
			return errAt(ipath, "duplicate %s", quoteShort(name))
		}
		seen[name] = true
		j := slices.IndexFunc(s.Fields, func(f Field) bool { return f.Name == name })
		if j < 0 {
			return errAt(ipath, "%s is not a property", quoteShort(name))
		}
		s.Fields[j].Required = true
	}
	return nil
}

// parseField parses one property.
func parseField(path, name string, raw json.RawMessage) (Field, error) {
	kws, err := decodeObjectStrict(raw)
	if err != nil {
		return Field{}, errAt(path, "%v", err)
	}
	kw := make(map[string]json.RawMessage, len(kws))
	for _, k := range kws {
		if !slices.Contains(propertyKeywords, k.Name) {
			return Field{}, errAt(path, "keyword %q is not supported", k.Name)
		}
		kw[k.Name] = k.Value
	}
	f := Field{Name: name}
	if f.Type, err = fieldType(path, kw); err != nil {
		return Field{}, err
	}
	for _, k := range kws {
		switch k.Name {
		case "type", "title", "description", "default":
			continue
		}
		if slices.Contains(kindKeywords[f.Type], k.Name) {
			continue
		}
		if f.Type == FieldEnum {
			return Field{}, errAt(path, "keyword %q is not supported together with %q", k.Name, enumKeyword(kw))
		}
		return Field{}, errAt(path, "keyword %q is not supported for type %q", k.Name, jsonType(f.Type))
	}
	if f.Title, err = optString(path, kw, "title"); err != nil {
		return Field{}, err
	}
	if f.Description, err = optString(path, kw, "description"); err != nil {
		return Field{}, err
	}
	f.Default = kw["default"]
	switch f.Type {
	case FieldString:
		err = f.parseString(path, kw)
	case FieldNumber, FieldInteger:
		err = f.parseNumber(path, kw)
	case FieldEnum:
		err = f.parseEnum(path, kw)
	case FieldMultiSelect:
		err = f.parseMultiSelect(path, kw)
	}
	if err != nil {
		return Field{}, err
	}
	if f.Default != nil {
		if f.Default, err = f.check(path+".default", f.Default); err != nil {
			return Field{}, err
		}
	}
	return f, nil
}

// fieldType works out a property's kind from its "type" and, for strings,
// whether it lists values.
func fieldType(path string, kw map[string]json.RawMessage) (FieldType, error) {
	raw, ok := kw["type"]
	if !ok {
		return "", errAt(path, `keyword "type" is required`)
	}
	t, ok := stringValue(raw)
	if !ok {
		return "", errAt(path+".type", "must be a string")
	}
	switch t {
	case "string":
		_, hasEnum := kw["enum"]
		_, hasOneOf := kw["oneOf"]
		_, hasNames := kw["enumNames"]
		switch {
		case hasEnum && hasOneOf:
			return "", errAt(path, `keywords "enum" and "oneOf" cannot be combined`)
		case hasNames && !hasEnum:
			return "", errAt(path, `keyword "enumNames" requires "enum"`)
		case hasEnum || hasOneOf:
			return FieldEnum, nil
		}
		return FieldString, nil
	case "number":
		return FieldNumber, nil
	case "integer":
		return FieldInteger, nil
	case "boolean":
		return FieldBoolean, nil
	case "array":
		return FieldMultiSelect, nil
	case "object":
		return "", errAt(path+".type", "nested objects are not supported")
	default:
		return "", errAt(path+".type", "type %s is not supported", quoteShort(t))
	}
}

// jsonType returns the JSON Schema type of a kind of field.
func jsonType(t FieldType) string {
	switch t {
	case FieldEnum:
		return "string"
	case FieldMultiSelect:
		return "array"
	}
	return string(t)
}

func enumKeyword(kw map[string]json.RawMessage) string {
	if _, ok := kw["enum"]; ok {
		return "enum"
	}
	return "oneOf"
}
