package askdialog

import (
	"testing"

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
