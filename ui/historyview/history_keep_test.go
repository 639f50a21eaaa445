package historyview

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/question"
)

// TestHistory_BoundedWhileBusy is item 9 of issue 37: with History open
// and a row selected, 3,000 rule answers arrive (the last 40 the same
// command, one group); the window never holds more than historyKeep
// records, the selected record let go keeps its details, scrolling down
// reloads the old rows from the store (the selection back on its row),
// a new answer while the person reads far below waits in the store, and
// scrolling back up reloads the newest with the group's head whole.
func TestHistory_BoundedWhileBusy(t *testing.T) {
	s, path := busyStorePath(t, 500)
	x := attachHarness(t, test.NewTempApp(t), s)
	x.h.coalesce = time.Millisecond
	x.show()
	x.h.win.Resize(fyne.NewSize(1000, 640))
	h := x.h
	h.list.Select(3)
	sel := h.selectedID
	if sel == "" {
		t.Fatal("no row selected")
	}
	bounded := func(when string) {
		t.Helper()
		if len(h.rows) > historyKeep || len(h.keys) > historyKeep {
			t.Fatalf("%s: %d rows, %d keys loaded, want at most %d", when, len(h.rows), len(h.keys), historyKeep)
		}
	}
	const answers = 3000
	at := histNow.Add(time.Minute)
	for i := 0; i < answers; i += 100 { // stored 100 at a time (Begin and End each would take 30 s), told one by one
		recs, events := make([]history.Record, 0, 100), make([]question.Event, 0, 200)
		for j := i; j < i+100; j++ {
			cmd := fmt.Sprintf("npm test -- --shard=%d", j)
			if j >= answers-40 {
				cmd = "npm test"
			}
			rec, asked, ended := busyRecord(j, at.Add(time.Duration(j)*time.Second), cmd)
			recs, events = append(recs, rec), append(events, asked, ended)
		}
		if err := bulkInsert(path, recs); err != nil {
			t.Fatal(err)
		}
		for _, ev := range events {
			h.Handle(ev)
		}
		x.wait()
		bounded(fmt.Sprintf("after %d answers", i+100))
	}
	x.contiguous(s, "after the answers")
	newest := fmt.Sprintf("busy%06d", answers-1)
	if h.rows[0].Question.ID != newest || len(h.rows) != historyKeep || h.next == "" || h.newer {
		t.Fatalf("top %s, %d rows, next %q, newer %v; want %s over %d and more below", h.rows[0].Question.ID, len(h.rows), h.next, h.newer, newest, historyKeep)
	}
	if h.indexOf(sel) >= 0 || h.selectedID != sel || !h.selOut || h.detail.rec.Question.ID != sel || h.selIdx != -1 {
		t.Fatalf("selection %q (out %v, row %d, details %q), want %s let go with its details kept", h.selectedID, h.selOut, h.selIdx, h.detail.rec.Question.ID, sel)
	}
	if g := h.view[0].group; g == nil || len(g.members) != 40 {
		t.Fatalf("first row %+v, want the head of the 40 identical answers", h.view[0])
	}

	// Scrolling down reloads the old rows, and the selection comes back.
	for i := 0; h.indexOf(sel) < 0; i++ {
		if i == 60 {
			t.Fatalf("scrolled down 60 times, %s not loaded (%d rows, next %q)", sel, len(h.rows), h.next)
		}
		h.list.ScrollToBottom()
		x.wait()
		bounded(fmt.Sprintf("scrolling down %d", i))
	}
	x.contiguous(s, "scrolled down")
	if !h.newer || h.selOut || h.selIdx < 0 || h.rows[h.view[h.selIdx].rec].Question.ID != sel {
		t.Fatalf("scrolled down: newer %v, selection %q at %d (out %v), want %s selected and the top let go", h.newer, h.selectedID, h.selIdx, h.selOut, sel)
	}

	// A new answer while the person reads far below waits in the store.
	top := h.rows[0].Question.ID
	asked, ended, err := ruleAnswerCmd(s, answers, at.Add(answers*time.Second), "npm test")
	if err != nil {
		t.Fatal(err)
	}
	h.Handle(asked)
	h.Handle(ended)
	x.wait()
	if h.rows[0].Question.ID != top || h.indexOf(asked.Question.ID) >= 0 {
		t.Fatalf("the new answer was loaded above the rows let go: top %s", h.rows[0].Question.ID)
	}
	bounded("a new answer while scrolled down")

	// Scrolling back up reloads the newest, the group's head whole.
	for i := 0; h.newer; i++ {
		if i == 60 {
			t.Fatalf("scrolled up 60 times, still newer rows let go (top %s)", h.rows[0].Question.ID)
		}
		h.list.ScrollToTop()
		x.wait()
		bounded(fmt.Sprintf("scrolling up %d", i))
	}
	x.contiguous(s, "scrolled back up")
	if h.rows[0].Question.ID != asked.Question.ID || h.view[0].group == nil || len(h.view[0].group.members) != 41 {
		t.Fatalf("top %s (%+v), want the new answer heading a group of 41", h.rows[0].Question.ID, h.view[0])
	}
	if h.selectedID != sel || h.detail.rec.Question.ID != sel {
		t.Fatalf("selection %q, details %q; want %s kept", h.selectedID, h.detail.rec.Question.ID, sel)
	}
}

// contiguous fails the test unless the loaded rows are the store's records
// in order with none missing between them.
func (x *histHarness) contiguous(s history.Store, when string) {
	x.t.Helper()
	rows := x.h.rows
	if len(rows) < 2 {
		return
	}
	p, err := s.List(context.Background(), history.Filter{Cursor: history.CursorAt(rows[0]), Limit: len(rows) - 1})
	if err != nil {
		x.t.Fatal(err)
	}
	got, want := x.ids()[1:], make([]string, 0, len(p.Records))
	for _, r := range p.Records {
		want = append(want, r.Question.ID)
	}
	if !slices.Equal(got, want) {
		x.t.Fatalf("%s: the loaded rows skip or repeat records of the store", when)
	}
}
