package webask

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/asktray/asktray/app/question"
)

// maxRadioValues is the most enum values shown as radio marks; more get a
// drop-down, as in the dialog.
const maxRadioValues = 5

// fieldView is the control of one form field: its label (" *" when
// required), the control, its description and, once the person submitted,
// what is wrong with it.
type fieldView struct {
	f        question.Field
	ID       string // the control's name and id: "f0", "f1", …
	Label    string
	Required bool
	Desc     string
	Error    string
	// Control is "input", "check" (a boolean), "radios", "select" or
	// "checks" (a multi-select).
	Control                     string
	InputType, InputMode, Place string
	Value                       string
	Checked                     bool
	Items                       []optionView
}

// formControls builds a control per field of the question's requestedSchema.
func (v *view) formControls() error {
	s, err := question.ParseSchema(v.Q.Schema)
	if err != nil {
		return err
	}
	if s.Description != "" {
		v.Intro = s.Description
	}
	for i, f := range s.Fields {
		v.Fields = append(v.Fields, newFieldView(i, f))
	}
	for _, f := range v.Fields {
		if f.Control == "input" {
			v.Focus = f.ID
			break
		}
	}
	if v.Focus == "" && len(v.Fields) > 0 {
		v.Focus = v.Fields[0].firstID()
	}
	return nil
}

func newFieldView(i int, f question.Field) *fieldView {
	fv := &fieldView{f: f, ID: "f" + strconv.Itoa(i), Label: labelOr(f.Title, f.Name), Required: f.Required, Desc: f.Description}
	var def []string
	switch f.Type {
	case question.FieldBoolean:
		fv.Control, fv.Checked = "check", string(f.Default) == "true"
	case question.FieldEnum, question.FieldMultiSelect:
		def = defaultLabels(f.Default)
		fv.Control = "radios"
		if f.Type == question.FieldMultiSelect {
			fv.Control = "checks"
		} else if len(f.Values) > maxRadioValues {
			fv.Control = "select"
		}
		for j, ev := range f.Values {
			fv.Items = append(fv.Items, optionView{ID: fmt.Sprintf("%s-%d", fv.ID, j), Value: strconv.Itoa(j), Label: ev.Title,
				Checked: slices.Contains(def, ev.Value)})
		}
	default:
		fv.Control, fv.InputType, fv.Place = "input", "text", f.InputHint()
		switch {
		case f.Type == question.FieldInteger:
			fv.InputMode = "numeric"
		case f.Type == question.FieldNumber:
			fv.InputMode = "decimal"
		case f.Format == "email":
			fv.InputType = "email"
		case f.Format == "uri":
			fv.InputType = "url"
		case f.Format == "date":
			fv.InputType = "date"
		}
		if len(f.Default) > 0 {
			if json.Unmarshal(f.Default, &fv.Value) != nil {
				fv.Value = string(f.Default) // a number's JSON text
			}
		}
	}
	return fv
}

// firstID is the id of the field's first focusable control.
func (fv *fieldView) firstID() string {
	if fv.Control == "radios" || fv.Control == "checks" {
		return fv.ID + "-0"
	}
	return fv.ID
}

// title is the field's name for messages.
func (fv *fieldView) title() string { return fv.Label }

// keep copies the posted input of this field.
func (fv *fieldView) keep(form url.Values) {
	switch fv.Control {
	case "check":
		fv.Checked = form.Get(fv.ID) == "on"
	case "input":
		fv.Value = form.Get(fv.ID)
	default:
		picks := form[fv.ID]
		for j := range fv.Items {
			fv.Items[j].Checked = slices.Contains(picks, fv.Items[j].Value)
		}
	}
}

// value returns the field's JSON value, whether it has one, and what is
// wrong with it in words for the person, as the dialog's form does.
func (fv *fieldView) value() (json.RawMessage, bool, error) {
	f := fv.f
	var raw json.RawMessage
	switch fv.Control {
	case "check":
		raw = json.RawMessage(strconv.FormatBool(fv.Checked))
	case "radios", "select", "checks":
		var picked []string
		for j, it := range fv.Items {
			if it.Checked {
				picked = append(picked, f.Values[j].Value)
			}
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
			raw, _ = json.Marshal(append([]string{}, picked...))
		}
	default:
		text := fv.Value
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
