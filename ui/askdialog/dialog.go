package askdialog

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// questionDialog is the top-level window of one pending question: who asks,
// the message, the kind's controls (its renderer) and a bar with Snooze,
// Decline and the answer buttons, all behind a guard (see guard). Its key
// routing (keyRouter) and its menus (dialogMenus) are types of their own.
// It is created, used and closed on the Fyne goroutine only.
type questionDialog struct {
	dialogShared
	keyRouter
	dialogMenus

	q    question.Question
	win  fyne.Window
	r    renderer
	root *dialogRoot
	body *bodyLayout // the scrolling body between who asks and the buttons

	popup      *widget.PopUp // the open modal pop-up (a date picker), or nil
	closePopup func()        // closes popup

	reused   bool // the window was shown before, for an earlier question
	pinned   bool // its size is fixed for its first map (wmtype.go)
	typed    bool // markShown ran
	armedLog bool // "dialog armed" was logged for the current arming
	// enterEarly: Enter came while the buttons were locked; the unlock
	// hint says it sent nothing until they unlock.
	enterEarly bool
	built      struct{ content, fit time.Duration }
	shownAt    time.Time
	visible    bool
	done       bool                // answered, or closing: no further input acts
	onClosed   func(external bool) // set by the manager; runs once the window is gone, external when not closed by the dialog (the app quits)
	onShown    func()              // set by the manager; runs when the window is shown or hidden
	onHidden   func()              // set by the manager; runs when the dialog stops being open (hidden, closing)
	onNext     func()              // set by the manager; the queue line's Next

	// Widgets, for the layout and for tests.
	headline      *widget.Label     // who asks and where
	agentMark     *canvas.Rectangle // a bar in the asking agent's colour
	client, times *widget.Label
	header        *widget.Label
	below         *widget.Label      // how much of the message is below its box, when it scrolls
	message       []*widget.RichText // the message's text and code blocks
	messageBox    *container.Scroll  // the message's box
	stopped       *fyne.Container
	queue         *fyne.Container // the queue line and Next, shown while others wait
	queueText     *widget.Label
	errText       *widget.Label
	unlockHint    *widget.Label
	keysHint      *widget.Label
	buttons       []*dialogButton
}

// newQuestionDialog builds the window for q without showing it, with env's
// app, broker, clock and settings (its arm delay already clamped by
// question.ClampArmDelay). It must be called on the Fyne goroutine.
func newQuestionDialog(env dialogShared, q question.Question) (*questionDialog, error) {
	d := &questionDialog{dialogShared: env, q: q}
	d.keys = d
	start := time.Now()
	r, err := newRenderer(&d.q, d)
	if err != nil {
		return nil, err
	}
	d.r = r
	d.root = newDialogRoot(d.layout(), d)
	d.built.content = time.Since(start)
	d.win, d.reused = d.windows.get(d.app, q.Client.DisplayName()+" asks")
	d.guard = newGuard(d.clock, d.armDelay, d.win.Canvas, d.root, d.guardChanged)
	// Width first: every wrapped text re-wraps when its width changes, which
	// costs tens of milliseconds for a long message.
	d.win.Resize(fyne.NewSize(dialogWidth, 1))
	d.win.SetContent(d.root)
	d.win.SetCloseIntercept(d.closeRequested)
	d.win.SetOnClosed(d.windowClosed)
	// The canvas gets keys only while no widget has focus, which the root
	// prevents; these are a safety net.
	if kc, ok := d.win.Canvas().(desktop.Canvas); ok {
		kc.SetOnKeyDown(d.keyDown)
		kc.SetOnKeyUp(d.keyUp)
	}
	d.win.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) { d.typedKey(ev, nil) })
	start = time.Now()
	d.fit()
	d.built.fit = time.Since(start)
	d.guardChanged()
	d.tick()
	return d, nil
}

// show shows and raises the window and puts keyboard focus on the first
// control. The guard arms once the window manager actually gives the
// window focus (GLFW then calls FocusGained on that control) and the arm
// delay has passed; a window manager that refuses to focus a new window
// (focus-stealing prevention, fyne-io/fyne#3451) leaves it locked until the
// person clicks into it. center centres the window. Only the manager's
// open dialog is shown (see Manager). Runs on the Fyne goroutine.
//
// The control is focused before the window is shown: a window that is
// active the moment it is shown (Win32 activates it inside ShowWindow, as
// Wine's virtual desktop does, and Windows can too for a foreground
// process) gets its one focus event during Show, and Fyne hands that event
// only to the canvas's focused widget, so with none yet the guard would
// never see the window gain focus and would stay locked.
func (d *questionDialog) show(center bool) {
	if d.done {
		return
	}
	if !d.visible {
		d.shownAt = d.clock.now()
		d.visible = true
		focus := d.r.Focus()
		if focus == nil {
			focus = d.root
		}
		d.guard.focusQuietly(focus)
	}
	if center {
		d.win.CenterOnScreen()
	}
	d.pinFirstMap()
	d.win.Show()
	d.markShown()
	if center && d.reused {
		// Fyne shows a window again where it last saw it, which is not yet
		// where CenterOnScreen has just asked for.
		d.win.CenterOnScreen()
	}
	d.win.RequestFocus()
	d.tick()
	d.visibilityChanged()
}

func (d *questionDialog) visibilityChanged() {
	if d.onShown != nil {
		d.onShown()
	}
}

// hide hides the window (a snooze) and disarms. Runs on the Fyne goroutine.
func (d *questionDialog) hide() {
	if !d.visible || d.done {
		return
	}
	d.visible = false
	d.guard.deactivate()
	d.win.Hide()
	d.visibilityChanged()
	d.gone()
}

// gone tells the manager that the dialog is no longer the open one.
func (d *questionDialog) gone() {
	if d.onHidden != nil {
		d.onHidden()
	}
}

// close closes the window for good; the manager forgets the dialog in
// onClosed. It is safe to call more than once. Runs on the Fyne goroutine.
func (d *questionDialog) close() {
	d.done, d.visible = true, false
	d.guard.end()
	w := d.win
	if w == nil {
		return
	}
	// The next question may open now, while this window is still hidden
	// and waiting to be destroyed.
	d.gone()
	if d.windows.put(w) { // hidden and emptied, for the next question
		d.windowClosed()
		return
	}
	if closeDelay <= 0 {
		w.Close() // calls windowClosed
		return
	}
	// Unmap first and destroy a moment later: Fyne 2.7.1 crashes when GLFW
	// delivers a pointer event to a window that is being closed and the
	// cursor shape changes (processMouseMoved calls SetInputMode on the nil
	// view). Seen under Xvfb when a question was withdrawn with the pointer
	// over its dialog. A hidden window gets no pointer events.
	w.Hide()
	time.AfterFunc(closeDelay, func() { fyne.Do(w.Close) })
}

// closeDelay is how long a dialog stays hidden before its window is
// destroyed; tests on Fyne's test driver set it to 0.
var closeDelay = 300 * time.Millisecond

func (d *questionDialog) windowClosed() {
	external := !d.done
	d.done, d.visible = true, false
	d.guard.end()
	d.win = nil
	if d.onClosed != nil {
		d.onClosed(external)
	}
}

// closeRequested handles the window's close button: it cancels the
// question. A click on the title bar is deliberate, so it needs no arming.
func (d *questionDialog) closeRequested() {
	if !d.done {
		d.answer("Close", "window-close", func() (question.Response, error) {
			return question.Response{Action: question.Cancel}, nil
		})
	}
	d.close()
}

// update takes a newer copy of the question (deadline moved by a snooze). Runs on the Fyne goroutine.
func (d *questionDialog) update(q question.Question) {
	d.q.Deadline, d.q.SnoozeUntil = q.Deadline, q.SnoozeUntil
	d.tick()
}

// setQueue shows how many questions wait behind this one and which comes
// next ("1 of 3  ·  next: cursor — …"), or hides the line when none does.
// Runs on the Fyne goroutine.
func (d *questionDialog) setQueue(waiting int, next *question.Question) {
	line := present.QueueLine(waiting, next, d.home)
	if line == "" {
		d.queue.Hide()
		return
	}
	d.queueText.SetText(line)
	d.queue.Show()
}

// setStopped shows or hides the line saying the agent stopped waiting. Runs on the Fyne goroutine.
func (d *questionDialog) setStopped(on bool) {
	if on {
		d.stopped.Show()
	} else {
		d.stopped.Hide()
	}
}

// tick refreshes the time-left label; the manager calls it once a second. Runs on the Fyne goroutine.
func (d *questionDialog) tick() {
	if d.q.Kind == question.KindNotice {
		d.times.SetText(noticeTimeLine(d.q.Created))
		return
	}
	d.times.SetText(timesLine(d.q.Created, d.q.Deadline, d.clock.now()))
}

// guardChanged enables the answer buttons exactly while the guard is armed.
func (d *questionDialog) guardChanged() {
	d.unpin()
	armed := d.guard.armed && !d.done
	if armed && !d.armedLog {
		d.log.Info("dialog armed", "id", d.q.ID, "since_shown_ms", d.clock.now().Sub(d.shownAt).Milliseconds(),
			"dropped_edits", d.guard.dropped, "arming_restarts", d.guard.restarts)
	}
	d.armedLog = armed
	for _, b := range d.buttons {
		if armed {
			b.Enable()
		} else {
			b.Disable()
		}
	}
	why := ""
	switch {
	case armed:
		d.enterEarly = false
	case d.guard.typing:
		why = "Answer buttons unlock once you stop typing"
	case d.guard.active:
		why = "Answer buttons unlock in a moment"
	default:
		why = "Answer buttons unlock when this window has focus"
	}
	if d.enterEarly {
		why = "Enter sent nothing: " + strings.ToLower(why[:1]) + why[1:]
	}
	d.unlockHint.SetText(why)
	d.showHints()
}

// showHints shows, above the buttons, the error if there is one, else the
// key hint once armed, else why the buttons are locked. Runs on the Fyne
// goroutine.
func (d *questionDialog) showHints() {
	armed, erred := d.guard.armed && !d.done, d.errText.Visible()
	for _, h := range []struct {
		l  *widget.Label
		on bool
	}{{d.unlockHint, !armed && !erred}, {d.keysHint, armed && !erred}} {
		if h.on {
			h.l.Show()
		} else {
			h.l.Hide()
		}
	}
}

// changed clears a stale error when the person edits the input.
func (d *questionDialog) changed() { d.showError(nil) }

// focusGained implements inputSink: the guard hears of it, and a renderer
// whose controls scroll brings the focused one into view (Tab).
func (d *questionDialog) focusGained(w fyne.Focusable) {
	d.keyRouter.focusGained(w)
	if rv, ok := d.r.(revealer); ok {
		rv.Reveal(w)
	}
}

func (d *questionDialog) showError(err error) {
	if err == nil {
		if d.errText.Visible() {
			d.errText.Hide()
			d.showHints()
		}
		return
	}
	d.errText.SetText(present.UpperFirst(err.Error()))
	d.errText.Show()
	d.showHints()
}

// panelKey implements keyTarget.
func (d *questionDialog) panelKey(ev *fyne.KeyEvent, from fyne.Focusable) (took, open bool) {
	if d.popupKey(ev) {
		return true, true
	}
	if d.always == nil {
		return false, false
	}
	return d.always.typedKey(ev, from), true
}

// ended implements keyTarget.
func (d *questionDialog) ended() bool { return d.done }

// cancel implements keyTarget.
func (d *questionDialog) cancel(input string) {
	d.answer("Cancel", input, func() (question.Response, error) {
		return question.Response{Action: question.Cancel}, nil
	})
}

// pick implements keyTarget.
func (d *questionDialog) pick(n int) { d.r.Pick(n) }

// run implements keyTarget: it runs button b's action.
func (d *questionDialog) run(b *dialogButton, input string) {
	if d.done || b.act == nil {
		return
	}
	if b.act.do != nil {
		b.act.do()
		return
	}
	respond := b.act.respond
	if respond == nil {
		respond = d.r.Answer
	}
	d.answer(b.act.label, input, respond)
}

// answer checks the response respond builds, gives it to the broker and
// closes the window; a response the question refuses shows inline and the
// question stays pending. Broker.Answer blocks until the outcome is durable
// (one journal write), on the Fyne goroutine, so no second answer can race it.
func (d *questionDialog) answer(control, input string, respond func() (question.Response, error)) {
	resp, err := respond()
	if err == nil {
		resp.Via = question.ViaDialog
		resp, err = d.q.CheckResponse(resp)
	}
	if err == nil && present.RefusesUnseen(&d.q, resp) {
		err = present.ErrUnseen
	}
	if err != nil {
		d.showError(err)
		return
	}
	err = d.broker.Answer(d.q.ID, resp)
	switch {
	case errors.Is(err, question.ErrInvalid):
		d.showError(err)
		return
	case errors.Is(err, question.ErrNotPending), errors.Is(err, question.ErrNotFound), errors.Is(err, question.ErrClosed):
		d.log.Info("question already ended", "id", d.q.ID, "control", control)
	case err != nil:
		d.showError(fmt.Errorf("could not record the answer: %w", err))
		return
	default:
		d.logAnswer(control, input, resp.Action)
	}
	d.done = true
	d.close()
}

func (d *questionDialog) logAnswer(control, input string, a question.Action) {
	now := d.clock.now()
	attrs := []any{
		"id", d.q.ID, "kind", string(d.q.Kind), "client", d.q.Client.DisplayName(),
		"action", string(a), "control", control, "input", input,
		"since_shown_ms", now.Sub(d.shownAt).Milliseconds(),
		"ignored_inputs", d.guard.rejected, "dropped_edits", d.guard.dropped, "arming_restarts", d.guard.restarts,
	}
	if d.guard.armed {
		attrs = append(attrs, "since_armed_ms", now.Sub(d.guard.armedAt).Milliseconds())
	}
	d.log.Info("question answered in dialog", attrs...)
}

// snooze puts the question off until until and hides the window. Runs on the Fyne goroutine.
func (d *questionDialog) snooze(until time.Time) {
	if d.done {
		return
	}
	if err := d.broker.Snooze(d.q.ID, until); err != nil {
		d.showError(err)
		return
	}
	d.log.Info("question snoozed", "id", d.q.ID, "until", until.Format(time.RFC3339))
	d.q.SnoozeUntil = until
	d.hide()
}
