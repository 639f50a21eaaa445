package historyview

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/question"
)

// countingStore counts the window's queries.
type countingStore struct {
	history.Store
	lists, counts atomic.Int64
}

func (s *countingStore) List(ctx context.Context, f history.Filter) (history.Page, error) {
	s.lists.Add(1)
	return s.Store.List(ctx, f)
}

func (s *countingStore) CountVerdicts(ctx context.Context, f history.Filter) (map[question.Verdict]int, error) {
	s.counts.Add(1)
	return s.Store.CountVerdicts(ctx, f)
}

// busyStore opens a SQLite history of n varied records in a temp dir.
func busyStore(t testing.TB, n int) *countingStore {
	t.Helper()
	s, _ := busyStorePath(t, n)
	return s
}

// busyStorePath is busyStore that also returns the database's path, for
// bulkInsert.
func busyStorePath(t testing.TB, n int) (*countingStore, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "history.db")
	s, err := history.Open(path) // creates the schema
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	if err := bulkInsert(path, benchRecords(n)); err != nil {
		t.Fatal(err)
	}
	if s, err = history.Open(path); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return &countingStore{Store: s}, path
}

// ruleAnswer stores one rule-allowed approval, as a busy agent's standing
// rule answers it, and returns its asked and ended events. It may be
// called from any goroutine.
func ruleAnswer(s history.Store, i int, at time.Time) (asked, ended question.Event, err error) {
	return ruleAnswerCmd(s, i, at, fmt.Sprintf("npm test -- --shard=%d", i))
}

// ruleAnswerCmd is ruleAnswer for command.
func ruleAnswerCmd(s history.Store, i int, at time.Time, command string) (asked, ended question.Event, err error) {
	rec, asked, ended := busyRecord(i, at, command)
	ctx := context.Background()
	if err := s.Begin(ctx, rec.Question); err != nil {
		return asked, ended, err
	}
	if err := s.End(ctx, rec.Question, *rec.Result); err != nil {
		return asked, ended, err
	}
	return asked, ended, nil
}

// busyRecord is the record ruleAnswerCmd stores, and its events.
func busyRecord(i int, at time.Time, command string) (rec history.Record, asked, ended question.Event) {
	q := question.Question{ID: fmt.Sprintf("busy%06d", i), Kind: question.KindApproval, Origin: question.OriginPermission,
		Client: question.Client{Name: "claude-code", Version: "2.1.3", SessionID: "busy"}, Action: "Bash",
		Message: "Bash", Tool: "permission_request", Cwd: "/home/ada/src/shop",
		Input: json.RawMessage(fmt.Sprintf(`{"command":%q}`, command)), Created: at, Deadline: at.Add(question.DefaultTimeout)}
	r := question.Result{Outcome: question.AutoApproved, DecidedBy: question.ByRule, Reason: question.ReasonRule,
		Via: question.ViaRule, RuleID: "r1", Value: json.RawMessage(`"allow"`), DecidedAt: at.Add(time.Millisecond)}
	done := q
	done.State = question.State(r.Outcome)
	return history.Record{Question: q, Result: &r}, question.Event{Type: question.EventAsked, Question: q}, question.Event{Type: question.EventEnded, Question: done}
}

// TestHistory_CoalescesABusyAgent is item 9 of issue 37: 60 rule answers
// (120 broker events) arriving at once while History shows a selected row
// are looked up together: every one gets its row, the selected row stays
// selected with its details, and the window asks the store a few times,
// not twice per event.
func TestHistory_CoalescesABusyAgent(t *testing.T) {
	s := busyStore(t, 500)
	x := attachHarness(t, test.NewTempApp(t), s).show()
	x.h.list.Select(2)
	selected := x.h.selectedID
	lists, counts := s.lists.Load(), s.counts.Load()
	at := histNow.Add(time.Minute)
	for i := range 60 {
		asked, ended, err := ruleAnswer(s, i, at.Add(time.Duration(i)*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		x.h.Handle(asked)
		x.h.Handle(ended)
	}
	x.wait()
	if got := x.ids()[0]; got != "busy000059" {
		t.Fatalf("first row %s, want the last answer", got)
	}
	for i, id := range x.ids()[:60] {
		if want := fmt.Sprintf("busy%06d", 59-i); id != want || x.h.rows[i].Result == nil {
			t.Fatalf("row %d: %s (ended %v), want %s ended", i, id, x.h.rows[i].Result != nil, want)
		}
	}
	if x.h.selectedID != selected || x.h.rows[x.h.selIdx].Question.ID != selected {
		t.Errorf("selection moved from %s to %s", selected, x.h.selectedID)
	}
	if l, c := s.lists.Load()-lists, s.counts.Load()-counts; l > 3 || c > 3 {
		t.Errorf("120 events cost %d list and %d count queries, want a batch's", l, c)
	}
}

// BenchmarkHistory_BusyAgent is item 9 of issue 37: History open at
// 1000×640 over 5,000 records with a row selected while a busy agent's
// standing rule answers 30 requests a second (ASKTRAY_BUSY_SECONDS, 60 by
// default), each stored and sent as asked and ended, as the broker does.
// The UI goroutine is the benchmark's own: it runs what the window hands
// fyne.Do, and nothing else (the test driver paints nothing). Side by side:
// per-event (the window before coalescing: one lookup and one count per
// event) and coalesced (historyCoalesce); and, every answer the same
// command, without grouping (each its own row) and grouped (one row that
// grows: issue 38 item 7); and the window keeping every row it loaded
// (keep-all, before trim) beside keeping at most historyKeep (the bound:
// memory flat however long the load). It reports the UI goroutine's
// busy time per second of load, the store queries per second, the most
// work waiting for the UI goroutine, how far the window was behind when
// the load stopped, the heap in use after, less before, and the records
// loaded at the end.
func BenchmarkHistory_BusyAgent(b *testing.B) {
	secs := 60
	if v, err := strconv.Atoi(os.Getenv("ASKTRAY_BUSY_SECONDS")); err == nil && v > 0 {
		secs = v
	}
	for _, mode := range []struct {
		name      string
		coalesce  time.Duration
		identical bool // every answer the same command: one growing group
		grouping  bool
		keep      int // records kept loaded (trim); 0 keeps every one
	}{
		{"per-event", -1, false, true, historyKeep}, {"coalesced-keep-all", historyCoalesce, false, true, 0},
		{"coalesced", historyCoalesce, false, true, historyKeep},
		{"identical-ungrouped", historyCoalesce, true, false, historyKeep},
		{"identical-grouped-keep-all", historyCoalesce, true, true, 0}, {"identical-grouped", historyCoalesce, true, true, historyKeep},
	} {
		b.Run(mode.name, func(b *testing.B) {
			for b.Loop() {
				busyRun(b, busyMode{mode.coalesce, time.Duration(secs) * time.Second, mode.identical, mode.grouping, mode.keep})
			}
		})
	}
}

// busyMode is one of BenchmarkHistory_BusyAgent's runs.
type busyMode struct {
	coalesce, load      time.Duration
	identical, grouping bool
	keep                int
}

func busyRun(b *testing.B, m busyMode) {
	coalesce, load, identical := m.coalesce, m.load, m.identical
	s := busyStore(b, 5000)
	x := attachHarness(b, test.NewTempApp(b), s)
	x.h.coalesce, x.h.now, x.h.grouping, x.h.keep = coalesce, time.Now, m.grouping, m.keep
	x.show()
	x.h.win.Resize(fyne.NewSize(1000, 640))
	x.h.list.Select(0)
	x.wait()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	lists, counts := s.lists.Load(), s.counts.Load()

	done := make(chan string, 1)
	failed := make(chan error, 1)
	go func() { // the agent: 30 answers a second
		tick := time.NewTicker(time.Second / 30)
		defer tick.Stop()
		last := ""
		for i, end := 0, time.Now().Add(load); time.Now().Before(end); i++ {
			<-tick.C
			command := fmt.Sprintf("npm test -- --shard=%d", i)
			if identical {
				command = "npm test"
			}
			asked, ended, err := ruleAnswerCmd(s, i, time.Now(), command)
			if err != nil {
				failed <- err
				return
			}
			x.queue <- func() { x.h.Handle(asked) }
			x.queue <- func() { x.h.Handle(ended) }
			last = asked.Question.ID
		}
		done <- last
	}()
	var busy time.Duration
	var midway runtime.MemStats
	backlog, last, stopped, mid := 0, "", time.Time{}, time.After(load/2)
	for last == "" || x.h.inflight > 0 || len(x.queue) > 0 {
		select {
		case <-mid: // the heap halfway: flat when it is what the end reads
			runtime.GC()
			runtime.ReadMemStats(&midway)
		case fn := <-x.queue:
			backlog = max(backlog, len(x.queue)+1)
			t0 := time.Now()
			fn()
			busy += time.Since(t0)
		case last = <-done:
			stopped = time.Now()
		case err := <-failed:
			b.Fatal(err)
		}
	}
	behind := time.Since(stopped)
	if len(x.h.rows) == 0 || x.h.rows[0].Question.ID != last {
		b.Fatalf("the last answer %s is not the first row", last)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(busy.Microseconds())/1000/load.Seconds(), "ui-ms/s")
	b.ReportMetric(float64(s.lists.Load()-lists+s.counts.Load()-counts)/load.Seconds(), "queries/s")
	b.ReportMetric(float64(backlog), "max-backlog")
	b.ReportMetric(float64(behind.Milliseconds()), "behind-ms")
	b.ReportMetric((float64(midway.HeapInuse)-float64(before.HeapInuse))/(1<<20), "heap-half-MB")
	b.ReportMetric((float64(after.HeapInuse)-float64(before.HeapInuse))/(1<<20), "heap-MB")
	b.ReportMetric(float64(len(x.h.rows)), "rows")
	b.ReportMetric(float64(len(x.h.view)), "list-rows")
}
