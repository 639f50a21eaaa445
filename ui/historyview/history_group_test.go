package historyview

import (
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/ui/internal/uitheme"
)

// ruleRecord is an approval of command in ~/src/shop that rule decided
// (allowed unless deny) at created.
func ruleRecord(id, client, rule, command string, created time.Time, deny bool) history.Record {
	q := question.Question{ID: id, Kind: question.KindApproval, Origin: question.OriginPermission, Tool: "permission_request",
		Client: question.Client{Name: client, Version: "2.1.3", SessionID: "sess-" + id}, Action: "Bash", Message: "Bash",
		Cwd: "/home/ada/src/shop", Input: json.RawMessage(fmt.Sprintf(`{"command":%q}`, command)),
		Created: created, Deadline: created.Add(question.DefaultTimeout)}
	r := &question.Result{Outcome: question.AutoApproved, DecidedBy: question.ByRule, Reason: question.ReasonRule, Via: question.ViaRule,
		RuleID: rule, Value: json.RawMessage(`"allow"`), DecidedAt: created.Add(time.Millisecond)}
	if deny {
		r.Outcome, r.Value = question.AutoRejected, nil
	}
	return history.Record{Question: q, Result: r}
}

// groupStore is a history of 300 identical decisions of rule r1 two
// seconds apart (15:20:00 to 15:29:58), with, among them, a person's
// answers, the same command decided by rule r2 and "npm run lint" by r1;
// ten more of r1's half an hour before (another run); and two questions
// with the same header from two sessions a few seconds apart.
func groupStore(t testing.TB) *countingStore {
	t.Helper()
	var recs []history.Record
	start := histNow.Add(-10 * time.Minute)
	for i := range 300 {
		at := start.Add(time.Duration(i) * 2 * time.Second)
		recs = append(recs, ruleRecord(fmt.Sprintf("g%03d", i), "claude-code", "r1", "npm test", at, false))
		switch i % 60 {
		case 10:
			recs = append(recs, ruleRecord(fmt.Sprintf("o%03d", i), "claude-code", "r2", "npm test", at.Add(time.Second), false))
		case 20:
			recs = append(recs, ruleRecord(fmt.Sprintf("l%03d", i), "claude-code", "r1", "npm run lint", at.Add(time.Second), false))
		case 30:
			q := question.Question{ID: fmt.Sprintf("p%03d", i), Kind: question.KindText, Client: question.Client{Name: "codex", SessionID: "s1"},
				Message: "Name?", FreeText: true, Created: at.Add(time.Second), Deadline: at.Add(time.Hour)}
			recs = append(recs, history.Record{Question: q, Result: &question.Result{Outcome: question.Answered, DecidedBy: question.ByHuman,
				Via: question.ViaDialog, Value: json.RawMessage(`"ledger"`), DecidedAt: at.Add(2 * time.Second)}})
		}
	}
	for i := range 10 {
		recs = append(recs, ruleRecord(fmt.Sprintf("e%03d", i), "claude-code", "r1", "npm test", start.Add(-40*time.Minute+time.Duration(i)*time.Second), false))
	}
	for i, sess := range []string{"4f2a9c1e-77b0", "9d3c0b27-1aa4"} {
		at := histNow.Add(-time.Duration(20+i*7) * time.Second)
		q := question.Question{ID: fmt.Sprintf("same%d", i), Kind: question.KindChoice, Client: question.Client{Name: "cursor", SessionID: sess},
			Header: "Pick a database", Message: "Which database should the tests use?", Options: []question.Option{{Label: "Postgres"}, {Label: "SQLite"}},
			Created: at, Deadline: at.Add(time.Hour)}
		recs = append(recs, history.Record{Question: q, Result: &question.Result{Outcome: question.Answered, DecidedBy: question.ByHuman,
			Via: question.ViaDialog, Value: json.RawMessage(`["Postgres"]`), DecidedAt: at.Add(time.Second)}})
	}
	path := filepath.Join(t.TempDir(), "history.db")
	s, err := history.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	if err := bulkInsert(path, recs); err != nil {
		t.Fatal(err)
	}
	if s, err = history.Open(path); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return &countingStore{Store: s}
}

// rowText renders list row i and returns its texts.
func rowText(h *Window, i int) [rowTexts]string {
	r := newHistoryRow()
	h.updateRow(i, r)
	return r.full
}

// heads returns the sizes of the groups shown, top to bottom, and the
// list row of the first group of size n (-1 for none).
func heads(h *Window, n int) (sizes []int, at int) {
	at = -1
	for i, v := range h.view {
		if v.group != nil {
			sizes = append(sizes, len(v.group.members))
			if at < 0 && len(v.group.members) == n {
				at = i
			}
		}
	}
	return sizes, at
}

// TestHistory_GroupsIdenticalRuleRows is the rest of issue 38 item 7: 300
// decisions of one rule on the same command within minutes of each other
// are one row, "npm test in ~/src/shop · allowed by rule r1", "300 times,
// 15:20–15:29", whatever
// rows fall between them; another rule, another command or a run half an
// hour before is not in it (each its own group). Selecting the row opens it (its 300 rows under
// it) and the detail pane's button closes it; a new identical decision
// joins it, the selection staying on it. Two questions with the same
// header, side by side, say their time and session. Without grouping
// (the baseline) every record is its own row.
func TestHistory_GroupsIdenticalRuleRows(t *testing.T) {
	s := groupStore(t)
	x := attachHarness(t, test.NewTempApp(t), s).show()
	h := x.h
	h.win.Resize(fyne.NewSize(1000, 640))
	for h.next != "" { // scrolled to the end
		h.loadMore()
		x.wait()
	}
	if len(h.rows) != 327 {
		t.Fatalf("%d records loaded, want 327", len(h.rows))
	}
	// r1's 300, r2's 5 (two minutes apart), the 5 lint runs and the run
	// before; the 5 answers and the 2 choices alone.
	sizes, head := heads(h, 300)
	if fmt.Sprint(sizes) != "[300 5 5 10]" || len(h.view) != 4+5+2 {
		t.Fatalf("groups %v in %d rows, want [300 5 5 10] in 11", sizes, len(h.view))
	}
	txt := rowText(h, head)
	if txt[rowQuestion] != "▸ npm test in ~/src/shop  ·  allowed by rule r1" || txt[rowAnswer] != "300 times, 15:20–15:29" ||
		txt[rowOutcome] != lookOf(h.rows[h.view[head].rec]).name {
		t.Fatalf("the group's row reads %q", txt)
	}

	// Selecting it opens it: its 300 rows follow it; the button closes it.
	h.list.Select(head)
	if len(h.view) != 11+300 || h.view[head+1].rec != h.view[head].group.members[0] || !h.selHead ||
		h.detail.groupBtn.Hidden || h.detail.groupBtn.Text != "Hide the 300" {
		t.Fatalf("opened: %d rows, button %q (hidden %v)", len(h.view), h.detail.groupBtn.Text, h.detail.groupBtn.Hidden)
	}
	if txt := rowText(h, head); !strings.HasPrefix(txt[rowQuestion], "▾ npm test") {
		t.Fatalf("the open group's row reads %q", txt[rowQuestion])
	}
	test.Tap(h.detail.groupBtn)
	if len(h.view) != 11 || h.detail.groupBtn.Text != "Show all 300" || h.selIdx != head {
		t.Fatalf("closed: %d rows, button %q, selected %d", len(h.view), h.detail.groupBtn.Text, h.selIdx)
	}

	// A new identical decision joins the group; the selection stays on it.
	asked, ended, err := ruleAnswerCmd(s, 999, histNow.Add(-10*time.Second), "npm test")
	if err != nil {
		t.Fatal(err)
	}
	h.Handle(asked)
	h.Handle(ended)
	x.wait()
	if sizes, at := heads(h, 301); len(h.view) != 11 || at < 0 || !h.selHead || h.selIdx != at {
		t.Fatalf("after a new decision: %d rows, groups %v, selected %d (head %v)", len(h.view), sizes, h.selIdx, h.selHead)
	}

	// The two questions with the same header say when and which session.
	var same []string
	for i, v := range h.view {
		if v.group == nil && h.rows[v.rec].Question.Header == "Pick a database" {
			same = append(same, rowText(h, i)[rowQuestion])
		}
	}
	want0 := "Pick a database  ·  " + histNow.Add(-20*time.Second).Format("15:04:05") + " · session 4f2a9c1e"
	if len(same) != 2 || same[0] != want0 || !strings.HasSuffix(same[1], " · session 9d3c0b27") {
		t.Fatalf("the rows with the same header read %q, want the first %q", same, want0)
	}
	if i := h.viewIndex("p270", false); i < 0 || rowText(h, i)[rowQuestion] != "Name?" {
		t.Fatalf("the row of p270, with no twin beside it, is %d: %q", i, rowText(h, max(i, 0)))
	}

	if os.Getenv("ASKTRAY_SCREENSHOTS") == "1" {
		// The app's theme, as the other History screenshots, not the test driver's.
		h.app.Settings().SetTheme(fixedVariantTheme{uitheme.New(), theme.VariantDark})
		h.list.Select(h.viewIndex("same0", false))
		h.list.Select(head)
		test.Tap(h.detail.groupBtn) // closed, as the list first shows it
		h.list.ScrollToTop()
		f, err := os.Create(filepath.Join("..", "..", "docs", "screenshots", "history-grouped.png"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := png.Encode(f, h.win.Canvas().Capture()); err != nil {
			t.Fatal(err)
		}
	}

	h.grouping = false
	h.relist(listAnchor{})
	if len(h.view) != len(h.rows) {
		t.Fatalf("without grouping %d rows for %d records", len(h.view), len(h.rows))
	}
}

// BenchmarkHistory_Regroup measures building the list's rows from 5,000
// loaded records, which every change of the rows does (regroup): all the
// same rule decision (one group), all different (no group), and the
// baseline without grouping. first-ms is the first build, which reads
// each decision's request once (groupKey); ns/op the builds after it.
func BenchmarkHistory_Regroup(b *testing.B) {
	for _, c := range []struct {
		name               string
		identical, grouped bool
	}{{"baseline-ungrouped", true, false}, {"identical", true, true}, {"distinct", false, true}} {
		b.Run(c.name, func(b *testing.B) {
			h := &Window{grouping: c.grouped}
			for i := range 5000 {
				command := "npm test"
				if !c.identical {
					command = fmt.Sprintf("npm test -- --shard=%d", i)
				}
				h.rows = append(h.rows, ruleRecord(fmt.Sprintf("r%05d", i), "claude-code", "r1", command, histNow.Add(-time.Duration(i)*time.Second), false))
			}
			start := time.Now()
			h.regroup()
			first := time.Since(start)
			for b.Loop() {
				h.regroup()
			}
			b.ReportMetric(float64(first.Microseconds())/1000, "first-ms")
			b.ReportMetric(float64(len(h.view)), "list-rows")
		})
	}
}

// TestGroupLine: a group's head says the rule, how many and when, with the
// date when not today, and "+" while its oldest is the last loaded record
// and more are to load.
func TestGroupLine(t *testing.T) {
	t.Parallel()
	var rows []history.Record
	for i := range 1200 {
		rows = append(rows, ruleRecord(fmt.Sprint(i), "claude-code", "r1", "rm -rf build", histNow.Add(-time.Duration(i)*time.Second), true))
	}
	g := &rowGroup{}
	for i := range rows {
		g.members = append(g.members, i)
	}
	by, times := groupLine(rows, g, histNow, false)
	if by != "denied by rule r1" || times != "1,200 times, 15:10–15:30" {
		t.Errorf("groupLine %q, %q", by, times)
	}
	if _, times := groupLine(rows, g, histNow, true); times != "1,200+ times, 15:10–15:30" {
		t.Errorf("with more to load: %q", times)
	}
	if _, times := groupLine(rows, g, histNow.Add(24*time.Hour), false); times != "1,200 times, 12 Mar 15:10–15:30" {
		t.Errorf("the next day: %q", times)
	}
	g.members = g.members[:10]
	if _, times := groupLine(rows, g, histNow, true); times != "10 times, 15:29–15:30" {
		t.Errorf("a group above the last loaded record: %q", times)
	}
}
