package webask

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// errFix is returned when a control shows its own problem.
var errFix = errors.New("please fix the marked answer")

// read takes the person's input from a posted form into v, so a page shown
// again keeps it, and builds the response for the button pressed. Problems
// go next to their controls; the error says what to fix. Question's
// CheckResponse stays the final judge (the broker runs it).
func (v *view) read(form url.Values) (question.Response, error) {
	v.keep(form)
	note := ""
	if v.Note != nil {
		note = v.Note.Value
	}
	switch a := form.Get("action"); a {
	case "cancel":
		return question.Response{Action: question.Cancel}, nil
	case "decline":
		return question.Response{Action: question.Decline, Note: note}, nil
	case "accept", "yes", "no", "allow":
		if !v.accepts(a) {
			return question.Response{}, fmt.Errorf("%q is not an answer to this question", a)
		}
		raw, err := v.value(a)
		if err != nil {
			return question.Response{}, err
		}
		return question.Response{Action: question.Accept, Value: raw, Note: note}, nil
	default:
		return question.Response{}, errors.New("no answer button was pressed")
	}
}

// accepts reports whether button value a answers v's kind.
func (v *view) accepts(a string) bool {
	for _, b := range v.Buttons {
		if b.Value == a {
			return true
		}
	}
	return false
}

// keep copies the posted input into v's controls.
func (v *view) keep(form url.Values) {
	if v.Text != nil {
		v.Text.Value = form.Get("text")
	}
	if v.Options != nil {
		picks := form["pick"]
		for i := range v.Options.Items {
			v.Options.Items[i].Checked = slices.Contains(picks, v.Options.Items[i].Value)
		}
	}
	if v.Note != nil {
		v.Note.Value = form.Get("note")
	}
	for _, f := range v.Fields {
		f.keep(form)
	}
}

// value returns the accepted value for button a.
func (v *view) value(a string) (json.RawMessage, error) {
	switch v.Q.Kind {
	case question.KindConfirm:
		return json.Marshal(a)
	case question.KindApproval:
		return json.RawMessage(`"allow"`), nil
	case question.KindNotice:
		return json.RawMessage(`"ok"`), nil
	case question.KindForm:
		return v.formValue()
	case question.KindText:
		if v.Text != nil {
			if err := present.LengthError(&v.Q, v.Text.Value); err != nil {
				v.Text.Error = present.UpperFirst(err.Error())
				return nil, errFix
			}
			return json.Marshal(v.Text.Value)
		}
	}
	picked := v.picked()
	note := ""
	if v.Note != nil {
		note = v.Note.Value
	}
	if err := present.PickError(&v.Q, len(picked), note); err != nil {
		v.Options.Error = present.UpperFirst(err.Error())
		return nil, errFix
	}
	if v.Q.Kind == question.KindText {
		return json.Marshal(picked[0])
	}
	return json.Marshal(picked)
}

// picked returns the checked options' labels, in option order.
func (v *view) picked() []string {
	picked := []string{}
	for i, it := range v.Options.Items {
		if it.Checked {
			picked = append(picked, v.Q.Options[i].Label)
		}
	}
	return picked
}

// formValue builds the content object in schema order, or marks each field
// that is wrong and names them.
func (v *view) formValue() (json.RawMessage, error) {
	content, errs, err := present.FormContent(v.Fields)
	for i, ferr := range errs {
		if ferr != nil {
			v.Fields[i].Error = present.UpperFirst(ferr.Error())
		}
	}
	return content, err
}

// fieldError puts an error from the question's own checks next to the
// control it names, or at the top of the page.
func (v *view) fieldError(err error) {
	fe, ok := errors.AsType[*question.FieldError](err)
	if !ok {
		v.Error = present.UpperFirst(err.Error())
		return
	}
	msg := present.UpperFirst(fe.Msg)
	switch {
	case fe.Field == "note" && v.Note != nil:
		v.Note.Error = msg
	case strings.HasPrefix(fe.Field, "content."):
		name := strings.TrimPrefix(fe.Field, "content.")
		for _, f := range v.Fields {
			if name == f.f.Name || strings.HasPrefix(name, f.f.Name+"[") {
				f.Error = msg
				v.Error = "Please fix: " + f.Label
				return
			}
		}
		v.Error = present.UpperFirst(err.Error())
	case v.Text != nil:
		v.Text.Error = msg
	case v.Options != nil:
		v.Options.Error = msg
	default:
		v.Error = present.UpperFirst(err.Error())
	}
	if v.Error == "" {
		v.Error = "Please fix the marked answer."
	}
}

// focusProblem moves the first focus to the first control with a problem.
func (v *view) focusProblem() {
	switch {
	case v.Text != nil && v.Text.Error != "":
		v.Focus = "text"
	case v.Options != nil && v.Options.Error != "":
		v.Focus = "o0"
	case v.Note != nil && v.Note.Error != "":
		v.Focus = "note"
	}
	for _, f := range v.Fields {
		if f.Error != "" {
			v.Focus = f.firstID()
			return
		}
	}
}
