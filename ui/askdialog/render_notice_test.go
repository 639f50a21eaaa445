package askdialog

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app/question"
)

func TestNoticeDialog_OKAcknowledges(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindNotice, Message: "Deploy finished: **v1.4.2** is live."})
	d.guard.arm()
	test.Tap(findButton(t, d, "OK"))
	if res := e.result(d.q.ID); res.Outcome != question.Answered || string(res.Value) != `"ok"` {
		t.Fatalf("result %+v %s", res, res.Value)
	}
}

// TestNoticeDialog_NoCountdownNoSnooze: a notice is not a question, so its
// dialog offers no Snooze and counts nothing down (issue 37 item 11).
func TestNoticeDialog_NoCountdownNoSnooze(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindNotice, Message: "Build finished", Deadline: time.Now().Add(time.Hour)})
	if d.snoozeButton.Visible() {
		t.Fatal("a notice's dialog shows Snooze")
	}
	if got := d.times.Text; !strings.HasPrefix(got, "sent ") || strings.Contains(got, "left") {
		t.Fatalf("a notice's time line %q", got)
	}
	// A question beside it keeps both.
	c := newDialogEnv(t).ask(question.Question{Kind: question.KindConfirm, Message: "ok?", Deadline: time.Now().Add(time.Hour)})
	if !c.snoozeButton.Visible() || !strings.Contains(c.times.Text, "left") {
		t.Fatalf("a confirm's dialog: Snooze shown %v, time line %q", c.snoozeButton.Visible(), c.times.Text)
	}
}
