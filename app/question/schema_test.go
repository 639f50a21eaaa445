package question

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func values(vs ...string) []EnumValue {
	out := make([]EnumValue, 0, len(vs))
	for _, v := range vs {
		out = append(out, EnumValue{Value: v, Title: v})
	}
	return out
}

// props wraps property definitions in a top-level requestedSchema.
func props(p string) string { return `{"type":"object","properties":{` + p + `}}` }

var validSchemaTests = []struct {
	name   string
	schema string
	want   FormSchema
}{
	{
		name:   "empty properties",
		schema: `{"type":"object","properties":{}}`,
		want:   FormSchema{Fields: []Field{}},
	},
	{
		name: "annotations and required",
		schema: `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","title":"Profile",
			"description":"About you","properties":{"b":{"type":"string"},"a":{"type":"boolean"}},"required":["a"]}`,
		want: FormSchema{Title: "Profile", Description: "About you", Fields: []Field{
			{Name: "b", Type: FieldString},
			{Name: "a", Type: FieldBoolean, Required: true},
		}},
	},
	{
		name: "string with everything",
		schema: props(`"name":{"type":"string","title":"Name","description":"Your name","minLength":2,"maxLength":10,
			"default":"\u0041da <b>"}`),
		want: FormSchema{Fields: []Field{{Name: "name", Title: "Name", Description: "Your name", Type: FieldString,
			MinLength: new(2), MaxLength: new(10), Default: json.RawMessage(`"Ada <b>"`)}}},
	},
	{
		name: "string formats",
		schema: props(`"e":{"type":"string","format":"email","default":"a@b.org"},"u":{"type":"string","format":"uri"},
			"d":{"type":"string","format":"date","default":"2024-02-29"},"t":{"type":"string","format":"date-time"}`),
		want: FormSchema{Fields: []Field{
			{Name: "e", Type: FieldString, Format: "email", Default: json.RawMessage(`"a@b.org"`)},
			{Name: "u", Type: FieldString, Format: "uri"},
			{Name: "d", Type: FieldString, Format: "date", Default: json.RawMessage(`"2024-02-29"`)},
			{Name: "t", Type: FieldString, Format: "date-time"},
		}},
	},
	{
		name:   "number keeps default text",
		schema: props(`"n":{"type":"number","minimum":-1.5,"maximum":1e3,"default":2.50}`),
		want: FormSchema{Fields: []Field{{Name: "n", Type: FieldNumber, Minimum: new(float64(-1.5)), Maximum: new(float64(1000)),
			Default: json.RawMessage(`2.50`)}}},
	},
	{
		name:   "integer with whole bounds written as fractions",
		schema: props(`"age":{"type":"integer","minimum":0.0,"maximum":1.2e2,"default":7}`),
		want: FormSchema{Fields: []Field{{Name: "age", Type: FieldInteger, Minimum: new(float64(0)), Maximum: new(float64(120)),
			Default: json.RawMessage(`7`)}}},
	},
	{
		name:   "boolean",
		schema: props(`"ok":{"type":"boolean","title":"OK?","default":true}`),
		want:   FormSchema{Fields: []Field{{Name: "ok", Title: "OK?", Type: FieldBoolean, Default: json.RawMessage(`true`)}}},
	},
	{
		name:   "untitled enum",
		schema: props(`"size":{"type":"string","enum":["S","M"],"default":"M"}`),
		want:   FormSchema{Fields: []Field{{Name: "size", Type: FieldEnum, Values: values("S", "M"), Default: json.RawMessage(`"M"`)}}},
	},
	{
		name:   "legacy enumNames",
		schema: props(`"size":{"type":"string","enum":["S","M"],"enumNames":["Small","Medium"]}`),
		want: FormSchema{Fields: []Field{{Name: "size", Type: FieldEnum,
			Values: []EnumValue{{Value: "S", Title: "Small"}, {Value: "M", Title: "Medium"}}}}},
	},
	{
		name:   "oneOf titles",
		schema: props(`"c":{"type":"string","oneOf":[{"const":"r","title":"Red"},{"title":"Green","const":"g"}],"default":"g"}`),
		want: FormSchema{Fields: []Field{{Name: "c", Type: FieldEnum,
			Values: []EnumValue{{Value: "r", Title: "Red"}, {Value: "g", Title: "Green"}}, Default: json.RawMessage(`"g"`)}}},
	},
	{
		name:   "multi-select enum items",
		schema: props(`"tags":{"type":"array","minItems":1,"maxItems":2,"items":{"type":"string","enum":["a","b","c"]},"default":["b"]}`),
		want: FormSchema{Fields: []Field{{Name: "tags", Type: FieldMultiSelect, MinItems: new(1), MaxItems: new(2),
			Values: values("a", "b", "c"), Default: json.RawMessage(`["b"]`)}}},
	},
	{
		name:   "multi-select anyOf items",
		schema: props(`"pets":{"type":"array","items":{"anyOf":[{"const":"cat","title":"Cat"},{"const":"dog","title":"Dog"}]},"default":[]}`),
		want: FormSchema{Fields: []Field{{Name: "pets", Type: FieldMultiSelect,
			Values: []EnumValue{{Value: "cat", Title: "Cat"}, {Value: "dog", Title: "Dog"}}, Default: json.RawMessage(`[]`)}}},
	},
	{
		name:   "escaped and non-ASCII names",
		schema: `{"type":"object","properties":{"n\u0061me":{"type":"string"},"名前":{"type":"string"},"first name":{"type":"string"}},"required":["name"]}`,
		want: FormSchema{Fields: []Field{
			{Name: "name", Type: FieldString, Required: true},
			{Name: "名前", Type: FieldString},
			{Name: "first name", Type: FieldString},
		}},
	},
	{
		name:   "limits reached exactly",
		schema: props(`"` + strings.Repeat("n", 64) + `":{"type":"string","enum":["` + strings.Repeat("v", 200) + `"],"enumNames":["` + strings.Repeat("é", 200) + `"]}`),
		want: FormSchema{Fields: []Field{{Name: strings.Repeat("n", 64), Type: FieldEnum,
			Values: []EnumValue{{Value: strings.Repeat("v", 200), Title: strings.Repeat("é", 200)}}}}},
	},
}

func TestParseSchemaValid(t *testing.T) {
	t.Parallel()
	for _, tt := range validSchemaTests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseSchema(json.RawMessage(tt.schema))
			if err != nil {
				t.Fatalf("ParseSchema: %v", err)
			}
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("ParseSchema =\n%s\nwant\n%s", dump(*got), dump(tt.want))
			}
			checkParsed(t, got)
		})
	}
}

func TestParseSchemaLimits(t *testing.T) {
	t.Parallel()
	if _, err := ParseSchema(json.RawMessage(props(manyProps(maxFields)))); err != nil {
		t.Errorf("%d properties: %v", maxFields, err)
	}
	if _, err := ParseSchema(json.RawMessage(props(`"e":{"type":"string","enum":` + manyValues(maxEnumValues) + `}`))); err != nil {
		t.Errorf("%d enum values: %v", maxEnumValues, err)
	}
	pad := strings.Repeat("x", maxSchemaBytes-len(`{"type":"object","properties":{},"description":""}`))
	if _, err := ParseSchema(json.RawMessage(`{"type":"object","properties":{},"description":"` + pad + `"}`)); err != nil {
		t.Errorf("%d bytes: %v", maxSchemaBytes, err)
	}
}

// manyProps returns n boolean property definitions.
func manyProps(n int) string {
	var p []string
	for i := range n {
		p = append(p, fmt.Sprintf(`"f%d":{"type":"boolean"}`, i))
	}
	return strings.Join(p, ",")
}

// manyValues returns a JSON array of n distinct strings.
func manyValues(n int) string {
	var vs []string
	for i := range n {
		vs = append(vs, fmt.Sprintf(`"v%d"`, i))
	}
	return "[" + strings.Join(vs, ",") + "]"
}

var invalidSchemaTests = []struct {
	name   string
	schema string
	want   string // a substring of the error
}{
	// The document.
	{"empty", ``, `requestedSchema: not valid JSON`},
	{"not JSON", `{"type":`, `requestedSchema: not valid JSON`},
	{"trailing data", `{"type":"object","properties":{}} {}`, `requestedSchema: not valid JSON`},
	{"not an object", `["type"]`, `requestedSchema: must be a JSON object`},
	{"null", `null`, `requestedSchema: must be a JSON object`},
	{"invalid UTF-8", "{\"type\":\"object\",\"title\":\"\xff\",\"properties\":{}}", `requestedSchema: not valid UTF-8`},
	{"too big", `{"type":"object","properties":{},"description":"` + strings.Repeat("x", maxSchemaBytes) + `"}`, `requestedSchema: 65586 bytes, at most 65536`},

	// Case-variant and duplicate keys: refused by name, never merged or last-wins.
	{"case-variant keyword", `{"type":"object","Type":"array","properties":{}}`, `requestedSchema: keyword "Type" is not supported`},
	{"duplicate keyword", `{"type":"object","properties":{"a":{"type":"string"}},"properties":{}}`, `requestedSchema: duplicate key "properties"`},
	{"escaped duplicate keyword", `{"type":"object","\u0074ype":"object","properties":{}}`, `requestedSchema: duplicate key "type"`},
	{"duplicate property", `{"type":"object","properties":{"n":{"type":"string"},"n":{"type":"number"}}}`, `requestedSchema.properties: duplicate key "n"`},
	{"case-variant field keyword", `{"type":"object","properties":{"n":{"type":"string","Type":"number"}}}`, `requestedSchema.properties.n: keyword "Type" is not supported`},

	// The top level.
	{"type missing", `{"properties":{}}`, `requestedSchema: keyword "type" is required`},
	{"type not object", `{"type":"array","properties":{}}`, `requestedSchema.type: must be "object"`},
	{"type list", `{"type":["object"],"properties":{}}`, `requestedSchema.type: must be "object"`},
	{"properties missing", `{"type":"object"}`, `requestedSchema: keyword "properties" is required`},
	{"properties not object", `{"type":"object","properties":[]}`, `requestedSchema.properties: must be a JSON object`},
	{"top additionalProperties", `{"type":"object","properties":{},"additionalProperties":false}`, `requestedSchema: keyword "additionalProperties" is not supported`},
	{"top $defs", `{"type":"object","properties":{},"$defs":{}}`, `requestedSchema: keyword "$defs" is not supported`},
	{"top case variant", `{"type":"object","properties":{},"Properties":{}}`, `requestedSchema: keyword "Properties" is not supported`},
	{"top title not string", `{"type":"object","properties":{},"title":1}`, `requestedSchema.title: must be a string`},
	{"top description not string", `{"type":"object","properties":{},"description":null}`, `requestedSchema.description: must be a string`},
	{"$schema not string", `{"$schema":1,"type":"object","properties":{}}`, `requestedSchema.$schema: must be a string`},
	{"top duplicate key", `{"type":"object","type":"object","properties":{}}`, `requestedSchema: duplicate key "type"`},

	// Property names.
	{"51 properties", props(manyProps(51)), `requestedSchema.properties: 51 properties, at most 50`},
	{"empty name", props(`"":{"type":"string"}`), `requestedSchema.properties: property name must not be empty`},
	{"long name", props(`"` + strings.Repeat("n", 65) + `":{"type":"string"}`), `is 65 characters, at most 64`},
	{"control character in name", props(`"a\u0007":{"type":"string"}`), `property name "a\a" contains a control character`},
	{"duplicate property", props(`"x":{"type":"string"},"x":{"type":"number"}`), `requestedSchema.properties: duplicate key "x"`},

	// Property structure.
	{"property not object", props(`"x":"string"`), `requestedSchema.properties.x: must be a JSON object`},
	{"duplicate keyword", props(`"x":{"type":"string","type":"number"}`), `requestedSchema.properties.x: duplicate key "type"`},
	{"duplicate keyword escaped", props(`"x":{"type":"string","t\u0079pe":"string"}`), `requestedSchema.properties.x: duplicate key "type"`},
	{"case variant keyword", props(`"x":{"type":"string","Type":"string"}`), `requestedSchema.properties.x: keyword "Type" is not supported`},
	{"case variant only", props(`"x":{"TYPE":"string"}`), `requestedSchema.properties.x: keyword "TYPE" is not supported`},
	{"escaped type in message", props(`"x":{"type":"\u0073tring","minimum":1}`), `keyword "minimum" is not supported for type "string"`},
	{"quoted path", props(`"a b":{"type":"string","pattern":"x"}`), `requestedSchema.properties["a b"]: keyword "pattern" is not supported`},
	{"type missing in property", props(`"x":{"title":"X"}`), `requestedSchema.properties.x: keyword "type" is required`},
	{"type list in property", props(`"x":{"type":["string","null"]}`), `requestedSchema.properties.x.type: must be a string`},
	{"nested object", props(`"x":{"type":"object"}`), `requestedSchema.properties.x.type: nested objects are not supported`},
	{"type null", props(`"x":{"type":"null"}`), `requestedSchema.properties.x.type: type "null" is not supported`},
	{"type case variant", props(`"x":{"type":"String"}`), `requestedSchema.properties.x.type: type "String" is not supported`},

	// Keywords outside the subset.
	{"pattern", props(`"x":{"type":"string","pattern":"^a"}`), `requestedSchema.properties.x: keyword "pattern" is not supported`},
	{"$ref", props(`"x":{"$ref":"#/$defs/y"}`), `requestedSchema.properties.x: keyword "$ref" is not supported`},
	{"exclusiveMinimum", props(`"age":{"type":"integer","exclusiveMinimum":0}`), `requestedSchema.properties.age: keyword "exclusiveMinimum" is not supported`},
	{"const", props(`"x":{"type":"string","const":"a"}`), `requestedSchema.properties.x: keyword "const" is not supported`},
	{"anyOf on string", props(`"x":{"type":"string","anyOf":[{"const":"a","title":"A"}]}`), `requestedSchema.properties.x: keyword "anyOf" is not supported`},
	{"nested properties", props(`"x":{"type":"string","properties":{}}`), `requestedSchema.properties.x: keyword "properties" is not supported`},
	{"additionalProperties", props(`"x":{"type":"string","additionalProperties":false}`), `requestedSchema.properties.x: keyword "additionalProperties" is not supported`},
	{"examples", props(`"x":{"type":"string","examples":["a"]}`), `requestedSchema.properties.x: keyword "examples" is not supported`},
	{"uniqueItems", props(`"x":{"type":"array","uniqueItems":true,"items":{"type":"string","enum":["a"]}}`), `keyword "uniqueItems" is not supported`},

	// Keywords of another kind.
	{"items on string", props(`"x":{"type":"string","items":{"type":"string","enum":["a"]}}`), `requestedSchema.properties.x: keyword "items" is not supported for type "string"`},
	{"oneOf on number", props(`"x":{"type":"number","oneOf":[{"const":"a","title":"A"}]}`), `requestedSchema.properties.x: keyword "oneOf" is not supported for type "number"`},
	{"enum on boolean", props(`"x":{"type":"boolean","enum":["true"]}`), `keyword "enum" is not supported for type "boolean"`},
	{"enum on integer", props(`"x":{"type":"integer","enum":[1]}`), `keyword "enum" is not supported for type "integer"`},
	{"minLength on number", props(`"x":{"type":"number","minLength":1}`), `keyword "minLength" is not supported for type "number"`},
	{"minimum on string", props(`"x":{"type":"string","minimum":1}`), `keyword "minimum" is not supported for type "string"`},
	{"format on integer", props(`"x":{"type":"integer","format":"date"}`), `keyword "format" is not supported for type "integer"`},
	{"minItems on string", props(`"x":{"type":"string","minItems":1}`), `keyword "minItems" is not supported for type "string"`},
	{"maxLength on array", props(`"x":{"type":"array","maxLength":1,"items":{"type":"string","enum":["a"]}}`), `keyword "maxLength" is not supported for type "array"`},
	{"minLength with enum", props(`"x":{"type":"string","enum":["a"],"minLength":1}`), `requestedSchema.properties.x: keyword "minLength" is not supported together with "enum"`},
	{"format with oneOf", props(`"x":{"type":"string","oneOf":[{"const":"a","title":"A"}],"format":"email"}`), `keyword "format" is not supported together with "oneOf"`},
	{"enum and oneOf", props(`"x":{"type":"string","enum":["a"],"oneOf":[{"const":"a","title":"A"}]}`), `keywords "enum" and "oneOf" cannot be combined`},
	{"enumNames alone", props(`"x":{"type":"string","enumNames":["A"]}`), `keyword "enumNames" requires "enum"`},
	{"enumNames with oneOf", props(`"x":{"type":"string","oneOf":[{"const":"a","title":"A"}],"enumNames":["A"]}`), `keyword "enumNames" requires "enum"`},

	// Keyword values.
	{"title not string", props(`"x":{"type":"string","title":1}`), `requestedSchema.properties.x.title: must be a string`},
	{"description not string", props(`"x":{"type":"string","description":["a"]}`), `requestedSchema.properties.x.description: must be a string`},
	{"minLength negative", props(`"name":{"type":"string","minLength":-1}`), `requestedSchema.properties.name.minLength: must be a non-negative integer`},
	{"minLength fraction", props(`"name":{"type":"string","minLength":1.5}`), `requestedSchema.properties.name.minLength: must be a non-negative integer`},
	{"minLength whole fraction", props(`"name":{"type":"string","minLength":1.0}`), `requestedSchema.properties.name.minLength: must be a non-negative integer`},
	{"minLength exponent", props(`"name":{"type":"string","minLength":1e2}`), `requestedSchema.properties.name.minLength: must be a non-negative integer`},
	{"minLength string", props(`"name":{"type":"string","minLength":"1"}`), `requestedSchema.properties.name.minLength: must be a non-negative integer`},
	{"maxLength huge", props(`"name":{"type":"string","maxLength":99999999999999999999}`), `requestedSchema.properties.name.maxLength: must be a non-negative integer`},
	{"maxLength below minLength", props(`"name":{"type":"string","minLength":5,"maxLength":2}`), `requestedSchema.properties.name.maxLength: 2 is less than minLength 5`},
	{"format unknown", props(`"x":{"type":"string","format":"ipv4"}`), `requestedSchema.properties.x.format: format "ipv4" is not supported`},
	{"format case variant", props(`"x":{"type":"string","format":"Email"}`), `requestedSchema.properties.x.format: format "Email" is not supported`},
	{"format not string", props(`"x":{"type":"string","format":1}`), `requestedSchema.properties.x.format: must be a string`},
	{"minimum not number", props(`"x":{"type":"number","minimum":"0"}`), `requestedSchema.properties.x.minimum: must be a number`},
	{"maximum out of range", props(`"x":{"type":"number","maximum":1e999}`), `requestedSchema.properties.x.maximum: 1e999 is out of range`},
	{"integer bound fraction", props(`"x":{"type":"integer","minimum":0.5}`), `requestedSchema.properties.x.minimum: must be a whole number for an integer field`},
	{"maximum below minimum", props(`"x":{"type":"number","minimum":2,"maximum":1.5}`), `requestedSchema.properties.x.maximum: 1.5 is below the minimum 2`},

	// Enums.
	{"enum empty", props(`"x":{"type":"string","enum":[]}`), `requestedSchema.properties.x.enum: must be a non-empty array`},
	{"enum not array", props(`"x":{"type":"string","enum":"a"}`), `requestedSchema.properties.x.enum: must be a non-empty array`},
	{"enum number", props(`"x":{"type":"string","enum":["a",1]}`), `requestedSchema.properties.x.enum[1]: must be a string`},
	{"enum empty value", props(`"x":{"type":"string","enum":[""]}`), `requestedSchema.properties.x.enum[0]: must not be empty`},
	{"enum duplicate", props(`"x":{"type":"string","enum":["a","b","a"]}`), `requestedSchema.properties.x.enum[2]: duplicate value "a"`},
	{"enum 101 values", props(`"x":{"type":"string","enum":` + manyValues(101) + `}`), `requestedSchema.properties.x.enum: 101 values, at most 100`},
	{"enum long value", props(`"x":{"type":"string","enum":["` + strings.Repeat("é", 201) + `"]}`), `requestedSchema.properties.x.enum[0]: 201 characters, at most 200`},
	{"enumNames count", props(`"x":{"type":"string","enum":["a","b"],"enumNames":["A"]}`), `requestedSchema.properties.x.enumNames: 1 names for 2 values`},
	{"enumNames not array", props(`"x":{"type":"string","enum":["a"],"enumNames":"A"}`), `requestedSchema.properties.x.enumNames: must be an array of strings`},
	{"enumNames number", props(`"x":{"type":"string","enum":["a"],"enumNames":[1]}`), `requestedSchema.properties.x.enumNames[0]: must be a string`},
	{"enumNames long", props(`"x":{"type":"string","enum":["a"],"enumNames":["` + strings.Repeat("n", 201) + `"]}`), `requestedSchema.properties.x.enumNames[0]: 201 characters, at most 200`},
	{"oneOf empty", props(`"x":{"type":"string","oneOf":[]}`), `requestedSchema.properties.x.oneOf: must be a non-empty array`},
	{"oneOf entry not object", props(`"x":{"type":"string","oneOf":["a"]}`), `requestedSchema.properties.x.oneOf[0]: must be a JSON object`},
	{"oneOf without title", props(`"x":{"type":"string","oneOf":[{"const":"a"}]}`), `requestedSchema.properties.x.oneOf[0]: keyword "title" is required`},
	{"oneOf without const", props(`"x":{"type":"string","oneOf":[{"title":"A"}]}`), `requestedSchema.properties.x.oneOf[0]: keyword "const" is required`},
	{"oneOf extra keyword", props(`"x":{"type":"string","oneOf":[{"const":"a","title":"A","description":"d"}]}`), `requestedSchema.properties.x.oneOf[0]: keyword "description" is not supported`},
	{"oneOf const number", props(`"x":{"type":"string","oneOf":[{"const":1,"title":"A"}]}`), `requestedSchema.properties.x.oneOf[0].const: must be a string`},
	{"oneOf empty title", props(`"x":{"type":"string","oneOf":[{"const":"a","title":""}]}`), `requestedSchema.properties.x.oneOf[0].title: must not be empty`},
	{"oneOf duplicate const", props(`"x":{"type":"string","oneOf":[{"const":"a","title":"A"},{"const":"a","title":"B"}]}`), `requestedSchema.properties.x.oneOf[1].const: duplicate value "a"`},
	{"oneOf duplicate key", props(`"x":{"type":"string","oneOf":[{"const":"a","title":"A","const":"b"}]}`), `requestedSchema.properties.x.oneOf[0]: duplicate key "const"`},
	{"oneOf 101 values", props(`"x":{"type":"string","oneOf":[` + strings.Repeat(`{"const":"a","title":"A"},`, 100) + `{"const":"a","title":"A"}]}`), `requestedSchema.properties.x.oneOf: 101 values, at most 100`},

	// Multi-select.
	{"items missing", props(`"x":{"type":"array"}`), `requestedSchema.properties.x: keyword "items" is required`},
	{"items not object", props(`"x":{"type":"array","items":[]}`), `requestedSchema.properties.x.items: must be a JSON object`},
	{"items number type", props(`"x":{"type":"array","items":{"type":"number","enum":["a"]}}`), `requestedSchema.properties.x.items.type: must be "string"`},
	{"items without type", props(`"x":{"type":"array","items":{"enum":["a"]}}`), `requestedSchema.properties.x.items: keyword "type" is required`},
	{"items without values", props(`"x":{"type":"array","items":{"type":"string"}}`), `requestedSchema.properties.x.items: keyword "enum" or "anyOf" is required`},
	{"items enum and anyOf", props(`"x":{"type":"array","items":{"enum":["a"],"anyOf":[{"const":"a","title":"A"}]}}`), `requestedSchema.properties.x.items: keywords "enum" and "anyOf" cannot be combined`},
	{"items anyOf with type", props(`"x":{"type":"array","items":{"type":"string","anyOf":[{"const":"a","title":"A"}]}}`), `requestedSchema.properties.x.items: keyword "type" is not supported together with "anyOf"`},
	{"items extra keyword", props(`"x":{"type":"array","items":{"type":"string","enum":["a"],"minLength":1}}`), `requestedSchema.properties.x.items: keyword "minLength" is not supported`},
	{"items oneOf", props(`"x":{"type":"array","items":{"oneOf":[{"const":"a","title":"A"}]}}`), `requestedSchema.properties.x.items: keyword "oneOf" is not supported`},
	{"items duplicate key", props(`"x":{"type":"array","items":{"type":"string","enum":["a"],"enum":["b"]}}`), `requestedSchema.properties.x.items: duplicate key "enum"`},
	{"items enum duplicate", props(`"x":{"type":"array","items":{"type":"string","enum":["a","a"]}}`), `requestedSchema.properties.x.items.enum[1]: duplicate value "a"`},
	{"items anyOf without title", props(`"x":{"type":"array","items":{"anyOf":[{"const":"a"}]}}`), `requestedSchema.properties.x.items.anyOf[0]: keyword "title" is required`},
	{"items 101 values", props(`"x":{"type":"array","items":{"type":"string","enum":` + manyValues(101) + `}}`), `requestedSchema.properties.x.items.enum: 101 values, at most 100`},
	{"minItems negative", props(`"x":{"type":"array","minItems":-1,"items":{"type":"string","enum":["a"]}}`), `requestedSchema.properties.x.minItems: must be a non-negative integer`},
	{"maxItems below minItems", props(`"x":{"type":"array","minItems":2,"maxItems":1,"items":{"type":"string","enum":["a","b"]}}`), `requestedSchema.properties.x.maxItems: 1 is less than minItems 2`},
	{"minItems above values", props(`"x":{"type":"array","minItems":3,"items":{"type":"string","enum":["a","b"]}}`), `requestedSchema.properties.x.minItems: 3 is more than the 2 values`},

	// Defaults.
	{"string default number", props(`"x":{"type":"string","default":1}`), `requestedSchema.properties.x.default: must be a string`},
	{"string default null", props(`"x":{"type":"string","default":null}`), `requestedSchema.properties.x.default: must be a string`},
	{"string default short", props(`"x":{"type":"string","minLength":3,"default":"ab"}`), `requestedSchema.properties.x.default: 2 characters, at least 3`},
	{"string default email", props(`"x":{"type":"string","format":"email","default":"nope"}`), `requestedSchema.properties.x.default: "nope" is not an email address`},
	{"enum default", props(`"x":{"type":"string","enum":["a"],"default":"b"}`), `requestedSchema.properties.x.default: "b" is not one of the allowed values`},
	{"enum default is a title", props(`"x":{"type":"string","oneOf":[{"const":"a","title":"A"}],"default":"A"}`), `requestedSchema.properties.x.default: "A" is not one of the allowed values`},
	{"integer default fraction", props(`"x":{"type":"integer","default":1.0}`), `requestedSchema.properties.x.default: must be an integer`},
	{"number default above", props(`"x":{"type":"number","maximum":1,"default":1.5}`), `requestedSchema.properties.x.default: 1.5 is above the maximum 1`},
	{"boolean default string", props(`"x":{"type":"boolean","default":"true"}`), `requestedSchema.properties.x.default: must be true or false`},
	{"multi default string", props(`"x":{"type":"array","items":{"type":"string","enum":["a"]},"default":"a"}`), `requestedSchema.properties.x.default: must be an array of strings`},
	{"multi default unknown", props(`"x":{"type":"array","items":{"type":"string","enum":["a"]},"default":["b"]}`), `requestedSchema.properties.x.default[0]: "b" is not one of the allowed values`},
	{"multi default duplicate", props(`"x":{"type":"array","items":{"type":"string","enum":["a"]},"default":["a","a"]}`), `requestedSchema.properties.x.default[1]: duplicate value "a"`},
	{"multi default too many", props(`"x":{"type":"array","maxItems":1,"items":{"type":"string","enum":["a","b"]},"default":["a","b"]}`), `requestedSchema.properties.x.default: 2 items, at most 1`},

	// Required.
	{"required not array", `{"type":"object","properties":{"a":{"type":"string"}},"required":"a"}`, `requestedSchema.required: must be an array of strings`},
	{"required number", `{"type":"object","properties":{"a":{"type":"string"}},"required":[1]}`, `requestedSchema.required[0]: must be a string`},
	{"required duplicate", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","a"]}`, `requestedSchema.required[1]: duplicate "a"`},
	{"required unknown", `{"type":"object","properties":{"a":{"type":"string"}},"required":["b"]}`, `requestedSchema.required[0]: "b" is not a property`},
	{"required case variant", `{"type":"object","properties":{"a":{"type":"string"}},"required":["A"]}`, `requestedSchema.required[0]: "A" is not a property`},
}

func TestParseSchemaInvalid(t *testing.T) {
	t.Parallel()
	for _, tt := range invalidSchemaTests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := ParseSchema(json.RawMessage(tt.schema))
			if err == nil {
				t.Fatalf("ParseSchema succeeded: %s", dump(s))
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseSchema error %q, want it to contain %q", err, tt.want)
			}
			var fe *FieldError
			if !errors.As(err, &fe) || !strings.HasPrefix(fe.Field, "requestedSchema") {
				t.Errorf("ParseSchema error %#v is not a *FieldError naming a requestedSchema path", err)
			}
		})
	}
}

// richSchema has one field of every kind.
const richSchema = `{
	"$schema": "https://json-schema.org/draft/2020-12/schema",
	"type": "object",
	"title": "Profile",
	"properties": {
		"name":  {"type": "string", "title": "Name", "minLength": 2, "maxLength": 10},
		"email": {"type": "string", "format": "email"},
		"site":  {"type": "string", "format": "uri"},
		"born":  {"type": "string", "format": "date"},
		"when":  {"type": "string", "format": "date-time"},
		"age":   {"type": "integer", "minimum": 0, "maximum": 120},
		"score": {"type": "number", "minimum": -1.5, "maximum": 1e3},
		"ok":    {"type": "boolean", "default": false},
		"size":  {"type": "string", "enum": ["S", "M", "L"], "enumNames": ["Small", "Medium", "Large"]},
		"color": {"type": "string", "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]},
		"tags":  {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string", "enum": ["a", "b", "c"]}},
		"pets":  {"type": "array", "items": {"anyOf": [{"const": "cat", "title": "Cat"}, {"const": "dog", "title": "Dog"}]}},
		"名前":   {"type": "string"},
		"big":   {"type": "integer", "minimum": -9007199254740993, "maximum": 9223372036854775807}
	},
	"required": ["name", "age"]
}`

var contentTests = []struct {
	name    string
	schema  string // richSchema when empty
	content string
	want    string // canonical output, or a substring of the error when wantErr
	wantErr bool
}{
	// Structure.
	{name: "minimal", content: `{"name":"Bo","age":30}`, want: `{"name":"Bo","age":30}`},
	{name: "schema order and compact", content: ` { "age" : 30 ,
		"ok" : true, "name" : "Bo" } `, want: `{"name":"Bo","age":30,"ok":true}`},
	{name: "everything", content: `{"pets":["dog","cat"],"tags":["c","a"],"color":"g","size":"L","ok":false,"score":-1.5,"age":0,
		"when":"2024-01-02T03:04:05+01:00","born":"2024-02-29","site":"https://example.com/a?b=c","email":"bo@example.org","name":"Bo","名前":"ボ"}`,
		want: `{"name":"Bo","email":"bo@example.org","site":"https://example.com/a?b=c","born":"2024-02-29","when":"2024-01-02T03:04:05+01:00","age":0,"score":-1.5,"ok":false,"size":"L","color":"g","tags":["c","a"],"pets":["dog","cat"],"名前":"ボ"}`},
	{name: "string escapes canonicalised", content: `{"name":"\u0041<b>\/","age":1}`, want: `{"name":"A<b>/","age":1}`},
	{name: "null optional is absent", content: `{"name":"Bo","age":1,"email":null,"tags":null}`, want: `{"name":"Bo","age":1}`},
	{name: "duplicate field", content: `{"name":"Bo","age":1,"name":"Al"}`, want: `content: duplicate key "name"`, wantErr: true},
	{name: "case-variant field", content: `{"name":"Bo","age":1,"Name":"Al"}`, want: `content.Name: not in the schema`, wantErr: true},
	{name: "null required", content: `{"name":null,"age":1}`, want: `content.name: required`, wantErr: true},
	{name: "missing required", content: `{"name":"Bo"}`, want: `content.age: required`, wantErr: true},
	{name: "empty object", content: `{}`, want: `content.name: required`, wantErr: true},
	{name: "null content", content: `null`, want: `content.name: required`, wantErr: true},
	{name: "empty content no required", schema: props(`"a":{"type":"string"}`), content: ``, want: `{}`},
	{name: "null content no required", schema: props(`"a":{"type":"string"}`), content: `null`, want: `{}`},
	{name: "extra key", content: `{"name":"Bo","age":1,"extra":1}`, want: `content.extra: not in the schema`, wantErr: true},
	{name: "case variant key", content: `{"Name":"Bo","age":1}`, want: `content.Name: not in the schema`, wantErr: true},
	{name: "duplicate key", content: `{"name":"Bo","age":1,"name":"Al"}`, want: `content: duplicate key "name"`, wantErr: true},
	{name: "duplicate key escaped", content: `{"name":"Bo","age":1,"n\u0061me":"Al"}`, want: `content: duplicate key "name"`, wantErr: true},
	{name: "not an object", content: `["Bo"]`, want: `content: must be a JSON object`, wantErr: true},
	{name: "not JSON", content: `{"name":`, want: `content: not valid JSON`, wantErr: true},
	{name: "invalid UTF-8", content: "{\"name\":\"B\xff\",\"age\":1}", want: `content: not valid UTF-8`, wantErr: true},
	{name: "non-ASCII name", content: `{"name":"Bo","age":1,"名前":1}`, want: `content.名前: must be a string`, wantErr: true},
	{name: "quoted path", schema: props(`"first name":{"type":"string","minLength":1}`), content: `{"first name":""}`, want: `content["first name"]: 0 characters, at least 1`, wantErr: true},

	// Strings.
	{name: "string not string", content: `{"name":12,"age":1}`, want: `content.name: must be a string`, wantErr: true},
	{name: "string too short", content: `{"name":"B","age":1}`, want: `content.name: 1 character, at least 2`, wantErr: true},
	{name: "string too long in runes", content: `{"name":"ééééééééééé","age":1}`, want: `content.name: 11 characters, at most 10`, wantErr: true},
	{name: "string runes not bytes", content: `{"name":"éééééééééé","age":1}`, want: `{"name":"éééééééééé","age":1}`},
	{name: "email bare", content: `{"name":"Bo","age":1,"email":"x"}`, want: `content.email: "x" is not an email address`, wantErr: true},
	{name: "email display name", content: `{"name":"Bo","age":1,"email":"Bo <bo@example.org>"}`, want: `content.email: "Bo <bo@example.org>" is not an email address`, wantErr: true},
	{name: "email angle brackets", content: `{"name":"Bo","age":1,"email":"<bo@example.org>"}`, want: `is not an email address`, wantErr: true},
	{name: "uri relative", content: `{"name":"Bo","age":1,"site":"example.com/a"}`, want: `content.site: "example.com/a" is not an absolute URI`, wantErr: true},
	{name: "uri mailto", content: `{"name":"Bo","age":1,"site":"mailto:bo@example.org"}`, want: `{"name":"Bo","site":"mailto:bo@example.org","age":1}`},
	{name: "date impossible", content: `{"name":"Bo","age":1,"born":"2023-02-29"}`, want: `content.born: "2023-02-29" is not a date (YYYY-MM-DD)`, wantErr: true},
	{name: "date with time", content: `{"name":"Bo","age":1,"born":"2024-02-29T00:00:00Z"}`, want: `is not a date`, wantErr: true},
	{name: "date-time without zone", content: `{"name":"Bo","age":1,"when":"2024-01-02T03:04:05"}`, want: `content.when: "2024-01-02T03:04:05" is not a date-time (RFC 3339)`, wantErr: true},
	{name: "date-time UTC", content: `{"name":"Bo","age":1,"when":"2024-01-02T03:04:05.5Z"}`, want: `{"name":"Bo","when":"2024-01-02T03:04:05.5Z","age":1}`},

	// Integers and numbers.
	{name: "integer above", content: `{"name":"Bo","age":130}`, want: `content.age: 130 is above the maximum 120`, wantErr: true},
	{name: "integer below", content: `{"name":"Bo","age":-1}`, want: `content.age: -1 is below the minimum 0`, wantErr: true},
	{name: "integer fraction", content: `{"name":"Bo","age":1.0}`, want: `content.age: must be an integer`, wantErr: true},
	{name: "integer exponent", content: `{"name":"Bo","age":1e1}`, want: `content.age: must be an integer`, wantErr: true},
	{name: "integer string", content: `{"name":"Bo","age":"30"}`, want: `content.age: must be an integer`, wantErr: true},
	{name: "integer bool", content: `{"name":"Bo","age":true}`, want: `content.age: must be an integer`, wantErr: true},
	{name: "integer out of range", content: `{"name":"Bo","age":1,"big":9223372036854775808}`, want: `content.big: 9223372036854775808 is out of range for an integer`, wantErr: true},
	{name: "integer at int64 max", content: `{"name":"Bo","age":1,"big":9223372036854775807}`, want: `{"name":"Bo","age":1,"big":9223372036854775807}`},
	{name: "integer exact minimum", content: `{"name":"Bo","age":1,"big":-9007199254740992}`, want: `{"name":"Bo","age":1,"big":-9007199254740992}`},
	{name: "integer below exact minimum", content: `{"name":"Bo","age":1,"big":-9007199254740994}`, want: `content.big: -9007199254740994 is below the minimum -9007199254740992`, wantErr: true},
	{name: "integer minus zero kept", content: `{"name":"Bo","age":-0}`, want: `{"name":"Bo","age":-0}`},
	{name: "number text kept", content: `{"name":"Bo","age":1,"score":2.50}`, want: `{"name":"Bo","age":1,"score":2.50}`},
	{name: "number exponent kept", content: `{"name":"Bo","age":1,"score":1E3}`, want: `{"name":"Bo","age":1,"score":1E3}`},
	{name: "number whole", content: `{"name":"Bo","age":1,"score":7}`, want: `{"name":"Bo","age":1,"score":7}`},
	{name: "number above", content: `{"name":"Bo","age":1,"score":1000.5}`, want: `content.score: 1000.5 is above the maximum 1000`, wantErr: true},
	{name: "number below", content: `{"name":"Bo","age":1,"score":-2}`, want: `content.score: -2 is below the minimum -1.5`, wantErr: true},
	{name: "number out of range", schema: props(`"n":{"type":"number"}`), content: `{"n":1e400}`, want: `content.n: 1e400 is out of range`, wantErr: true},
	{name: "number string", content: `{"name":"Bo","age":1,"score":"1"}`, want: `content.score: must be a number`, wantErr: true},

	// Booleans.
	{name: "boolean true", content: `{"name":"Bo","age":1,"ok":true}`, want: `{"name":"Bo","age":1,"ok":true}`},
	{name: "boolean string", content: `{"name":"Bo","age":1,"ok":"true"}`, want: `content.ok: must be true or false`, wantErr: true},
	{name: "boolean number", content: `{"name":"Bo","age":1,"ok":1}`, want: `content.ok: must be true or false`, wantErr: true},

	// Single select.
	{name: "enum value", content: `{"name":"Bo","age":1,"size":"M"}`, want: `{"name":"Bo","age":1,"size":"M"}`},
	{name: "enum unknown", content: `{"name":"Bo","age":1,"size":"XL"}`, want: `content.size: "XL" is not one of the allowed values`, wantErr: true},
	{name: "enum title is not a value", content: `{"name":"Bo","age":1,"size":"Small"}`, want: `content.size: "Small" is not one of the allowed values`, wantErr: true},
	{name: "enum case variant", content: `{"name":"Bo","age":1,"size":"m"}`, want: `content.size: "m" is not one of the allowed values`, wantErr: true},
	{name: "enum not string", content: `{"name":"Bo","age":1,"size":["M"]}`, want: `content.size: must be a string`, wantErr: true},
	{name: "oneOf const", content: `{"name":"Bo","age":1,"color":"r"}`, want: `{"name":"Bo","age":1,"color":"r"}`},
	{name: "oneOf title", content: `{"name":"Bo","age":1,"color":"Red"}`, want: `content.color: "Red" is not one of the allowed values`, wantErr: true},

	// Multi select.
	{name: "multi order kept", content: `{"name":"Bo","age":1,"tags":["b","a"]}`, want: `{"name":"Bo","age":1,"tags":["b","a"]}`},
	{name: "multi too few", content: `{"name":"Bo","age":1,"tags":[]}`, want: `content.tags: 0 items, at least 1`, wantErr: true},
	{name: "multi too many", content: `{"name":"Bo","age":1,"tags":["a","b","c"]}`, want: `content.tags: 3 items, at most 2`, wantErr: true},
	{name: "multi duplicate", content: `{"name":"Bo","age":1,"tags":["a","a"]}`, want: `content.tags[1]: duplicate value "a"`, wantErr: true},
	{name: "multi unknown", content: `{"name":"Bo","age":1,"tags":["z"]}`, want: `content.tags[0]: "z" is not one of the allowed values`, wantErr: true},
	{name: "multi not string", content: `{"name":"Bo","age":1,"tags":[1]}`, want: `content.tags[0]: must be a string`, wantErr: true},
	{name: "multi single string", content: `{"name":"Bo","age":1,"tags":"a"}`, want: `content.tags: must be an array of strings`, wantErr: true},
	{name: "multi anyOf empty allowed", content: `{"name":"Bo","age":1,"pets":[]}`, want: `{"name":"Bo","age":1,"pets":[]}`},
	{name: "multi anyOf title", content: `{"name":"Bo","age":1,"pets":["Cat"]}`, want: `content.pets[0]: "Cat" is not one of the allowed values`, wantErr: true},
}

func TestValidateContent(t *testing.T) {
	t.Parallel()
	for _, tt := range contentTests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			schema := tt.schema
			if schema == "" {
				schema = richSchema
			}
			s, err := ParseSchema(json.RawMessage(schema))
			if err != nil {
				t.Fatalf("ParseSchema: %v", err)
			}
			got, err := s.ValidateContent(json.RawMessage(tt.content))
			if tt.wantErr {
				if err == nil {
					t.Fatalf("ValidateContent = %s, want an error containing %q", got, tt.want)
				}
				if !strings.Contains(err.Error(), tt.want) {
					t.Errorf("ValidateContent error %q, want it to contain %q", err, tt.want)
				}
				var fe *FieldError
				if !errors.As(err, &fe) || !strings.HasPrefix(fe.Field, "content") {
					t.Errorf("ValidateContent error %#v is not a *FieldError naming a content path", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ValidateContent: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("ValidateContent =\n%s\nwant\n%s", got, tt.want)
			}
			again, err := s.ValidateContent(got)
			if err != nil || !bytes.Equal(again, got) {
				t.Errorf("ValidateContent(%s) = %s, %v; want it unchanged", got, again, err)
			}
		})
	}
}

func TestFormSchemaField(t *testing.T) {
	t.Parallel()
	s, err := ParseSchema(json.RawMessage(richSchema))
	if err != nil {
		t.Fatal(err)
	}
	f, ok := s.Field("age")
	if !ok || f.Type != FieldInteger || !f.Required || *f.Maximum != 120 {
		t.Errorf("Field(age) = %+v, %v", f, ok)
	}
	if _, ok := s.Field("Age"); ok {
		t.Error(`Field("Age") found a field; names are case-sensitive`)
	}
	if f, ok := s.Field("ok"); !ok || string(f.Default) != "false" {
		t.Errorf("Field(ok) = %+v, %v", f, ok)
	}
}

func TestDecodeObjectStrict(t *testing.T) {
	t.Parallel()
	got, err := decodeObjectStrict(json.RawMessage(` {"b": [1, 2], "a": {"x": 1, "x": 2}, "B": null} `))
	if err != nil {
		t.Fatal(err)
	}
	want := []Member{{"b", json.RawMessage(`[1, 2]`)}, {"a", json.RawMessage(`{"x": 1, "x": 2}`)}, {"B", json.RawMessage(`null`)}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decodeObjectStrict = %q, want %q", got, want)
	}
	for raw, want := range map[string]string{
		`{"a":1,"a":1}`:       `duplicate key "a"`,
		`{"a":1,"\u0061":1}`:  `duplicate key "a"`,
		`{"a":1}{"b":2}`:      `not valid JSON`,
		`{"a":1,}`:            `not valid JSON`,
		`"a"`:                 `must be a JSON object`,
		``:                    `not valid JSON`,
		"{\"\xc3\":1}":        `not valid UTF-8`,
		`{"a":1,"b":{"a":1}}`: ``,
	} {
		_, err := decodeObjectStrict(json.RawMessage(raw))
		if (err == nil) != (want == "") || err != nil && err.Error() != want {
			t.Errorf("decodeObjectStrict(%q) error = %v, want %q", raw, err, want)
		}
	}
}

// TestDecodeObject checks what callers outside the package branch on: the
// duplicated key as a value, the two sentinel errors, and that invalid UTF-8
// is left to the caller (the MCP tools' arguments keep encoding/json's reading).
func TestDecodeObject(t *testing.T) {
	t.Parallel()
	_, err := DecodeObject(json.RawMessage(`{"question":"a","\u0071uestion":"b"}`))
	if dup, ok := errors.AsType[*DuplicateKeyError](err); !ok || dup.Key != "question" {
		t.Errorf("duplicate: error %v, want a *DuplicateKeyError for question", err)
	}
	if _, err := DecodeObject(json.RawMessage(`{"a":1`)); !errors.Is(err, ErrNotJSON) {
		t.Errorf("truncated: error %v, want ErrNotJSON", err)
	}
	if _, err := DecodeObject(json.RawMessage(`[1]`)); !errors.Is(err, ErrNotObject) {
		t.Errorf("array: error %v, want ErrNotObject", err)
	}
	got, err := DecodeObject(json.RawMessage("{\"a\":\"\xff\"}"))
	if err != nil || len(got) != 1 || string(got[0].Value) != "\"\xff\"" {
		t.Errorf("invalid UTF-8: %q, %v; want the member as sent", got, err)
	}
}

func FuzzParseSchema(f *testing.F) {
	for _, tt := range validSchemaTests {
		f.Add([]byte(tt.schema))
	}
	for _, tt := range invalidSchemaTests {
		if len(tt.schema) < 4096 {
			f.Add([]byte(tt.schema))
		}
	}
	f.Add([]byte(richSchema))
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, err := ParseSchema(raw)
		if err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) || !strings.HasPrefix(fe.Field, "requestedSchema") || fe.Msg == "" {
				t.Fatalf("error %#v is not a *FieldError naming a requestedSchema path", err)
			}
			return
		}
		checkParsed(t, s)
		again := marshalSchema(s)
		if len(again) > maxSchemaBytes {
			return // re-encoding can grow a schema near the limit, e.g. by escaping U+2028
		}
		s2, err := ParseSchema(again)
		if err != nil {
			t.Fatalf("re-encoded schema %s does not parse: %v", again, err)
		}
		if !reflect.DeepEqual(s, s2) {
			t.Fatalf("round trip changed the schema:\n%s\n%s", dump(s), dump(s2))
		}
	})
}

func FuzzValidateContent(f *testing.F) {
	for _, tt := range contentTests {
		if tt.schema == "" {
			f.Add([]byte(tt.content))
		}
	}
	s, err := ParseSchema(json.RawMessage(richSchema))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		got, err := s.ValidateContent(content)
		if err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) || !strings.HasPrefix(fe.Field, "content") || fe.Msg == "" {
				t.Fatalf("error %#v is not a *FieldError naming a content path", err)
			}
			return
		}
		if !json.Valid(got) {
			t.Fatalf("ValidateContent(%q) = %q, not valid JSON", content, got)
		}
		again, err := s.ValidateContent(got)
		if err != nil {
			t.Fatalf("ValidateContent(%s) failed on its own output: %v", got, err)
		}
		if !bytes.Equal(again, got) {
			t.Fatalf("ValidateContent not idempotent:\n%s\n%s", got, again)
		}
	})
}

// checkParsed checks that a parsed schema's field list is consistent.
func checkParsed(t *testing.T, s *FormSchema) {
	t.Helper()
	if len(s.Fields) > maxFields {
		t.Fatalf("%d fields", len(s.Fields))
	}
	defaults := []byte{'{'}
	for i, f := range s.Fields {
		if g, ok := s.Field(f.Name); !ok || !reflect.DeepEqual(g, f) {
			t.Fatalf("Field(%q) = %+v, %v; want fields[%d] %+v", f.Name, g, ok, i, f)
		}
		if slices.ContainsFunc(s.Fields[:i], func(g Field) bool { return g.Name == f.Name }) {
			t.Fatalf("field %q appears twice", f.Name)
		}
		checkParsedField(t, f)
		if f.Default != nil {
			if len(defaults) > 1 {
				defaults = append(defaults, ',')
			}
			defaults = append(append(appendString(defaults, f.Name), ':'), f.Default...)
		}
	}
	defaults = append(defaults, '}')
	got, err := s.ValidateContent(defaults)
	var fe *FieldError
	switch {
	case err != nil && (!errors.As(err, &fe) || fe.Msg != "required"):
		t.Fatalf("the defaults %s do not validate: %v", defaults, err)
	case err == nil && !bytes.Equal(got, defaults):
		t.Fatalf("the defaults %s are not canonical: %s", defaults, got)
	}
}

// checkParsedField checks that f carries only what its type allows.
func checkParsedField(t *testing.T, f Field) {
	t.Helper()
	hasValues := f.Type == FieldEnum || f.Type == FieldMultiSelect
	if hasValues != (len(f.Values) > 0) || len(f.Values) > maxEnumValues {
		t.Fatalf("field %q of type %s has %d values", f.Name, f.Type, len(f.Values))
	}
	if slices.ContainsFunc(f.Values, func(v EnumValue) bool { return v.Value == "" || v.Title == "" }) {
		t.Fatalf("field %q has an empty value or title: %+v", f.Name, f.Values)
	}
	stringy := f.Format != "" || f.MinLength != nil || f.MaxLength != nil
	numeric := f.Minimum != nil || f.Maximum != nil
	items := f.MinItems != nil || f.MaxItems != nil
	if stringy && f.Type != FieldString || numeric && f.Type != FieldNumber && f.Type != FieldInteger || items && f.Type != FieldMultiSelect {
		t.Fatalf("field %q of type %s has constraints of another type: %+v", f.Name, f.Type, f)
	}
}

// marshalSchema encodes s as an MCP requestedSchema.
func marshalSchema(s *FormSchema) []byte {
	b := []byte(`{"type":"object"`)
	b = appendKeyString(b, "title", s.Title)
	b = appendKeyString(b, "description", s.Description)
	b = append(b, `,"properties":{`...)
	var required []string
	for i, f := range s.Fields {
		if i > 0 {
			b = append(b, ',')
		}
		if f.Required {
			required = append(required, f.Name)
		}
		b = append(appendString(b, f.Name), ':')
		b = marshalField(b, f)
	}
	b = append(b, '}')
	if required != nil {
		b = append(b, `,"required":`...)
		b = appendStrings(b, required)
	}
	return append(b, '}')
}

// marshalField appends f as an MCP property definition.
func marshalField(b []byte, f Field) []byte {
	count := func(key string, v *int) {
		if v != nil {
			b = append(b, fmt.Sprintf(`,"%s":%d`, key, *v)...)
		}
	}
	num := func(key string, v *float64) {
		if v != nil {
			b = append(b, `,"`+key+`":`+formatFloat(*v)...)
		}
	}
	b = append(b, `{"type":"`+jsonType(f.Type)+`"`...)
	b = appendKeyString(b, "title", f.Title)
	b = appendKeyString(b, "description", f.Description)
	count("minLength", f.MinLength)
	count("maxLength", f.MaxLength)
	b = appendKeyString(b, "format", f.Format)
	num("minimum", f.Minimum)
	num("maximum", f.Maximum)
	count("minItems", f.MinItems)
	count("maxItems", f.MaxItems)
	titled := slices.ContainsFunc(f.Values, func(v EnumValue) bool { return v.Title != v.Value })
	var names []string
	for _, v := range f.Values {
		names = append(names, v.Value)
	}
	switch {
	case f.Type == FieldEnum && titled:
		b = appendConsts(append(b, `,"oneOf":`...), f.Values)
	case f.Type == FieldEnum:
		b = appendStrings(append(b, `,"enum":`...), names)
	case f.Type == FieldMultiSelect && titled:
		b = append(appendConsts(append(b, `,"items":{"anyOf":`...), f.Values), '}')
	case f.Type == FieldMultiSelect:
		b = append(appendStrings(append(b, `,"items":{"type":"string","enum":`...), names), '}')
	}
	if f.Default != nil {
		b = append(append(b, `,"default":`...), f.Default...)
	}
	return append(b, '}')
}

func appendKeyString(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	return appendString(append(b, `,"`+key+`":`...), v)
}

func appendStrings(b []byte, vs []string) []byte {
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, v)
	}
	return append(b, ']')
}

func appendConsts(b []byte, vs []EnumValue) []byte {
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(append(b, `{"const":`...), v.Value)
		b = append(appendString(append(b, `,"title":`...), v.Title), '}')
	}
	return append(b, ']')
}

func dump(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprintf("%+v", v)
	}
	return string(b)
}
