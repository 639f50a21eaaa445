package askdialog

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/ui/internal/markdown"
	"github.com/asktray/asktray/ui/internal/uikit"
	"github.com/asktray/asktray/ui/internal/uitheme"
)

// Dialog geometry, in Fyne units.
const (
	dialogWidth = 520
	// minDialogWidth is the narrowest the window can be made (the driver
	// limits a window to its content's minimum size): narrower, the
	// headline, message and buttons re-wrap into a word per line.
	minDialogWidth   = 420
	maxMessageHeight = 240 // a longer message scrolls
	// maxMessageHeightGrowing is the message's when the controls take the
	// window's height (a form, a long list of options).
	maxMessageHeightGrowing = 160
	// maxCommandHeight is an approval's: the command, paths or diff it
	// asks to run get most of the window's height.
	maxCommandHeight = 400
	maxDialogHeight  = 720
	minButtonWidth   = 88
)

// margin is the space around the dialog's content, inside the canvas's own padding.
func margin() float32 { return 2 * theme.Padding() }

// contentWidth is the width the dialog's content is laid out at.
func contentWidth() float32 { return dialogWidth - 2*theme.Padding() - 2*margin() }

// layout builds the dialog's content: who asks and where, which session
// and when, the queue line, the header, the agent's message (untrusted, so
// drawn on its own card and never with live links), the stopped-waiting
// line, the renderer's controls, the inline error and the bar. It runs
// once, on the Fyne goroutine.
func (d *questionDialog) layout() fyne.CanvasObject {
	top := d.top()
	var head fyne.CanvasObject
	title, body := d.titleAndBody()
	if title != "" {
		d.header = widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		d.header.Wrapping = fyne.TextWrapWord
		head = d.header
	}

	stoppedText := widget.NewLabel(d.q.Client.DisplayName() + " stopped waiting; your answer will still reach it.")
	stoppedText.Wrapping = fyne.TextWrapWord
	stoppedText.Importance = widget.WarningImportance
	d.stopped = container.NewBorder(nil, nil, widget.NewIcon(theme.InfoIcon()), nil, stoppedText)
	d.stopped.Hide()
	d.errText = widget.NewLabel("")
	d.errText.SizeName = theme.SizeNameCaptionText // the hints' size: it takes their place
	d.errText.Importance = widget.DangerImportance
	d.errText.Wrapping = fyne.TextWrapWord
	d.errText.Hide()
	c := d.r.Content()
	card := d.messageCard(body)

	var middle fyne.CanvasObject
	if g, ok := d.r.(grower); ok && c != nil && g.Grows() {
		// The controls (a form's fields) take any height the person gives
		// the window; the message keeps its own.
		above := container.NewVBox()
		if head != nil {
			above.Add(head)
		}
		above.Add(card)
		above.Add(d.stopped)
		middle = container.NewBorder(above, nil, nil, nil, c)
	} else {
		// The message takes any height the person gives the window.
		below := container.NewVBox(d.stopped)
		if c != nil {
			below.Add(c)
		}
		middle = container.NewBorder(head, below, nil, nil, card)
	}
	m := margin()
	d.body = &bodyLayout{scroll: container.NewVScroll(middle)}
	return container.New(minWidth(minDialogWidth-2*theme.Padding()), container.New(layout.NewCustomPaddedLayout(m/2, m/2, m, m),
		container.NewBorder(top, d.bar(), nil, nil, container.New(d.body, d.body.scroll))))
}

// bodyLayout holds the dialog's body, everything between who asks and the
// buttons, in a vertical scroll as tall as the body up to room: on a
// screen too short for the dialog (a laptop at 150 %) the body scrolls
// and the buttons stay in view. Its methods run on the Fyne goroutine.
type bodyLayout struct {
	scroll *container.Scroll
	room   float32 // the most height the body takes; 0: no limit
}

// MinSize is the body's, its height held to room.
func (l *bodyLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	m := l.scroll.Content.MinSize()
	if l.room > 0 {
		m.Height = min(m.Height, l.room)
	}
	return m
}

// Layout gives the scroll the whole space.
func (l *bodyLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	l.scroll.Move(fyne.NewPos(0, 0))
	l.scroll.Resize(size)
}

// agentMarkWidth is the width of the bar in the agent's colour.
const agentMarkWidth = 4

// top builds the dialog's first lines: the headline saying who asks and
// where, large (present.Headline); the client, its session by project and
// start, and the time left, small; the queue line, hidden until others
// wait; a separator.
func (d *questionDialog) top() fyne.CanvasObject {
	d.headline = widget.NewLabelWithStyle(present.Headline(&d.q, d.home), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	d.headline.SizeName = theme.SizeNameSubHeadingText
	d.headline.Wrapping = fyne.TextWrapWord
	d.client = uikit.SmallLabel(present.SessionLine(d.q.Client, d.q.Cwd, d.sessionStart(d.q), time.Local))
	d.client.Truncation = fyne.TextTruncateEllipsis
	d.times = uikit.SmallLabel("")
	d.times.Alignment = fyne.TextAlignTrailing
	d.queueText = uikit.SmallLabel("")
	d.queueText.Truncation = fyne.TextTruncateEllipsis
	d.queueText.Importance = widget.WarningImportance
	next := newDialogButton(d, "Next", nil, func() {
		if d.onNext != nil {
			d.onNext()
		}
	})
	next.Icon, next.IconPlacement, next.Importance = theme.NavigateNextIcon(), widget.ButtonIconTrailingText, widget.LowImportance
	d.queue = container.NewBorder(nil, nil, nil, next, d.queueText)
	d.queue.Hide()
	// A bar in the agent's own colour (uitheme.AgentColor) beside who asks:
	// the same agent always wears the same colour.
	d.agentMark = canvas.NewRectangle(uitheme.AgentColor(d.q.Client.Name, fyne.CurrentApp().Settings().ThemeVariant()))
	d.agentMark.SetMinSize(fyne.NewSize(agentMarkWidth, 0))
	d.agentMark.CornerRadius = agentMarkWidth / 2
	who := container.NewBorder(nil, nil, d.agentMark, nil,
		container.NewVBox(d.headline, container.NewBorder(nil, nil, nil, d.times, d.client)))
	return container.NewVBox(newMoveHandle(who, func() fyne.Window { return d.win }), d.queue, widget.NewSeparator())
}

// titleAndBody returns the dialog's bold title and its Markdown message
// (present.TitleAndBody).
func (d *questionDialog) titleAndBody() (title, body string) { return present.TitleAndBody(d.q) }

// messageCard puts the Markdown md on a card, scrolling when it is long.
func (d *questionDialog) messageCard(md string) fyne.CanvasObject {
	view, parts := markdown.MessageView(markdown.Render(md))
	d.message = parts
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.InputRadiusSize()
	card := container.NewStack(bg, container.NewPadded(view))
	for range 2 {
		card.Resize(fyne.NewSize(contentWidth(), card.MinSize().Height))
	}
	scroll := container.NewVScroll(card)
	scroll.SetMinSize(fyne.NewSize(0, min(card.MinSize().Height, d.messageRoom())))
	d.messageBox = scroll
	d.below = uikit.SmallLabel("")
	d.below.Importance = widget.WarningImportance
	scroll.OnScrolled = func(fyne.Position) { d.updateBelow(scroll) }
	d.updateBelow(scroll)
	return container.NewBorder(nil, d.below, nil, nil, scroll)
}

// messageRoom is the most height the message box takes before it scrolls
// (the person may give it more by making the window taller).
func (d *questionDialog) messageRoom() float32 {
	if d.q.Kind == question.KindApproval {
		return maxCommandHeight
	}
	if g, ok := d.r.(grower); ok && g.Grows() {
		return maxMessageHeightGrowing
	}
	return maxMessageHeight
}

// updateBelow says how much of the message is below the visible part of
// its box ("12 more lines below"), or hides the line when nothing is. It
// runs on the Fyne goroutine.
func (d *questionDialog) updateBelow(scroll *container.Scroll) {
	content := scroll.Content.MinSize().Height
	visible := scroll.Size().Height
	if visible <= 0 {
		visible = min(content, d.messageRoom())
	}
	hidden := content - visible - scroll.Offset.Y
	line := fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{}).Height
	if n := int(hidden / line); n > 0 {
		d.below.SetText("⌄ " + present.CountNoun(n, "more line") + " below")
		d.below.Show()
		return
	}
	d.below.Hide()
}

// bar builds the bottom bar: Snooze on the left, the answer buttons on the
// right with the default one last-but-not-always (the kind decides), and
// above them the unlock hint, replaced by a key hint once armed.
func (d *questionDialog) bar() fyne.CanvasObject {
	d.snoozeMenu = fyne.NewMenu("Snooze")
	d.snoozeButton = newDialogButton(d, "Snooze", nil, d.showSnoozeMenu)
	d.snoozeButton.Icon = theme.HistoryIcon()
	d.snoozeButton.Importance = widget.LowImportance
	if d.q.Kind == question.KindNotice {
		d.snoozeButton.Hide() // a notice only tells: nothing waits on it to put off
	}

	right := container.NewHBox()
	stack := container.NewVBox()
	for _, a := range d.r.Actions() {
		b := newDialogButton(d, a.label, a, nil)
		b.Icon = a.icon
		b.Importance = a.importance
		if a.isDefault {
			d.defaultButton = b
		}
		if a.isNo {
			d.noButton = b
		}
		if a.do != nil {
			d.alwaysButton = b
		}
		d.buttons = append(d.buttons, b)
		var o fyne.CanvasObject = b
		if a.outlined {
			o = outlinedButton(b)
		}
		right.Add(container.New(minWidth(minButtonWidth), o))
		stack.Add(o)
	}

	d.assignMnemonics()
	d.unlockHint = uikit.SmallLabel("")
	d.unlockHint.Alignment = fyne.TextAlignTrailing
	d.keysHint = uikit.SmallLabel(d.keyHelp())
	d.keysHint.Alignment = fyne.TextAlignTrailing
	// An error shows in the hints' place, over the buttons: nothing above
	// it moves when it appears (it moved the rows 40 px under the pointer).
	hints := container.NewStack(d.unlockHint, d.keysHint, d.errText)
	left := container.NewHBox(d.snoozeButton)
	if b := d.newWebButton(); b != nil {
		left.Add(b)
	}
	// The answer buttons come first in the Tab order, Snooze and Browser
	// after them, wherever they are drawn.
	var buttons fyne.CanvasObject = container.New(layout.NewBorderLayout(nil, nil, left, right), right, left, layout.NewSpacer())
	if right.MinSize().Width+left.MinSize().Width+theme.Padding() > contentWidth() {
		// Long custom labels: one full-width button a row, so none is cut off.
		buttons = container.NewVBox(stack, left)
	}
	return container.New(layout.NewCustomPaddedLayout(2*theme.Padding(), 0, 0, 0), container.NewVBox(
		widget.NewSeparator(),
		hints,
		buttons,
	))
}

// keyHelp names the keys that work once the buttons are armed.
func (d *questionDialog) keyHelp() string {
	var parts []string
	if n := len(d.q.Options); n > 1 && (d.q.Kind != question.KindText || !d.q.FreeText) {
		verb := "pick"
		if d.q.Kind == question.KindMultiChoice {
			verb = "toggle"
		}
		parts = append(parts, fmt.Sprintf("1–%d: %s", min(n, 9), verb))
	}
	if d.defaultButton != nil {
		parts = append(parts, "Enter: "+d.defaultButton.Text)
	}
	if d.noButton != nil {
		parts = append(parts, "Esc: "+d.noButton.Text)
	} else {
		parts = append(parts, "Esc: cancel")
	}
	if d.q.Kind == question.KindText && d.q.Multiline && d.q.FreeText {
		parts[len(parts)-2] = "Ctrl+Enter: " + d.defaultButton.Text
	}
	parts = append(parts, d.mnemonicHelp()...)
	return strings.Join(parts, "  ·  ")
}

// fit sizes the window to its content at dialogWidth, never taller than
// the screen's work area (d.room): past that the body scrolls.
func (d *questionDialog) fit() {
	c := d.win.Content()
	inner := contentWidth() + 2*margin()
	d.body.room = 0
	for range 3 { // wrapped text knows its height only once it has a width
		c.Resize(fyne.NewSize(inner, c.MinSize().Height))
	}
	tallest := float32(maxDialogHeight)
	if d.room != nil {
		if r := d.room(); r > 0 {
			tallest = min(tallest, r)
		}
	}
	if over := c.MinSize().Height + 2*theme.Padding() - tallest; over > 0 {
		d.body.room = max(d.body.scroll.Content.MinSize().Height-over, minBodyHeight)
	}
	h := min(c.MinSize().Height+2*theme.Padding(), tallest)
	d.win.Resize(fyne.NewSize(dialogWidth, h))
}

// minBodyHeight is the least a body held to a short screen keeps: a few lines.
const minBodyHeight = 96

// timesLine says when the question was asked and how long is left.
func timesLine(created, deadline, now time.Time) string {
	return "asked " + created.Local().Format("15:04:05") + "  ·  " + present.TimeLeft(deadline.Sub(now))
}

// noticeTimeLine is a notice's: when it came, no countdown (nobody waits on
// it).
func noticeTimeLine(created time.Time) string {
	return "sent " + created.Local().Format("15:04:05")
}

// newIconRow puts icon left of a (wrapped) label, lined up with its first line.
func newIconRow(icon fyne.CanvasObject, label fyne.CanvasObject) fyne.CanvasObject {
	pad := (theme.TextSize()*1.2 + 2*theme.InnerPadding() - theme.IconInlineSize()) / 2
	top := container.New(layout.NewCustomPaddedLayout(max(pad, 0), 0, theme.Padding(), 0), icon)
	return container.NewBorder(nil, nil, container.NewVBox(top), nil, label)
}

// minWidth lays out one object at least w wide.
type minWidth float32

// MinSize is the object's, widened to w.
func (w minWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	s := objs[0].MinSize()
	return fyne.NewSize(max(s.Width, float32(w)), s.Height)
}

// Layout gives the object all the room.
func (w minWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(size)
}
