package present

import (
	"encoding/json"
	"testing"

	"github.com/asktray/asktray/app/question"
)

const personSchema = `{"type":"object","properties":{
	"name":{"type":"string","title":"Name","minLength":1},
	"age":{"type":"integer","title":"Age","minimum":0,"maximum":150},
	"ratio":{"type":"number"},
	"ok":{"type":"boolean","title":"Send the welcome mail"},
	"channel":{"type":"string","title":"Channel","oneOf":[{"const":"stable","title":"Stable"},{"const":"beta","title":"Beta"}]},
	"targets":{"type":"array","title":"Targets","items":{"anyOf":[{"const":"linux","title":"Linux"},{"const":"mac","title":"macOS"},{"const":"win","title":"Windows"}]},"minItems":1,"maxItems":2}
},"required":["name","targets"]}`

func personFields(t *testing.T) []question.Field {
	t.Helper()
	s, err := question.ParseSchema(json.RawMessage(personSchema))
	if err != nil {
		t.Fatal(err)
	}
	return s.Fields
}

func TestFieldValue(t *testing.T) {
	t.Parallel()
	f := personFields(t)
	name, age, ratio, ok, channel, targets := f[0], f[1], f[2], f[3], f[4], f[5]
	for _, c := range []struct {
		name  string
		f     question.Field
		in    FieldInput
		value string // "" when the field has none
		err   string
	}{
		{"string kept as typed", name, FieldInput{Text: " Ada "}, `" Ada "`, ""},
		{"required string empty", name, FieldInput{}, "", "required"},
		{"integer trimmed", age, FieldInput{Text: " 36 "}, `36`, ""},
		{"integer not a number", age, FieldInput{Text: "3x"}, "", "enter a whole number, like 42"},
		{"optional number empty", ratio, FieldInput{Text: "  "}, "", ""},
		{"number", ratio, FieldInput{Text: "0.25"}, `0.25`, ""},
		{"boolean off", ok, FieldInput{}, `false`, ""},
		{"boolean on", ok, FieldInput{Checked: true}, `true`, ""},
		{"enum none", channel, FieldInput{}, "", ""},
		{"enum one", channel, FieldInput{Picked: []int{1}}, `"beta"`, ""},
		{"enum two", channel, FieldInput{Picked: []int{0, 1}}, "", "pick one"},
		{"multi in order given", targets, FieldInput{Picked: []int{0, 2}}, `["linux","win"]`, ""},
		{"multi required none", targets, FieldInput{}, "", "pick at least 1"},
		{"multi too many", targets, FieldInput{Picked: []int{0, 1, 2}}, "", "pick at most 2"},
	} {
		raw, has, err := FieldValue(c.f, c.in)
		if errText(err) != c.err || has != (c.value != "") || string(raw) != c.value {
			t.Errorf("%s: FieldValue = %s, %v, %v; want %s, %q", c.name, raw, has, err, c.value, c.err)
		}
	}
}

// control is a FieldControl with a fixed input.
type control struct {
	f  question.Field
	in FieldInput
}

func (c control) Field() question.Field { return c.f }
func (c control) Input() FieldInput     { return c.in }

func controls(fields []question.Field, inputs ...FieldInput) []control {
	cs := make([]control, len(fields))
	for i, f := range fields {
		cs[i] = control{f, inputs[i]}
	}
	return cs
}

func TestFormContent(t *testing.T) {
	t.Parallel()
	fields := personFields(t)
	content, errs, err := FormContent(controls(fields,
		FieldInput{Text: "Ada"}, FieldInput{Text: "36"}, FieldInput{}, FieldInput{Checked: true},
		FieldInput{Picked: []int{1}}, FieldInput{Picked: []int{2, 0}}))
	if err != nil || string(content) != `{"name":"Ada","age":36,"ok":true,"channel":"beta","targets":["win","linux"]}` {
		t.Errorf("FormContent = %s, %v", content, err)
	}
	for i, e := range errs {
		if e != nil {
			t.Errorf("field %d: %v", i, e)
		}
	}

	content, errs, err = FormContent(controls(fields,
		FieldInput{}, FieldInput{Text: "3x"}, FieldInput{}, FieldInput{}, FieldInput{}, FieldInput{Picked: []int{0}}))
	if content != nil || errText(err) != "please fix: Name, Age" {
		t.Errorf("FormContent with two bad fields = %s, %v", content, err)
	}
	if errText(errs[0]) != "required" || errText(errs[1]) != "enter a whole number, like 42" || errs[2] != nil || errs[5] != nil {
		t.Errorf("field errors %v", errs)
	}
	if FieldTitle(fields[2]) != "ratio" || FieldTitle(fields[0]) != "Name" {
		t.Errorf("titles %q %q", FieldTitle(fields[2]), FieldTitle(fields[0]))
	}
}
