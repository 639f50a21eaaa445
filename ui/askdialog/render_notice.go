package askdialog

import (
	"encoding/json"

	"fyne.io/fyne/v2"

	"github.com/asktray/asktray/app/question"
)

// noticeRenderer shows a notice: the message alone, acknowledged with OK
// (an accept, present.Answers), its one button; Esc dismisses it. A notice opens only when
// the person asks for it (the tray menu, its notification): by itself it
// is a notification (see Manager). Its methods run on the Fyne goroutine.
type noticeRenderer struct {
	noPick
	q *question.Question
}

func newNoticeRenderer(q *question.Question, _ host) (renderer, error) {
	return noticeRenderer{q: q}, nil
}

// Content returns nil: the dialog shows the message.
func (noticeRenderer) Content() fyne.CanvasObject { return nil }

// Actions returns OK, the default.
func (r noticeRenderer) Actions() []*action { return answerActions(r.q, fixedReply) }

// Answer acknowledges the notice.
func (noticeRenderer) Answer() (question.Response, error) {
	return question.Response{Action: question.Accept, Value: json.RawMessage(`"ok"`)}, nil
}

// Focus leaves focus on the dialog.
func (noticeRenderer) Focus() fyne.Focusable { return nil }
