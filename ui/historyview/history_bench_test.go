package historyview

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/question"
)

// benchRows is the size of the benchmarks' history.
const benchRows = 100_000

// The benchmarks' database is built once and kept in the temp dir as a
// cache (about 60 MB), so later runs skip the seeding; delete it freely.
var benchDB struct {
	once sync.Once
	path string
	err  error
}

// bench100k opens the 100,000-record SQLite history, building it on first use.
func bench100k(b *testing.B) *history.SQLite {
	b.Helper()
	benchDB.once.Do(func() {
		dir := filepath.Join(os.TempDir(), "asktray-ui-bench")
		benchDB.path = filepath.Join(dir, fmt.Sprintf("history-%dk-v1.db", benchRows/1000))
		if _, err := os.Stat(benchDB.path); err == nil {
			return
		}
		benchDB.err = buildBenchDB(dir, benchDB.path)
	})
	if benchDB.err != nil {
		b.Fatal(benchDB.err)
	}
	s, err := history.Open(benchDB.path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}

// buildBenchDB writes the database to a temporary file and renames it to path.
func buildBenchDB(dir, path string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	s, err := history.Open(tmp) // creates the schema
	if err != nil {
		return err
	}
	if err := s.Close(); err != nil {
		return err
	}
	err = bulkInsert(tmp, benchRecords(benchRows))
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		return errors.Join(err, os.Remove(tmp))
	}
	return nil
}

// bulkInsert adds recs to the history database at path in one transaction,
// as app/history's bench_test.go does: Begin and End per record would take
// minutes. The database may be open in a store meanwhile.
func bulkInsert(path string, recs []history.Record) error {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(OFF)")
	if err != nil {
		return err
	}
	defer func() { _ = db.Close() }()
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	var docid int
	if err := tx.QueryRowContext(ctx, `SELECT IFNULL(MAX(docid), 0) FROM questions`).Scan(&docid); err != nil {
		return err
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO questions (id, docid, kind, client_name, client_version,
		session_id, created, deadline, state, decided_by, reason, via, decided_at, rule_id, question_json, result_json)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	fts, err := tx.PrepareContext(ctx, `INSERT INTO questions_fts (rowid, body) VALUES (?, ?)`)
	if err != nil {
		return err
	}
	for i, rec := range recs {
		q, r := rec.Question, rec.Result
		q.State = stateOf(rec)
		var res question.Result
		var rj, decidedAt any
		body := []string{q.Client.Name, q.Header, q.Message}
		if r != nil {
			res = *r
			b, _ := json.Marshal(r)
			rj, decidedAt = string(b), r.DecidedAt.UnixNano()
			body = append(body, strings.Trim(string(r.Value), `"`), r.Note)
		}
		for _, o := range q.Options {
			body = append(body, o.Label, o.Description)
		}
		qj, _ := json.Marshal(q)
		if _, err := ins.ExecContext(ctx, q.ID, docid+i+1, string(q.Kind), q.Client.Name, q.Client.Version, q.Client.SessionID,
			q.Created.UnixNano(), q.Deadline.UnixNano(), string(q.State), string(res.DecidedBy), string(res.Reason),
			string(res.Via), decidedAt, res.RuleID, string(qj), rj); err != nil {
			return err
		}
		if _, err := fts.ExecContext(ctx, docid+i+1, strings.Join(body, "\n")); err != nil {
			return err
		}
	}
	return tx.Commit()
}

var benchTopics = strings.Fields(`terraform kubernetes postgres redis kafka nginx webpack eslint docker helm
	grafana prometheus graphql protobuf oauth vault lambda bigquery airflow spark pytorch django rails react
	svelte vite cargo gradle bazel stripe sentry datadog invoice ledger checkout inventory refund changelog`)

// benchRecords returns n varied records a minute apart ending at histNow,
// about 2% pending; each names one topic.
func benchRecords(n int) []history.Record {
	clients := []string{"claude-code", "cursor", "vscode", "codex", "zed"}
	verbs := []string{"update", "delete", "migrate", "rename", "deploy", "roll back", "upgrade"}
	recs := make([]history.Record, n)
	for i := range recs {
		created := histNow.Add(-time.Duration(i) * time.Minute)
		topic, verb := benchTopics[i%len(benchTopics)], verbs[(i/7)%len(verbs)]
		q := question.Question{ID: fmt.Sprintf("b%06d", i), Kind: question.Kinds[i%len(question.Kinds)],
			Client:  question.Client{Name: clients[i%len(clients)], Version: "1.0", SessionID: fmt.Sprint(i / 50)},
			Header:  verb + " " + topic,
			Message: fmt.Sprintf("Should I %s the %s config in services/%s/main.go before the release? It touches %d files.", verb, topic, topic, i%40),
			Created: created, Deadline: created.Add(question.DefaultTimeout)}
		recs[i].Question = q
		if i%50 == 7 {
			continue
		}
		o := question.Outcomes[(i/3)%len(question.Outcomes)]
		r := &question.Result{Outcome: o, DecidedBy: question.ByHuman, Via: question.ViaDialog, DecidedAt: created.Add(time.Duration(i%120) * time.Second)}
		if o == question.Answered {
			r.Value = json.RawMessage(fmt.Sprintf(`"yes, %s it but keep the %s backup"`, verb, topic))
		}
		recs[i].Result = r
	}
	return recs
}

// BenchmarkHistoryWindow_Open measures making the window, loading its first
// page, counts and clients from a 100k-record SQLite history, and rendering
// it at 1000×640 with the software painter.
func BenchmarkHistoryWindow_Open(b *testing.B) {
	s := bench100k(b)
	a := test.NewTempApp(b)
	var rows int
	for b.Loop() {
		x := attachHarness(b, a, s)
		x.show()
		x.h.win.Resize(fyne.NewSize(1000, 640))
		_ = x.h.win.Canvas().Capture()
		rows = len(x.h.rows)
		x.h.hide()
		x.h.win.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/open")
	b.ReportMetric(float64(rows), "rows")
}

// BenchmarkHistoryWindow_Search measures a search over the 100k-record
// history, from setting the text (without the debounce) until the first
// page and the counts show.
func BenchmarkHistoryWindow_Search(b *testing.B) {
	s := bench100k(b)
	x := newHistHarness(b, s).show()
	x.h.win.Resize(fyne.NewSize(1000, 640))
	i, rows := 0, 0
	for b.Loop() {
		x.h.setSearch(benchTopics[i%len(benchTopics)])
		x.wait()
		i++
		rows = len(x.h.rows)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/search")
	b.ReportMetric(float64(rows), "rows")
}
