package askdialog

import (
	"encoding/json"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
)

// noticeRenderer shows a notice: the message alone, acknowledged with OK
// (an accept), its one button; Esc dismisses it. A notice opens only when
// the person asks for it (the tray menu, its notification): by itself it
// is a notification (see Manager). Its methods run on the Fyne goroutine.
type noticeRenderer struct{ noPick }

func newNoticeRenderer(*question.Question, host) (renderer, error) { return noticeRenderer{}, nil }

// Content returns nil: the dialog shows the message.
func (noticeRenderer) Content() fyne.CanvasObject { return nil }

// Actions returns OK, the default.
func (noticeRenderer) Actions() []*action {
	return []*action{{label: "OK", icon: theme.ConfirmIcon(), importance: widget.HighImportance, isDefault: true}}
}

// Answer acknowledges the notice.
func (noticeRenderer) Answer() (question.Response, error) {
	return question.Response{Action: question.Accept, Value: json.RawMessage(`"ok"`)}, nil
}

// Focus leaves focus on the dialog.
func (noticeRenderer) Focus() fyne.Focusable { return nil }
