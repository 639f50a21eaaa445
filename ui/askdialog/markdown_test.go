package askdialog

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// walkSegments calls f for every segment, descending into lists and paragraphs.
func walkSegments(segs []widget.RichTextSegment, f func(widget.RichTextSegment)) {
	for _, s := range segs {
		f(s)
		switch s := s.(type) {
		case *widget.ListSegment:
			walkSegments(s.Items, f)
		case *widget.ParagraphSegment:
			walkSegments(s.Texts, f)
		}
	}
}

func TestMarkdown_DialogMessageHasNoLinks(t *testing.T) {
	e := newDialogEnv(t)
	q := confirmQ()
	q.Message = "Open [this](https://example.com)?"
	d := e.ask(q)
	if len(d.message) == 0 {
		t.Fatal("no message")
	}
	for _, part := range d.message {
		walkSegments(part.Segments, func(s widget.RichTextSegment) {
			if _, ok := s.(*widget.HyperlinkSegment); ok {
				t.Fatal("dialog message has a clickable link")
			}
		})
	}
	for _, o := range test.LaidOutObjects(d.win.Content()) {
		if _, ok := o.(*widget.Hyperlink); ok {
			t.Fatal("a Hyperlink widget was laid out")
		}
	}
}
