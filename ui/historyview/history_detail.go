package historyview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/ui/internal/markdown"
)

// historyDetail is the history window's right pane: everything about the
// selected record, and what can be done with it. Its methods run on the
// Fyne goroutine.
type historyDetail struct {
	h    *Window
	rec  history.Record
	root fyne.CanvasObject

	placeholder *widget.Label
	body        *fyne.Container // hidden while nothing is selected

	who         *widget.Label // who asked and where, as the dialog's headline
	title       *widget.Label
	outcomeIcon *widget.Icon
	outcome     *widget.Label
	decider     *widget.Label
	afterwards  *widget.Label   // what was learnt since, e.g. the agent had already proceeded
	message     *fyne.Container // holds the message's RichText
	options     *widget.RichText
	answerHead  *widget.Label
	answer      *widget.Label
	answerBg    *canvas.Rectangle
	answerBox   *fyne.Container
	note        *widget.Label
	asked       *widget.Label
	decided     *widget.Label
	took        *widget.Label
	where       *widget.Label // the working directory in full
	whereKey    *widget.Label
	client      *widget.Label
	kind        *widget.Label
	id          *widget.Label
	schema      *widget.Label
	schemaBox   *widget.Accordion

	copyBtn   *widget.Button
	openBtn   *widget.Button
	groupBtn  *widget.Button // opens or closes the selected group of rule decisions
	deleteBtn *widget.Button
	buttons   *fyne.Container
	scroll    *container.Scroll // the body's; back at the top for each new selection
}

// newHistoryDetail builds the pane for h, showing the placeholder. It runs
// on the Fyne goroutine.
func newHistoryDetail(h *Window) *historyDetail {
	d := &historyDetail{h: h}
	wrap := func(l *widget.Label) *widget.Label { l.Wrapping = fyne.TextWrapWord; return l }
	value := func() *widget.Label { l := wrap(widget.NewLabel("")); l.Selectable = true; return l }
	d.placeholder = widget.NewLabelWithStyle("Select a question to see what was asked and how it ended.", fyne.TextAlignCenter, fyne.TextStyle{Italic: true})
	d.placeholder.Truncation = fyne.TextTruncateEllipsis
	d.who = wrap(widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	d.who.SizeName = theme.SizeNameSubHeadingText
	d.title = wrap(widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	d.outcomeIcon = widget.NewIcon(nil)
	d.outcome = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	d.decider = widget.NewLabel("")
	d.afterwards = wrap(widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	d.afterwards.Importance = widget.WarningImportance
	d.message = container.NewStack()
	d.options = widget.NewRichText()
	d.options.Wrapping = fyne.TextWrapWord
	d.answerHead = sectionHeading("Answer")
	d.answer = value()
	d.answerBg = canvas.NewRectangle(color.Transparent)
	d.answerBox = container.NewStack(d.answerBg, d.answer)
	d.note = value()
	d.asked, d.decided, d.took, d.client, d.kind, d.id = value(), value(), value(), value(), value(), value()
	d.where, d.whereKey = value(), metaKey("Where")
	d.schema = value()
	d.schema.TextStyle.Monospace = true
	d.schemaBox = widget.NewAccordion(widget.NewAccordionItem("Form schema", d.schema))

	d.copyBtn = widget.NewButtonWithIcon("Copy answer", theme.ContentCopyIcon(), d.copyAnswer)
	d.openBtn = widget.NewButtonWithIcon("Open dialog", theme.MailReplyIcon(), func() {
		if d.h.OnOpenDialog != nil {
			d.h.OnOpenDialog(d.rec.Question.ID)
		}
	})
	d.openBtn.Importance = widget.HighImportance
	d.deleteBtn = widget.NewButtonWithIcon("Delete", theme.DeleteIcon(), func() { d.h.confirmDelete(d.rec) })
	d.groupBtn = widget.NewButtonWithIcon("", theme.ListIcon(), d.h.toggleSelectedGroup)

	meta := container.New(layout.NewFormLayout(),
		metaKey("Asked"), d.asked, metaKey("Decided"), d.decided, metaKey("Took"), d.took,
		d.whereKey, d.where, metaKey("Client"), d.client, metaKey("Kind"), d.kind, metaKey("ID"), d.id)
	d.body = container.NewVBox(
		d.who, d.title,
		container.NewHBox(d.outcomeIcon, d.outcome, d.decider),
		d.afterwards,
		widget.NewSeparator(),
		d.message, d.options,
		d.answerHead, d.answerBox, d.note,
		widget.NewSeparator(),
		meta, d.schemaBox,
	)
	d.buttons = container.NewHBox(d.openBtn, d.groupBtn, d.copyBtn, layout.NewSpacer(), d.deleteBtn)
	d.scroll = container.NewVScroll(container.NewPadded(d.body))
	content := container.NewBorder(nil, container.NewVBox(widget.NewSeparator(), container.NewPadded(d.buttons)), nil, nil,
		d.scroll)
	// One truncated line in a VBox, which gives it the pane's width: a
	// wrapping label is measured at its one-word minimum width before
	// layout, stands one word per line and made the real window taller
	// than a 900 px screen.
	d.root = container.NewStack(content, container.NewPadded(container.NewVBox(layout.NewSpacer(), d.placeholder, layout.NewSpacer())))
	d.clear()
	return d
}

// sectionHeading returns a bold section label.
func sectionHeading(text string) *widget.Label {
	return widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

// metaKey returns a label for the metadata grid.
func metaKey(text string) *widget.Label {
	return widget.NewLabelWithStyle(text, fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})
}

// historyClient names the client with its version and session.
func historyClient(c question.Client) string {
	c = present.VisibleCopy(question.Question{Client: c}).Client
	s := c.DisplayName()
	if c.Title != "" && c.Name != "" {
		s += " (" + c.Name + ")"
	}
	if c.Version != "" {
		s += " " + c.Version
	}
	if c.SessionID != "" {
		s += ", session " + c.SessionID
	}
	return s
}

// showGroup offers to open or close the group of n rule decisions whose
// head is selected.
func (d *historyDetail) showGroup(n int, open bool) {
	d.groupBtn.SetText(fmt.Sprintf("Show all %d", n))
	if open {
		d.groupBtn.SetText(fmt.Sprintf("Hide the %d", n))
	}
	d.groupBtn.Show()
	d.buttons.Refresh()
}

// clear shows the placeholder.
func (d *historyDetail) clear() {
	d.rec = history.Record{}
	d.body.Hide()
	d.copyBtn.Hide()
	d.openBtn.Hide()
	d.groupBtn.Hide()
	d.deleteBtn.Hide()
	d.buttons.Refresh()
	d.placeholder.Show()
}

// show fills the pane with rec, scrolled to its top unless rec is the
// record already shown (a live update of the selected row keeps its place).
func (d *historyDetail) show(rec history.Record) {
	d.groupBtn.Hide() // showGroup shows it for a group's head
	if rec.Question.ID != d.rec.Question.ID {
		defer d.scroll.ScrollToTop()
	}
	d.rec = rec
	q, r := rec.Question, rec.Result
	look := lookOf(rec)
	d.placeholder.Hide()
	d.who.SetText(present.Headline(&q, d.h.home))
	d.where.SetText(present.Visible(q.Cwd))
	d.where.Hidden, d.whereKey.Hidden = q.Cwd == "", q.Cwd == ""
	d.title.SetText(q.Header)
	d.title.Hidden = q.Header == ""
	d.outcomeIcon.SetResource(look.icon)
	d.outcome.Importance = look.importance
	d.outcome.SetText(look.name)
	d.message.Objects = []fyne.CanvasObject{markdown.Render(historyBody(q))}
	d.message.Refresh()
	d.setOptions(q, r)

	d.asked.SetText(historyTime(q.Created))
	d.client.SetText(historyClient(q.Client))
	d.kind.SetText(historyKindName(q.Kind) + historyTool(q))
	d.id.SetText(q.ID)
	d.schema.SetText(indentJSON(q.Schema))
	d.schemaBox.Hidden = len(q.Schema) == 0
	d.schemaBox.CloseAll()
	sentence, _ := present.Afterwards(r)
	d.afterwards.SetText(sentence)
	d.afterwards.Hidden = sentence == ""

	if r == nil {
		d.decider.SetText("·  waiting for an answer")
		d.decided.SetText("Not yet; deadline " + historyTime(q.Deadline))
		d.took.SetText("")
		d.answerHead.Hide()
		d.answerBox.Hide()
		d.note.Hide()
	} else {
		d.decider.SetText("·  " + deciderText(r))
		d.decided.SetText(historyTime(r.DecidedAt))
		d.took.SetText(historyElapsed(rec.Elapsed()))
		d.setAnswer(q, r)
	}
	d.body.Show()
	d.body.Refresh()
	d.copyBtn.Hidden = r == nil || len(r.Value) == 0
	d.openBtn.Hidden = r != nil || d.h.OnOpenDialog == nil
	d.deleteBtn.Show()
	if r == nil {
		d.deleteBtn.Disable() // see confirmDelete
	} else {
		d.deleteBtn.Enable()
	}
	d.buttons.Refresh()
}

// setAnswer shows r's value (forms as indented JSON) and note.
func (d *historyDetail) setAnswer(q question.Question, r *question.Result) {
	// A choice's options already show what was chosen.
	shown := len(r.Value) > 0 && (len(q.Options) == 0 || !allOptions(q, r.Value))
	d.answerHead.Hidden = !shown && r.Note == ""
	d.answerBox.Hidden = !shown
	th := d.answer.Theme()
	d.answerBg.FillColor = th.Color(theme.ColorNameInputBackground, fyne.CurrentApp().Settings().ThemeVariant())
	d.answerBg.CornerRadius = th.Size(theme.SizeNameInputRadius)
	v := bytes.TrimSpace(r.Value)
	d.answer.TextStyle.Monospace = len(v) > 0 && v[0] == '{'
	switch {
	case len(v) > 0 && v[0] == '{':
		d.answer.SetText(indentJSON(v))
	case len(v) > 0 && v[0] == '"' && q.Kind == question.KindText:
		d.answer.SetText(answerText(v))
	default:
		d.answer.SetText(valueSummary(q, v))
	}
	d.note.Hidden = r.Note == ""
	d.note.SetText("Note: " + r.Note)
	d.answerHead.Refresh()
	d.answerBox.Refresh()
}

// allOptions reports whether raw is a list of q's option labels (or one label).
func allOptions(q question.Question, raw json.RawMessage) bool {
	labels := chosenLabels(raw)
	if len(labels) == 0 {
		return false
	}
	for _, l := range labels {
		if !slices.ContainsFunc(q.Options, func(o question.Option) bool { return o.Label == l }) {
			return false
		}
	}
	return true
}

// chosenLabels decodes a choice's value: a list of labels or one label.
func chosenLabels(raw json.RawMessage) []string {
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		return many
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	return nil
}

// setOptions lists a choice's options, "label — description", with the
// chosen ones in bold.
func (d *historyDetail) setOptions(q question.Question, r *question.Result) {
	d.options.Hidden = len(q.Options) == 0
	var chosen []string
	if r != nil && len(r.Value) > 0 {
		chosen = chosenLabels(r.Value)
	}
	var segs []widget.RichTextSegment
	for _, o := range q.Options {
		picked := slices.Contains(chosen, o.Label)
		label := &widget.TextSegment{Text: "•  " + present.Visible(o.Label), Style: widget.RichTextStyleInline}
		if picked {
			label.Style.TextStyle.Bold = true
			label.Style.ColorName = theme.ColorNameSuccess
		}
		rest := ""
		if o.Description != "" {
			rest = "  —  " + strings.TrimSpace(present.Visible(o.Description))
		}
		if picked {
			rest += "   (chosen)"
		}
		segs = append(segs, label, &widget.TextSegment{Text: rest, Style: widget.RichTextStyleParagraph})
	}
	d.options.Segments = segs
	d.options.Refresh()
}

// copyAnswer puts the answer on the clipboard: text as itself, anything
// else as JSON.
func (d *historyDetail) copyAnswer() {
	if d.rec.Result == nil || len(d.rec.Result.Value) == 0 {
		return
	}
	d.h.app.Clipboard().SetContent(answerText(d.rec.Result.Value))
}

// historyBody is the Markdown the detail shows for q: its message and, for
// an approval, the details of the action, the agent's reason and the risk.
// What it shows is present.VisibleCopy: invisible characters as markers.
func historyBody(q question.Question) string {
	q = present.VisibleCopy(q)
	parts := []string{q.Message}
	if q.Details != "" {
		parts = append(parts, q.Details)
	}
	if q.AgentReason != "" {
		parts = append(parts, "**Why:** "+q.AgentReason)
	}
	if line, _ := present.RiskLine(&q); q.Kind == question.KindApproval && line != "" {
		parts = append(parts, "**Risk:** "+line)
	}
	return strings.Join(parts, "\n\n")
}

// historyTool names the MCP tool that asked q, if it is known.
func historyTool(q question.Question) string {
	if q.Tool == "" {
		return ""
	}
	return ", via " + q.Tool
}
