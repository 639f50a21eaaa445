package askdialog

import (
	"encoding/json"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/ellipsis"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/ui/internal/uikit"
)

// formField is the control of one form field, its title and a line under
// it that shows the field's description, or what is wrong in red. Its
// methods run on the Fyne goroutine.
type formField struct {
	f       question.Field
	label   *widget.Label // the title, with " *" when required; nil for a boolean
	entry   *keyEntry     // string, number, integer
	list    *optionList   // boolean (one check), enum (radio), multi_select (checks)
	sel     *keySelect    // enum with more than present.MaxRadioValues values
	pick    *dialogButton // a date field's calendar button, or nil
	rule    *widget.Label // what the field accepts (present.FieldRule), shown up front; nil when nothing is to say
	msg     *widget.Label // the description, or the validation message
	touched bool          // left after typing, changed, or a submit was tried: show problems
	box     *fyne.Container
}

func newFormField(f question.Field, h host, changed func(*formField)) *formField {
	ff := &formField{f: f, box: container.New(layout.NewCustomPaddedVBoxLayout(0))}
	title := present.FieldTitle(f)
	if f.Required {
		title += " *"
	}
	titles := make([]string, len(f.Values))
	for i, v := range f.Values {
		titles[i] = v.Title
	}
	var control fyne.CanvasObject
	switch {
	case f.Type == question.FieldBoolean:
		ff.list = newOptionList(h, []string{title}, []string{f.Description}, false, false, nil)
		ff.list.set(0, string(f.Default) == "true")
		control = ff.list.content()
	case f.Type == question.FieldEnum && len(f.Values) > present.MaxRadioValues:
		short := make([]string, len(titles))
		for i, t := range titles {
			short[i] = ellipsis.Cut(t, 61) // the drop-down is as wide as its longest item
		}
		ff.sel = newKeySelect(h, short, nil)
		control = ff.sel
	case f.Type == question.FieldEnum || f.Type == question.FieldMultiSelect:
		ff.list = newOptionList(h, titles, nil, f.Type == question.FieldEnum, false, nil)
		control = ff.list.content()
	default:
		ff.entry = newKeyEntry(h, false)
		ff.entry.PlaceHolder = f.InputHint()
		control = ff.entry
		if f.Type == question.FieldString && f.Format == "date" {
			control = ff.withDatePicker(h)
		}
	}
	ff.applyDefault(titles)
	if f.Type != question.FieldBoolean {
		ff.label = widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		ff.label.Wrapping = fyne.TextWrapWord
		ff.box.Add(ff.label)
	}
	ff.box.Add(control)
	// The rule and the message are small lines of one block, set as
	// close as the lines of a paragraph.
	help := container.New(layout.NewCustomPaddedVBoxLayout(-2 * theme.InnerPadding()))
	if rule := present.FieldRule(f); rule != "" {
		ff.rule = uikit.SmallLabel(rule)
		ff.rule.Wrapping = fyne.TextWrapWord
		help.Add(ff.rule)
	}
	ff.msg = uikit.SmallLabel("")
	ff.msg.Wrapping = fyne.TextWrapWord
	help.Add(ff.msg)
	ff.box.Add(help)
	ff.setMessage(nil)

	// Attached after the defaults, which are not edits.
	edited := func() { ff.touched = true; changed(ff) }
	switch {
	case ff.entry != nil:
		ff.entry.OnChanged = func(string) { changed(ff) } // problems show once touched
		ff.entry.onBlur = func() {
			if ff.entry.Text != "" {
				ff.touched = true
			}
			changed(ff)
		}
	case ff.sel != nil:
		ff.sel.OnChanged = func(string) { edited() }
	default:
		ff.list.onChanged = edited
	}
	return ff
}

// setMessage shows err in red once the field is touched, else the
// description. The message line is always there, empty when there is
// nothing to say, so that a message appearing moves no field below it
// (one moved the rows under the pointer).
func (ff *formField) setMessage(err error) {
	if err != nil && ff.touched {
		ff.msg.Importance = widget.DangerImportance
		ff.msg.SetText(present.UpperFirst(err.Error()))
		return
	}
	ff.msg.Importance = widget.LowImportance
	help := ff.f.Description
	if ff.f.Type == question.FieldBoolean {
		help = "" // shown under the check
	}
	ff.msg.SetText(help)
}

// applyDefault shows the schema's default, if any.
func (ff *formField) applyDefault(titles []string) {
	def := ff.f.Default
	if len(def) == 0 {
		return
	}
	switch {
	case ff.entry != nil:
		ff.entry.SetText(present.DefaultText(def))
	case ff.sel != nil:
		var s string
		if json.Unmarshal(def, &s) == nil {
			if i := ff.valueIndex(s); i >= 0 {
				ff.sel.SetSelectedIndex(i)
			}
		}
	case ff.f.Type == question.FieldEnum || ff.f.Type == question.FieldMultiSelect:
		for _, s := range present.DefaultLabels(def) {
			ff.list.set(ff.valueIndex(s), true)
		}
	}
}

func (ff *formField) valueIndex(v string) int {
	return slices.IndexFunc(ff.f.Values, func(e question.EnumValue) bool { return e.Value == v })
}

// holds reports whether w is one of ff's controls.
func (ff *formField) holds(w fyne.Focusable) bool {
	switch {
	case w == nil:
		return false
	case ff.entry != nil && w == fyne.Focusable(ff.entry), ff.sel != nil && w == fyne.Focusable(ff.sel),
		ff.pick != nil && w == fyne.Focusable(ff.pick):
		return true
	case ff.list != nil:
		for _, row := range ff.list.rows {
			if w == fyne.Focusable(row) {
				return true
			}
		}
	}
	return false
}

// Field is the form field ff asks for.
func (ff *formField) Field() question.Field { return ff.f }

// Input is what the person entered in ff's control.
func (ff *formField) Input() present.FieldInput {
	switch {
	case ff.entry != nil:
		return present.FieldInput{Text: ff.entry.Text}
	case ff.sel != nil:
		if i := ff.sel.SelectedIndex(); i >= 0 {
			return present.FieldInput{Picked: []int{i}}
		}
		return present.FieldInput{}
	case ff.f.Type == question.FieldBoolean:
		return present.FieldInput{Checked: len(ff.list.selected()) == 1}
	}
	return present.FieldInput{Picked: ff.list.selected()}
}
