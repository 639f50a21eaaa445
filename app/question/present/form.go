package present

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/asktray/asktray/app/question"
)

// MaxRadioValues is the most enum values shown as radio marks; a field
// with more gets a drop-down.
const MaxRadioValues = 5

// FieldTitle is a form field's name as shown: its title, or its name.
func FieldTitle(f question.Field) string { return LabelOr(f.Title, f.Name) }

// FieldInput is what the person entered in one form field's control.
type FieldInput struct {
	Checked bool   // a boolean's check mark
	Picked  []int  // an enum's or multi_select's picked values, as indexes into Field.Values
	Text    string // a string's, number's or integer's text box, as typed
}

// FieldValue returns field f's JSON value for input in, whether it has one
// (an empty optional field has none), and what is wrong with it in words for
// the person. The answer as a whole is still checked by
// question.ValidateContent.
func FieldValue(f question.Field, in FieldInput) (json.RawMessage, bool, error) {
	var raw json.RawMessage
	switch f.Type {
	case question.FieldBoolean:
		raw = json.RawMessage(strconv.FormatBool(in.Checked))
	case question.FieldEnum, question.FieldMultiSelect:
		picked := make([]string, 0, len(in.Picked))
		for _, i := range in.Picked {
			picked = append(picked, f.Values[i].Value)
		}
		switch {
		case f.Type == question.FieldEnum && len(picked) > 1:
			return nil, false, errors.New("pick one")
		case f.Type == question.FieldEnum && len(picked) == 1:
			raw, _ = json.Marshal(picked[0])
		case f.Type == question.FieldMultiSelect && (len(picked) > 0 || f.Required):
			if err := f.CheckPicks(len(picked)); err != nil {
				return nil, false, err
			}
			raw, _ = json.Marshal(picked)
		}
	default:
		text := in.Text
		if f.Type != question.FieldString {
			text = strings.TrimSpace(text)
		}
		if text != "" {
			var err error
			if raw, err = f.ParseInput(text); err != nil {
				return nil, false, err
			}
		}
	}
	if raw == nil {
		if f.Required {
			return nil, false, errors.New("required")
		}
		return nil, false, nil
	}
	return raw, true, nil
}

// FieldControl is a front end's control of one form field.
type FieldControl interface {
	Field() question.Field // the field it asks for
	Input() FieldInput     // what the person entered in it
}

// FormContent builds a form's content object, with real JSON types in
// schema order, from its controls (one per field, in schema order). errs[i]
// is what is wrong with controls[i], or nil; when any is wrong the content
// is nil and err names the fields to fix.
func FormContent[C FieldControl](controls []C) (content json.RawMessage, errs []error, err error) {
	var b bytes.Buffer
	b.WriteByte('{')
	errs = make([]error, len(controls))
	var bad []string
	for i, c := range controls {
		f := c.Field()
		raw, ok, ferr := FieldValue(f, c.Input())
		if ferr != nil {
			errs[i] = ferr
			bad = append(bad, FieldTitle(f))
			continue
		}
		if !ok {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(f.Name)
		b.Write(name)
		b.WriteByte(':')
		b.Write(raw)
	}
	if len(bad) > 0 {
		return nil, errs, errors.New("please fix: " + strings.Join(bad, ", "))
	}
	b.WriteByte('}')
	return json.RawMessage(b.Bytes()), errs, nil
}
