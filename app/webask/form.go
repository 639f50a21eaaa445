package webask

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// fieldView is the control of one form field: its label (" *" when
// required), the control, what it accepts, its description and, once the
// person submitted, what is wrong with it.
type fieldView struct {
	f        question.Field
	ID       string // the control's name and id: "f0", "f1", …
	Label    string
	Required bool
	Desc     string
	Rule     string // what it accepts (present.FieldRule), shown from the start; "" for nothing to say
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
		v.Intro = present.Visible(s.Description)
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
	fv := &fieldView{f: f, ID: "f" + strconv.Itoa(i), Label: present.Visible(present.FieldTitle(f)), Required: f.Required, Desc: present.Visible(f.Description),
		Rule: present.FieldRule(f)}
	var def []string
	switch f.Type {
	case question.FieldBoolean:
		fv.Control, fv.Checked = "check", string(f.Default) == "true"
	case question.FieldEnum, question.FieldMultiSelect:
		def = present.DefaultLabels(f.Default)
		fv.Control = "radios"
		if f.Type == question.FieldMultiSelect {
			fv.Control = "checks"
		} else if len(f.Values) > present.MaxRadioValues {
			fv.Control = "select"
		}
		for j, ev := range f.Values {
			fv.Items = append(fv.Items, optionView{ID: fmt.Sprintf("%s-%d", fv.ID, j), Value: strconv.Itoa(j), Label: present.Visible(ev.Title),
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
		fv.Value = present.DefaultText(f.Default)
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

// Field is the form field fv asks for.
func (fv *fieldView) Field() question.Field { return fv.f }

// Input is what the person entered in fv's control.
func (fv *fieldView) Input() present.FieldInput {
	in := present.FieldInput{Checked: fv.Checked, Text: fv.Value}
	for j, it := range fv.Items {
		if it.Checked {
			in.Picked = append(in.Picked, j)
		}
	}
	return in
}
