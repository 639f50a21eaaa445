package historyview

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/question"
)

func TestHistory_Export(t *testing.T) {
	s := historytest.New(t)
	seedHistory(t, s, histSeed)
	x := newHistHarness(t, s).show()
	h := x.h
	x.selectOption(h.outcomeSel, h.outcomeSel.Options, "Answered")
	dir := t.TempDir()

	path := filepath.Join(dir, "answered.CSV")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	h.export(f, path)
	x.wait()
	b, _ := os.ReadFile(path)
	rows, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil || len(rows) != 5 || rows[0][0] != "id" || rows[1][0] != "h01" || rows[1][8] != "answered" {
		t.Fatalf("csv export: %v\n%s", err, b)
	}

	x.selectOption(h.outcomeSel, h.outcomeSel.Options, "All outcomes")
	h.setSearch("tests")
	x.wait()
	path = filepath.Join(dir, "tests.json")
	if f, err = os.Create(path); err != nil {
		t.Fatal(err)
	}
	h.export(f, path)
	x.wait()
	b, _ = os.ReadFile(path)
	var items []history.ExportItem
	if err := json.Unmarshal(b, &items); err != nil || len(items) != 2 || items[0].Question.ID != "h03" || items[1].Question.ID != "h11" {
		t.Fatalf("json export: %v\n%s", err, b)
	}
	if !h.exportBtn.Disabled() && h.lastDialog == nil {
		t.Error("no confirmation after the export")
	}
}

func TestHistory_LiveInsertKeepsSelectionAndScroll(t *testing.T) {
	s := historytest.New(t)
	seedHistory(t, s, histSeed)
	x := newHistHarness(t, s).show()
	h := x.h
	h.list.Select(3)
	sel := h.selectedID
	q := question.Question{ID: "new1", Kind: question.KindConfirm, Client: seedClient("zed", "0.170"), Message: "Rename the package?",
		Created: histNow.Add(-time.Second), Deadline: histNow.Add(time.Minute)}
	if err := s.Begin(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	h.Handle(question.Event{Type: question.EventAsked, Question: q})
	x.wait()
	if h.rows[0].Question.ID != "new1" || h.selectedID != sel || h.selIdx != 4 || h.detail.rec.Question.ID != sel {
		t.Fatalf("rows %v, selected %q at %d, want %q at 4", x.ids(), h.selectedID, h.selIdx, sel)
	}
	if h.outcomeSel.Options[1] != "Pending (2)" || !slices.Contains(h.clientSel.Options, "zed") {
		t.Errorf("counts %q clients %q", h.outcomeSel.Options, h.clientSel.Options)
	}

	// It ends: the row and its details update.
	h.list.Select(0)
	r := question.Result{Outcome: question.Answered, DecidedBy: question.ByHuman, Via: question.ViaDialog, Value: json.RawMessage(`"yes"`), DecidedAt: histNow}
	if err := s.End(context.Background(), q, r); err != nil {
		t.Fatal(err)
	}
	h.Handle(question.Event{Type: question.EventEnded, Question: q, Result: &r})
	x.wait()
	if h.rows[0].Result == nil || h.detail.outcome.Text != "Answered" || h.outcomeSel.Options[2] != "Allowed (2)" {
		t.Fatalf("ended row %+v, detail %q, %q", h.rows[0].Result, h.detail.outcome.Text, h.outcomeSel.Options[2])
	}

	// A question the filter excludes stays out.
	x.selectOption(h.clientSel, h.clientSel.Options, "cursor")
	q2 := q
	q2.ID, q2.Created = "new2", histNow
	_ = s.Begin(context.Background(), q2)
	h.Handle(question.Event{Type: question.EventAsked, Question: q2})
	x.wait()
	if slices.Contains(x.ids(), "new2") {
		t.Fatalf("zed's question shows under cursor: %v", x.ids())
	}
}

func TestHistory_LiveInsertKeepsScrollPosition(t *testing.T) {
	s := historytest.New(t)
	seedHistory(t, s, manyHistorySeed(300))
	x := newHistHarness(t, s).show()
	h := x.h
	h.list.ScrollToOffset(10 * h.stride)
	before := h.list.GetScrollOffset()
	if before == 0 {
		t.Fatal("list did not scroll")
	}
	q := question.Question{ID: "zz-new", Kind: question.KindText, Client: seedClient("cursor", "1"), Message: "New one", Created: histNow, Deadline: histNow.Add(time.Minute)}
	_ = s.Begin(context.Background(), q)
	h.Handle(question.Event{Type: question.EventAsked, Question: q})
	x.wait()
	if h.rows[0].Question.ID != "zz-new" || h.list.GetScrollOffset() != before+h.stride {
		t.Fatalf("first %s, offset %v, want %v", h.rows[0].Question.ID, h.list.GetScrollOffset(), before+h.stride)
	}
}

func TestHistory_HiddenWindowGoesStale(t *testing.T) {
	s := historytest.New(t)
	seedHistory(t, s, histSeed)
	x := newHistHarness(t, s).show()
	h := x.h
	h.hide()
	q := question.Question{ID: "late", Kind: question.KindText, Client: seedClient("cursor", "1"), Message: "Asked while hidden", Created: histNow, Deadline: histNow.Add(time.Minute)}
	_ = s.Begin(context.Background(), q)
	h.Handle(question.Event{Type: question.EventAsked, Question: q})
	if h.inflight != 0 || !h.stale || len(h.rows) != len(histSeed) {
		t.Fatalf("hidden window loaded: inflight %d stale %v", h.inflight, h.stale)
	}
	x.show()
	if x.first() != "Asked while hidden" || h.stale {
		t.Fatalf("Show did not reload: %v", x.ids())
	}

	// A retention clean-up is no broker event: invalidate reloads.
	if _, err := s.DeleteOlderThan(context.Background(), histNow.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	h.invalidate()
	x.wait()
	if !slices.Equal(x.ids(), []string{"late", "h00", "h01", "h02"}) || h.outcomeSel.Options[0] != "All outcomes (4)" {
		t.Fatalf("after invalidate: %v, %q", x.ids(), h.outcomeSel.Options[0])
	}
}

func TestHistory_Delete(t *testing.T) {
	s := historytest.New(t)
	seedHistory(t, s, histSeed)
	x := newHistHarness(t, s).show()
	h := x.h
	h.list.Select(2)
	test.Tap(h.detail.deleteBtn)
	h.lastConfirm.Confirm()
	x.wait()
	if slices.Contains(x.ids(), "h02") || len(h.rows) != 12 || h.selectedID != "" || !h.detail.body.Hidden {
		t.Fatalf("after delete: %v, selected %q", x.ids(), h.selectedID)
	}
	if _, err := s.Get(context.Background(), "h02"); !errors.Is(err, question.ErrNotFound) {
		t.Errorf("still stored: %v", err)
	}
	if h.outcomeSel.Options[0] != "All outcomes (12)" {
		t.Errorf("counts %q", h.outcomeSel.Options[0])
	}
}

func TestHistory_ClearOlderThan(t *testing.T) {
	s := historytest.New(t)
	recs := append([]seedRec{}, histSeed...)
	recs = append(recs, seedRec{ago: 40 * 24 * time.Hour, q: question.Question{Kind: question.KindText, Client: seedClient("codex", "0.9"), Message: "Still waiting from long ago"}})
	seedHistory(t, s, recs)
	x := newHistHarness(t, s).show()
	h := x.h
	h.showClear()
	h.lastConfirm.Confirm() // 90 days: nothing finished is that old
	x.wait()
	if len(h.rows) != 14 {
		t.Fatalf("rows %v", x.ids())
	}
	prev := h.lastConfirm
	h.clearOlderThan(7)
	x.wait()
	if h.lastConfirm == prev {
		t.Fatal("no confirmation")
	}
	h.lastConfirm.Confirm()
	x.wait()
	if !slices.Equal(x.ids(), []string{"h00", "h01", "h02", "h03", "h04", "h05", "h06", "h07", "h08", "h09", "h10", "h13"}) {
		t.Fatalf("after clearing: %v", x.ids())
	}
}

// manyHistorySeed returns n answered questions a minute apart, newest first.
func manyHistorySeed(n int) []seedRec {
	recs := make([]seedRec, n)
	clients := []string{"claude-code", "cursor", "vscode", "codex"}
	for i := range recs {
		recs[i] = seedRec{ago: time.Duration(i+1) * time.Minute, took: time.Duration(i%90) * time.Second,
			q: question.Question{Kind: question.KindText, Client: seedClient(clients[i%4], "1.0"), Message: "Question number " + strings.Repeat("x", i%7)},
			r: seedHuman(question.ViaDialog, `"ok"`)}
	}
	return recs
}

func TestHistory_Paging(t *testing.T) {
	s := historytest.New(t)
	seedHistory(t, s, manyHistorySeed(1000))
	x := newHistHarness(t, s).show()
	h := x.h
	if len(h.rows) != historyPageSize || h.next == "" {
		t.Fatalf("first page: %d rows, next %q", len(h.rows), h.next)
	}
	if h.status.Text != "Showing 100 of 1,000 questions · scroll for more" {
		t.Errorf("status %q", h.status.Text)
	}
	h.list.ScrollToBottom() // shows rows within historyPrefetch of the end
	x.wait()
	if len(h.rows) != 2*historyPageSize {
		t.Fatalf("after scrolling: %d rows", len(h.rows))
	}
	for range 20 {
		h.list.ScrollToBottom()
		x.wait()
	}
	if len(h.rows) != 1000 || h.next != "" {
		t.Fatalf("after scrolling to the end: %d rows, next %q", len(h.rows), h.next)
	}
	seen := map[string]bool{}
	for _, id := range x.ids() {
		if seen[id] {
			t.Fatalf("row %s twice", id)
		}
		seen[id] = true
	}
}

// slowHistoryStore holds each List's result until the test releases it.
type slowHistoryStore struct {
	*history.SQLite
	read    chan struct{} // a List has read the store
	release chan struct{} // let one List return
}

func (s *slowHistoryStore) List(ctx context.Context, f history.Filter) (history.Page, error) {
	p, err := s.SQLite.List(ctx, f)
	s.read <- struct{}{}
	<-s.release
	return p, err
}

func TestHistory_EventDuringReload(t *testing.T) {
	mem := historytest.New(t)
	seedHistory(t, mem, histSeed)
	s := &slowHistoryStore{SQLite: mem, read: make(chan struct{}, 10), release: make(chan struct{}, 10)}
	x := newHistHarness(t, s)
	s.release <- struct{}{}
	x.show()
	<-s.read
	// A reload reads the store, then the question is asked; the page
	// comes back only after the event.
	x.h.reload()
	<-s.read
	q := question.Question{ID: "mid", Kind: question.KindText, Client: seedClient("cursor", "1"), Message: "Asked mid-reload", Created: histNow, Deadline: histNow.Add(time.Minute)}
	if err := mem.Begin(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	x.h.Handle(question.Event{Type: question.EventAsked, Question: q})
	s.release <- struct{}{}
	s.release <- struct{}{}
	x.wait()
	if x.first() != "Asked mid-reload" {
		t.Fatalf("the event was lost: %v", x.ids())
	}
}
