package historyview

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/question/present"
)

// Column widths of a history row, in Fyne units. The question and the
// answer take what is left.
const (
	rowColWhen    = 92
	rowColClient  = 104
	rowColKind    = 88
	rowColOutcome = 104
	rowColTook    = 76
	rowMinAnswer  = 72
)

// The texts of a history row.
const (
	rowQuestion = iota
	rowWhen
	rowClient
	rowKind
	rowOutcome
	rowAnswer
	rowTook
	rowTexts
)

// historyRow draws one record in two lines: an outcome icon; the question and
// when it was asked; then client, kind, outcome, a short answer and how long
// it took, in aligned columns. Texts too long for their column end in an
// ellipsis. Its methods run on the Fyne goroutine.
type historyRow struct {
	widget.BaseWidget
	icon  *canvas.Image
	texts [rowTexts]*canvas.Text
	full  [rowTexts]string
	color fyne.ThemeColorName // the outcome's colour
	bold  bool                // the question is pending
}

// newHistoryRow returns an empty row. It runs on the Fyne goroutine.
func newHistoryRow() *historyRow {
	r := &historyRow{icon: canvas.NewImageFromResource(nil), color: theme.ColorNameForeground}
	r.icon.FillMode = canvas.ImageFillContain
	for i := range r.texts {
		r.texts[i] = canvas.NewText("", nil)
	}
	r.texts[rowWhen].Alignment = fyne.TextAlignTrailing
	r.texts[rowTook].Alignment = fyne.TextAlignTrailing
	r.ExtendBaseWidget(r)
	return r
}

// set shows rec, with times relative to now, the question named by
// present.LineName (home shown as ~) and, when apart is not "", what tells
// it from a neighbour with the same line (tellApart).
func (r *historyRow) set(rec history.Record, now time.Time, home, apart string) {
	look := lookOf(rec)
	r.icon.Resource = look.icon
	q := rec.Question
	line := present.LineName(&q, home, 300)
	if apart != "" {
		line += "  ·  " + apart
	}
	r.full = [rowTexts]string{
		rowQuestion: line,
		rowWhen:     historyAgo(now, q.Created),
		rowClient:   present.Who(&q),
		rowKind:     historyKindName(q.Kind),
		rowOutcome:  look.name,
		rowAnswer:   shortAnswer(rec),
	}
	if rec.Result != nil {
		r.full[rowTook] = historyElapsed(rec.Elapsed())
	}
	r.color, r.bold = look.color, rec.Result == nil
	r.Refresh()
}

// setGroup shows the head of group g of rows: its newest decision's line
// and look, by which rule ("allowed by rule r1"), how many times and when
// ("300 times, 10:02–10:14") where the answer goes, and whether it is open.
func (r *historyRow) setGroup(rows []history.Record, g *rowGroup, now time.Time, home string, more bool) {
	newest := rows[g.members[0]]
	r.set(newest, now, home, "")
	mark := "▸ "
	if g.open {
		mark = "▾ "
	}
	by, times := groupLine(rows, g, now, more)
	r.full[rowQuestion] = mark + r.full[rowQuestion] + "  ·  " + by
	r.full[rowAnswer] = times
	r.full[rowTook] = ""
	r.Refresh()
}

// CreateRenderer is called by Fyne on the Fyne goroutine.
func (r *historyRow) CreateRenderer() fyne.WidgetRenderer {
	objs := []fyne.CanvasObject{r.icon}
	for _, t := range r.texts {
		objs = append(objs, t)
	}
	return &historyRowRenderer{row: r, objs: objs}
}

type historyRowRenderer struct {
	row  *historyRow
	objs []fyne.CanvasObject
}

// sizes returns the text sizes, line heights and padding of a row.
func (h *historyRowRenderer) sizes() (big, small, line1, line2, pad float32) {
	th := h.row.Theme()
	big = th.Size(theme.SizeNameText)
	small = big - 2
	line1 = fyne.MeasureText("Ag", big, fyne.TextStyle{}).Height
	line2 = fyne.MeasureText("Ag", small, fyne.TextStyle{}).Height
	return big, small, line1, line2, th.Size(theme.SizeNamePadding)
}

func (h *historyRowRenderer) Layout(size fyne.Size) {
	_, _, line1, line2, pad := h.sizes()
	inner := 2 * pad
	icon := h.row.Theme().Size(theme.SizeNameInlineIcon)
	height := h.MinSize().Height
	h.row.icon.Resize(fyne.NewSquareSize(icon))
	h.row.icon.Move(fyne.NewPos(inner, (height-icon)/2))

	x0 := inner + icon + inner
	right := size.Width - inner
	y1 := 1.5 * pad
	y2 := y1 + line1 + pad/2
	place := func(i int, x, w, y, lh float32) {
		w = max(w, 0)
		t := h.row.texts[i]
		t.Text = fitText(h.row.full[i], t.TextSize, t.TextStyle, w)
		t.Move(fyne.NewPos(x, y))
		t.Resize(fyne.NewSize(w, lh))
	}
	place(rowWhen, right-rowColWhen, rowColWhen, y1+(line1-line2)/2, line2)
	place(rowQuestion, x0, right-rowColWhen-inner-x0, y1, line1)
	x := x0
	for _, c := range []struct{ i, w int }{{rowClient, rowColClient}, {rowKind, rowColKind}, {rowOutcome, rowColOutcome}} {
		place(c.i, x, float32(c.w)-inner, y2, line2)
		x += float32(c.w)
	}
	place(rowTook, right-rowColTook, rowColTook, y2, line2)
	place(rowAnswer, x, right-rowColTook-inner-x, y2, line2)
}

func (h *historyRowRenderer) MinSize() fyne.Size {
	_, _, line1, line2, pad := h.sizes()
	icon := h.row.Theme().Size(theme.SizeNameInlineIcon)
	w := 4*pad + icon + rowColClient + rowColKind + rowColOutcome + rowMinAnswer + rowColTook + 2*pad
	return fyne.NewSize(w, 3*pad+line1+pad/2+line2)
}

func (h *historyRowRenderer) Refresh() {
	big, small, _, _, _ := h.sizes()
	th := h.row.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	for i, t := range h.row.texts {
		t.TextSize, t.Color = small, th.Color(theme.ColorNamePlaceHolder, v)
		t.TextStyle = fyne.TextStyle{}
		switch i {
		case rowQuestion:
			t.TextSize, t.Color = big, th.Color(theme.ColorNameForeground, v)
			t.TextStyle.Bold = h.row.bold
		case rowOutcome:
			t.Color = th.Color(h.row.color, v)
		case rowClient:
			t.Color = th.Color(theme.ColorNameForeground, v)
		}
	}
	h.Layout(h.row.Size())
	for _, o := range h.objs {
		o.Refresh()
	}
}

func (h *historyRowRenderer) Objects() []fyne.CanvasObject { return h.objs }

func (h *historyRowRenderer) Destroy() {}

// fitText returns s, or its longest prefix that fits width with an ellipsis.
func fitText(s string, size float32, style fyne.TextStyle, width float32) string {
	if s == "" || fyne.MeasureText(s, size, style).Width <= width {
		return s
	}
	runes := []rune(s)
	lo, hi := 0, len(runes) // the answer is in [lo, hi)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if fyne.MeasureText(string(runes[:mid])+"…", size, style).Width <= width {
			lo = mid
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return ""
	}
	return string(runes[:lo]) + "…"
}
