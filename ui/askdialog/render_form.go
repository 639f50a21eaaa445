package askdialog

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/ui/internal/uikit"
)

// maxFormHeight is the tallest a form opens before it scrolls; a taller
// window gives it more.
const maxFormHeight = 420

// formRenderer asks for a form built natively from the question's
// requestedSchema (question.ParseSchema): strings, numbers and integers in
// entries checked as they are typed, booleans as checks, enums as radio
// marks (up to maxRadioValues) or a drop-down, multi-selects as checks;
// required fields are marked " *" and every field shows its own message.
// Answer builds the content object with real JSON types in schema order,
// and CheckResponse stays the final judge. Its methods run on the Fyne goroutine.
type formRenderer struct {
	noPick
	q      *question.Question
	h      host
	schema *question.FormSchema
	fields []*formField
	scroll *container.Scroll // the fields, made by Content
}

func newFormRenderer(q *question.Question, h host) (renderer, error) {
	s, err := question.ParseSchema(q.Schema)
	if err != nil {
		return nil, err
	}
	r := &formRenderer{q: q, h: h, schema: s}
	for _, f := range s.Fields {
		r.fields = append(r.fields, newFormField(f, h, r.changed))
	}
	return r, nil
}

// changed re-checks the edited field and shows its message.
func (r *formRenderer) changed(ff *formField) {
	_ = r.showMessage(ff) // the message is the point here
	r.h.changed()
}

func (r *formRenderer) showMessage(ff *formField) error {
	_, _, err := present.FieldValue(ff.f, ff.Input())
	ff.setMessage(err)
	return err
}

// Content returns the fields, scrolling when there are many.
func (r *formRenderer) Content() fyne.CanvasObject {
	box := container.New(layout.NewCustomPaddedVBoxLayout(2 * theme.Padding()))
	if r.schema.Description != "" {
		d := uikit.SmallLabel(r.schema.Description)
		d.Wrapping = fyne.TextWrapWord
		box.Add(d)
	}
	for _, ff := range r.fields {
		box.Add(ff.box)
	}
	for range 2 {
		box.Resize(fyne.NewSize(contentWidth()-2*theme.Padding(), box.MinSize().Height))
	}
	// A scroll even when the fields fit, so that they, not the message,
	// get the height of a taller window.
	var inner fyne.CanvasObject = box
	if box.MinSize().Height > maxFormHeight {
		// Keep the controls clear of the scroll bar.
		inner = container.New(layout.NewCustomPaddedLayout(0, 0, 0, 2*theme.Padding()), box)
	}
	r.scroll = container.NewVScroll(inner)
	r.scroll.SetMinSize(fyne.NewSize(0, min(box.MinSize().Height, maxFormHeight)))
	return r.scroll
}

// Grows gives the fields the window's extra height.
func (r *formRenderer) Grows() bool { return true }

// Reveal scrolls the field holding w, its title and message included, into view.
func (r *formRenderer) Reveal(w fyne.Focusable) {
	for _, ff := range r.fields {
		if ff.holds(w) {
			revealIn(r.scroll, ff.box)
			return
		}
	}
}

// Actions returns Decline and Submit, Submit being the default.
func (r *formRenderer) Actions() []*action {
	return answerActions(r.q, fixedReply)
}

// Answer returns the content object, or an error naming the fields to fix
// after showing each field's message.
func (r *formRenderer) Answer() (question.Response, error) {
	content, errs, err := present.FormContent(r.fields)
	for i, ff := range r.fields {
		ff.touched = true
		ff.setMessage(errs[i])
	}
	if err != nil {
		r.showFirstError(errs)
		return question.Response{}, err
	}
	return question.Response{Action: question.Accept, Value: content}, nil
}

// showFirstError brings the first field whose input is refused into view,
// its message included, and puts the cursor in it when it is an entry: an
// error below the fold was neither scrolled to nor shown.
func (r *formRenderer) showFirstError(errs []error) {
	for i, ff := range r.fields {
		if errs[i] == nil {
			continue
		}
		r.scroll.Refresh() // the messages just set change the fields' heights
		if c := fyne.CurrentApp().Driver().CanvasForObject(r.scroll); c != nil && ff.entry != nil {
			c.Focus(ff.entry)
		}
		revealIn(r.scroll, ff.box)
		return
	}
}

// Focus puts the cursor in the first entry, after any default.
func (r *formRenderer) Focus() fyne.Focusable {
	for _, ff := range r.fields {
		if ff.entry != nil {
			cursorToEnd(ff.entry)
			return ff.entry
		}
	}
	return nil
}
