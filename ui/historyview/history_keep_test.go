package historyview

import (
	"context"
	"fmt"
	"slices"
	"strings"
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
	x.feed(path, 0, answers, at, func(j int) string {
		if j >= answers-40 {
			return "npm test"
		}
		return fmt.Sprintf("npm test -- --shard=%d", j)
	}, bounded)
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

// feed stores answers from to from+n-1 of a busy agent a second apart
// from at, 100 at a time (Begin and End each would take 30 s for 3,000),
// tells the window each one's events, and calls check after each 100.
func (x *histHarness) feed(path string, from, n int, at time.Time, command func(int) string, check func(string)) {
	x.t.Helper()
	for i := from; i < from+n; i += 100 {
		recs, events := make([]history.Record, 0, 100), make([]question.Event, 0, 200)
		for j := i; j < min(i+100, from+n); j++ {
			rec, asked, ended := busyRecord(j, at.Add(time.Duration(j)*time.Second), command(j))
			recs, events = append(recs, rec), append(events, asked, ended)
		}
		if err := bulkInsert(path, recs); err != nil {
			x.t.Fatal(err)
		}
		for _, ev := range events {
			x.h.Handle(ev)
		}
		x.wait()
		check(fmt.Sprintf("after %d answers", i+len(recs)-from))
	}
}

// TestHistory_BoundedUnderOneGroup is TestHistory_BoundedWhileBusy when
// every answer is the same command: 2,000 of them are one closed group at
// the top, over the older rows; the group's hidden members are let go
// (holes) while its head counts them all, and opening it reads them again.
func TestHistory_BoundedUnderOneGroup(t *testing.T) {
	s, path := busyStorePath(t, 500)
	x := attachHarness(t, test.NewTempApp(t), s)
	x.h.coalesce = time.Millisecond
	x.show()
	x.h.win.Resize(fyne.NewSize(1000, 640))
	h := x.h
	bounded := func(when string) {
		t.Helper()
		if len(h.rows) > historyKeep || len(h.keys) > historyKeep {
			t.Fatalf("%s: %d rows, %d keys loaded, want at most %d", when, len(h.rows), len(h.keys), historyKeep)
		}
	}
	at := histNow.Add(time.Minute)
	x.feed(path, 0, 2000, at, func(int) string { return "npm test" }, bounded)
	g := h.view[0].group
	if g == nil || g.size() != 2000 || g.hidden == 0 || h.rows[h.view[1].rec].Question.ID != "b000000" {
		t.Fatalf("first rows %+v then %s, want the head of 2,000 (some let go) over the old rows", h.view[0], h.rows[h.view[1].rec].Question.ID)
	}
	if _, times := groupLine(h.rows, g, histNow, h.next != ""); !strings.HasPrefix(times, "2,000 times") {
		t.Fatalf("the head says %q, want 2,000 times", times)
	}

	// Opening it reads its members again, in order, none missing.
	h.list.Select(0)
	x.wait()
	if g := h.view[0].group; g == nil || !g.open || h.rows[h.view[1].rec].Question.ID != "busy001999" || h.rows[h.view[2].rec].Question.ID != "busy001998" {
		t.Fatalf("opened: %+v, then %v", h.view[0], h.view[1:3])
	}
	bounded("opened")
	x.contiguous(s, "opened")

	// Closed again, new answers join it and the hidden ones go again.
	h.toggleSelectedGroup()
	x.feed(path, 2000, 500, at, func(int) string { return "npm test" }, bounded)
	if g := h.view[0].group; g == nil || g.open || h.rows[0].Question.ID != "busy002499" || h.selectedID != "busy001999" {
		t.Fatalf("closed: %+v, top %s, selected %q", h.view[0], h.rows[0].Question.ID, h.selectedID)
	}
}
