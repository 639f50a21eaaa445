package askdialog

import (
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question/present"
)

// optionRow is one option of a choice: a radio or check mark, the option's
// label and, under it, its description; the whole row is the tap target and
// it shows its digit shortcut on the right. A suggestion row (icon set) has
// the icon in place of the mark and no checked state. widget.RadioGroup and
// CheckGroup have no per-option descriptions and their items are Fyne's own
// focusables, which would hide window focus from the guard. Its methods run
// on the Fyne goroutine.
type optionRow struct {
	widget.BaseWidget
	label, desc string
	radio       bool
	icon        fyne.Resource // a suggestion's icon, drawn in place of the mark; nil for an option
	key         int           // the digit shortcut shown, 0 for none
	checked     bool
	onTap       func()
	onFocus     func() // optional: called when the row gains focus
	sink        inputSink

	focused, hovered bool
	ring
}

func newOptionRow(sink inputSink, label, desc string, radio bool, key int, onTap func()) *optionRow {
	o := &optionRow{sink: sink, label: label, desc: desc, radio: radio, key: key, onTap: onTap}
	o.ExtendBaseWidget(o)
	return o
}

// newSuggestionRow is a row that runs onTap when tapped (or Space), with
// icon in place of a mark: a suggested answer with its description.
func newSuggestionRow(sink inputSink, label, desc string, icon fyne.Resource, onTap func()) *optionRow {
	o := &optionRow{sink: sink, label: label, desc: desc, icon: icon, onTap: onTap}
	o.ExtendBaseWidget(o)
	return o
}

// setChecked shows the mark on or off.
func (o *optionRow) setChecked(on bool) {
	if o.checked != on {
		o.checked = on
		o.Refresh()
	}
}

// Tapped toggles the option and takes focus, as widget.Check does.
func (o *optionRow) Tapped(*fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(o); c != nil && !o.focused {
		c.Focus(o)
	}
	o.onTap()
}

// Cursor shows the pointer hand.
func (o *optionRow) Cursor() desktop.Cursor { return desktop.PointerCursor }

// MouseIn highlights the row.
func (o *optionRow) MouseIn(*desktop.MouseEvent) { o.hovered = true; o.Refresh() }

// MouseMoved does nothing.
func (o *optionRow) MouseMoved(*desktop.MouseEvent) {}

// MouseOut removes the highlight.
func (o *optionRow) MouseOut() { o.hovered = false; o.Refresh() }

// FocusGained shows the focus and tells the dialog.
func (o *optionRow) FocusGained() {
	o.focused = true
	o.showRing(true)
	o.Refresh()
	o.sink.focusGained(o)
	if o.onFocus != nil {
		o.onFocus()
	}
}

// FocusLost hides the focus and tells the dialog.
func (o *optionRow) FocusLost() {
	o.focused = false
	o.showRing(false)
	o.Refresh()
	o.sink.focusLost(o)
}

// TypedRune toggles the option on Space, once the dialog is armed.
func (o *optionRow) TypedRune(r rune) {
	if r == ' ' && o.sink.mayEdit() {
		o.onTap()
	}
}

// TypedKey passes dialog keys on.
func (o *optionRow) TypedKey(ev *fyne.KeyEvent) { o.sink.typedKey(ev, o) }

// TypedShortcut passes shortcuts (an answer button's Alt letter) on.
func (o *optionRow) TypedShortcut(s fyne.Shortcut) { o.sink.shortcut(s, o) }

// KeyDown tells the dialog's guard.
func (o *optionRow) KeyDown(ev *fyne.KeyEvent) { o.sink.keyDown(ev) }

// KeyUp tells the dialog's guard.
func (o *optionRow) KeyUp(ev *fyne.KeyEvent) { o.sink.keyUp(ev) }

// CreateRenderer draws the row.
func (o *optionRow) CreateRenderer() fyne.WidgetRenderer {
	r := &optionRenderer{row: o, bg: canvas.NewRectangle(color.Transparent)}
	r.bg.CornerRadius = theme.SelectionRadiusSize()
	r.mark = canvas.NewImageFromResource(nil)
	r.fill = canvas.NewImageFromResource(nil)
	r.label = widget.NewLabel(o.label)
	r.label.Wrapping = fyne.TextWrapWord
	r.desc = widget.NewLabel(o.desc)
	r.desc.Wrapping = fyne.TextWrapWord
	r.desc.SizeName = theme.SizeNameCaptionText
	r.desc.Importance = widget.LowImportance
	r.hint = canvas.NewText("", theme.Color(theme.ColorNameDisabled)) // secondary text, as a low-importance label
	r.hint.TextSize = theme.CaptionTextSize()
	if o.key > 0 {
		r.hint.Text = strconv.Itoa(o.key)
	}
	r.Refresh()
	return o.wrap(r)
}

type optionRenderer struct {
	row        *optionRow
	bg         *canvas.Rectangle
	fill, mark *canvas.Image
	label      *widget.Label
	desc       *widget.Label
	hint       *canvas.Text
}

// geometry: the mark sits in a column on the left, the digit on the right.
func (r *optionRenderer) columns() (textX, textW float32, width float32) {
	width = r.row.Size().Width
	if width <= 0 {
		width = contentWidth()
	}
	textX = theme.Padding() + theme.IconInlineSize() + theme.Padding()
	hintW := r.hint.MinSize().Width + 2*theme.InnerPadding()
	return textX, max(width-textX-hintW, 40), width
}

func (r *optionRenderer) Layout(size fyne.Size) {
	textX, textW, _ := r.columns()
	r.bg.Resize(size)
	r.label.Move(fyne.NewPos(textX, 0))
	r.label.Resize(fyne.NewSize(textW, r.label.MinSize().Height))
	r.label.Resize(fyne.NewSize(textW, r.label.MinSize().Height))
	lh := r.label.MinSize().Height
	icon := theme.IconInlineSize()
	// Centre the mark on the label's first line.
	firstLine := theme.TextSize() + 2*theme.InnerPadding()
	iconPos := fyne.NewPos(theme.Padding()+theme.InnerPadding()/2, (firstLine-icon)/2)
	r.fill.Move(iconPos)
	r.mark.Move(iconPos)
	r.fill.Resize(fyne.NewSquareSize(icon))
	r.mark.Resize(fyne.NewSquareSize(icon))
	if r.row.desc != "" {
		r.desc.Move(fyne.NewPos(textX, lh-theme.InnerPadding()*1.25))
		r.desc.Resize(fyne.NewSize(textW, r.desc.MinSize().Height))
		r.desc.Resize(fyne.NewSize(textW, r.desc.MinSize().Height))
	}
	hs := r.hint.MinSize()
	r.hint.Move(fyne.NewPos(size.Width-hs.Width-theme.InnerPadding(), (firstLine-hs.Height)/2))
	r.hint.Resize(hs)
}

func (r *optionRenderer) MinSize() fyne.Size {
	textX, textW, _ := r.columns()
	r.label.Resize(fyne.NewSize(textW, r.label.Size().Height))
	h := r.label.MinSize().Height
	if r.row.desc != "" {
		r.desc.Resize(fyne.NewSize(textW, r.desc.Size().Height))
		h += r.desc.MinSize().Height - theme.InnerPadding()*1.5
	}
	return fyne.NewSize(textX+80, h)
}

func (r *optionRenderer) Refresh() {
	o := r.row
	switch {
	case o.focused:
		r.bg.FillColor = theme.Color(theme.ColorNameFocus)
	case o.hovered:
		r.bg.FillColor = theme.Color(theme.ColorNameHover)
	default:
		r.bg.FillColor = color.Transparent
	}
	markName, fillName := theme.IconNameCheckButton, theme.IconNameCheckButtonFill
	if o.radio {
		markName, fillName = theme.IconNameRadioButton, theme.IconNameRadioButtonFill
	}
	mark := theme.NewThemedResource(theme.Current().Icon(markName))
	mark.ColorName = theme.ColorNameForeground // an unticked mark as clear as its label
	fill := theme.NewThemedResource(theme.Current().Icon(fillName))
	fill.ColorName = theme.ColorNameInputBackground
	if o.checked {
		if o.radio {
			fill.ColorName = theme.ColorNamePrimary
			mark.ColorName = theme.ColorNameForeground
		} else {
			mark = theme.NewThemedResource(theme.Current().Icon(theme.IconNameCheckButtonChecked))
			mark.ColorName = theme.ColorNamePrimary
			fill.ColorName = theme.ColorNameBackground
		}
	}
	r.mark.Resource, r.fill.Resource = mark, fill
	if o.icon != nil {
		icon := theme.NewThemedResource(o.icon)
		icon.ColorName = theme.ColorNameForeground
		r.mark.Resource, r.fill.Resource = icon, nil
	}
	r.label.TextStyle.Bold = o.checked
	r.label.Refresh()
	r.mark.Refresh()
	r.fill.Refresh()
	r.bg.Refresh()
}

func (r *optionRenderer) Objects() []fyne.CanvasObject {
	objs := []fyne.CanvasObject{r.bg, r.fill, r.mark, r.label, r.hint}
	if r.row.desc != "" {
		objs = append(objs, r.desc)
	}
	return objs
}

func (r *optionRenderer) Destroy() {}

// optionList is a column of optionRows acting as one radio group (radio)
// or check group. Its methods run on the Fyne goroutine.
type optionList struct {
	rows      []*optionRow
	radio     bool
	onChanged func()
	box       *fyne.Container
	scroll    *container.Scroll // the rows' scroll, once content made one; nil when they fit
}

// newOptionList makes rows for the labels; descs may be shorter than
// labels. With digits, rows 1..9 show their digit shortcut.
func newOptionList(sink inputSink, labels, descs []string, radio, digits bool, onChanged func()) *optionList {
	l := &optionList{radio: radio, onChanged: onChanged, box: container.NewVBox()}
	for i, label := range labels {
		desc := ""
		if i < len(descs) {
			desc = descs[i]
		}
		key := 0
		if digits && i < 9 {
			key = i + 1
		}
		// Labels are shown with invisible characters as markers; the
		// answer is read by position, so it keeps the agent's own text.
		row := newOptionRow(sink, present.Visible(label), present.Visible(desc), radio, key, func() { l.toggle(i) })
		row.onFocus = func() { l.reveal(i) }
		l.rows = append(l.rows, row)
		l.box.Add(row)
	}
	return l
}

// toggle selects option i (radio) or flips it (check). Out-of-range i does nothing.
func (l *optionList) toggle(i int) {
	if i < 0 || i >= len(l.rows) {
		return
	}
	if l.radio {
		for j, r := range l.rows {
			r.setChecked(j == i)
		}
	} else {
		l.rows[i].setChecked(!l.rows[i].checked)
	}
	l.reveal(i) // a digit key may pick a row scrolled out of view
	if l.onChanged != nil {
		l.onChanged()
	}
}

// set checks option i without telling onChanged.
func (l *optionList) set(i int, on bool) {
	if i >= 0 && i < len(l.rows) {
		l.rows[i].setChecked(on)
	}
}

// selected returns the indices of the checked options, in order.
func (l *optionList) selected() []int {
	var out []int
	for i, r := range l.rows {
		if r.checked {
			out = append(out, i)
		}
	}
	return out
}

// content returns the rows, in a scroll container when there are many.
func (l *optionList) content() fyne.CanvasObject {
	c, s := scrolledRows(l.box, len(l.rows))
	l.scroll = s
	return c
}

// reveal scrolls row i into view when the rows scroll.
func (l *optionList) reveal(i int) {
	if i >= 0 && i < len(l.rows) {
		revealIn(l.scroll, l.rows[i])
	}
}

// revealIn scrolls s the least that brings obj, somewhere inside s's
// content, wholly into view (its top, when it is taller than the view). A
// nil s, or one not yet on a canvas, is left alone. It walks the canvas's
// tree once, so call it on an event, never per frame. Runs on the Fyne
// goroutine.
func revealIn(s *container.Scroll, obj fyne.CanvasObject) {
	if s == nil || s.Size().Height <= 0 {
		return
	}
	d := fyne.CurrentApp().Driver()
	if d.CanvasForObject(s) == nil {
		return
	}
	top := d.AbsolutePositionForObject(obj).Y - d.AbsolutePositionForObject(s.Content).Y
	view, y := s.Size().Height, s.Offset.Y
	switch {
	case top < y || obj.Size().Height > view:
		y = top
	case top+obj.Size().Height > y+view:
		y = top + obj.Size().Height - view
	default:
		return
	}
	s.ScrollToOffset(fyne.NewPos(s.Offset.X, y))
}

// scrolledRows returns box, a column of n rows, as it is when n is at most
// maxRowsUnscrolled, else in a vertical scroll scrolledListHeight high,
// which it returns too (nil when there is none).
func scrolledRows(box *fyne.Container, n int) (fyne.CanvasObject, *container.Scroll) {
	if n <= maxRowsUnscrolled {
		return box, nil
	}
	s := container.NewVScroll(box)
	s.SetMinSize(fyne.NewSize(0, scrolledListHeight))
	return s, s
}

// Long option lists scroll rather than grow the window past the screen.
const (
	maxRowsUnscrolled  = 7
	scrolledListHeight = 280
)
