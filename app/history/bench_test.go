package history

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

// benchDir holds the shared 100k-row database; TestMain removes it.
var benchDir string

func TestMain(m *testing.M) {
	var err error
	if benchDir, err = os.MkdirTemp("", "history-bench-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(benchDir)
	os.Exit(code)
}

// lcg is a small deterministic random number generator for test data.
type lcg uint64

// intN returns a number in [0, n).
func (r *lcg) intN(n int) int {
	*r = *r*6364136223846793005 + 1442695040888963407
	return int(uint64(*r>>33) % uint64(n))
}

// bulkInsert stores recs, pending or finished, in one transaction with
// prepared statements; it is much faster than Begin and End per row.
func bulkInsert(ctx context.Context, s *SQLite, recs []Record) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		var docid int64
		if err := tx.QueryRowContext(ctx, `SELECT IFNULL(MAX(docid), 0) FROM questions`).Scan(&docid); err != nil {
			return err
		}
		ins, err := tx.PrepareContext(ctx, `INSERT INTO questions (id, docid, kind, client_name, client_version,
			session_id, created, deadline, state, decided_by, reason, via, decided_at, rule_id, question_json, result_json)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer func() { _ = ins.Close() }()
		fts, err := tx.PrepareContext(ctx, `INSERT INTO questions_fts (rowid, body) VALUES (?, ?)`)
		if err != nil {
			return err
		}
		defer func() { _ = fts.Close() }()
		for _, rec := range recs {
			docid++
			q, r := rec.Question, rec.Result
			q.State = question.StatePending
			var rj, decidedAt any
			var res question.Result
			if r != nil {
				res = *r
				q.State = question.State(r.Outcome)
				b, err := encode(r)
				if err != nil {
					return err
				}
				rj, decidedAt = string(b), nanos(r.DecidedAt)
			}
			qj, err := encode(q)
			if err != nil {
				return err
			}
			if _, err := ins.ExecContext(ctx, q.ID, docid, string(q.Kind), q.Client.Name, q.Client.Version,
				q.Client.SessionID, nanos(q.Created), nanos(q.Deadline), string(q.State), string(res.DecidedBy),
				string(res.Reason), string(res.Via), decidedAt, res.RuleID, string(qj), rj); err != nil {
				return err
			}
			if _, err := fts.ExecContext(ctx, docid, searchText(q, r)); err != nil {
				return err
			}
		}
		return nil
	})
}

// Vocabulary for realistic questions. Each message names exactly one topic,
// so searching for a topic matches about 1% of rows.
var (
	benchTopics = strings.Fields(`terraform kubernetes postgres redis kafka nginx webpack babel eslint prettier
		docker helm ansible jenkins grafana prometheus elastic mongodb sqlite mysql
		graphql openapi protobuf grpc oauth saml ldap vault consul nomad
		lambda cloudfront route53 dynamodb bigquery snowflake airflow spark flink hadoop
		pytorch tensorflow numpy pandas django flask rails laravel spring quarkus
		react angular svelte vue nextjs remix astro vite rollup esbuild
		cargo rustup gradle maven bazel cmake ninja meson autotools makefile
		stripe twilio sendgrid segment mixpanel amplitude sentry datadog pagerduty opsgenie
		invoice ledger payroll checkout catalog inventory shipment refund coupon wishlist
		avatar thumbnail captcha sitemap robots favicon manifest changelog license readme`)
	benchVerbs     = strings.Fields("update delete migrate rename refactor deploy rollback upgrade remove configure rewrite split")
	benchClients   = []string{"claude-code", "cursor", "codex", "zed", "windsurf"}
	benchTemplates = []string{
		"Should I %s the %s config in services/%s/main.go before the release on branch feature-%d?",
		"About to %s %s across %d files. The tests pass locally; continue with the change?",
		"Can I %s the %s module? It touches the billing path and %d migrations.",
		"The %s step for %s failed with exit code %d. Retry, skip or abort?",
	}
)

// benchRecords returns n varied records, about 2% of them pending, created a
// second apart ending now.
func benchRecords(n int) []Record {
	rng := lcg(1)
	now := time.Now().UTC()
	recs := make([]Record, n)
	for i := range recs {
		created := now.Add(-time.Duration(n-i) * time.Second)
		q := newQuestion(question.NewID(), created)
		q.Kind = question.Kinds[rng.intN(len(question.Kinds))]
		q.Client = question.Client{Name: benchClients[rng.intN(len(benchClients))], Version: "1.0", SessionID: fmt.Sprint(i / 50)}
		tmpl := benchTemplates[rng.intN(len(benchTemplates))]
		verb, topic := benchVerbs[rng.intN(len(benchVerbs))], benchTopics[i%len(benchTopics)]
		if strings.HasPrefix(tmpl, "The") {
			q.Message = fmt.Sprintf(tmpl, verb, topic, rng.intN(128))
		} else {
			q.Message = fmt.Sprintf(tmpl, verb, topic, rng.intN(400))
		}
		q.Header = strings.ToUpper(verb[:1]) + verb[1:] + " " + topic
		if q.Kind == question.KindChoice {
			q.Options = []question.Option{{Label: "Yes", Description: "go ahead"}, {Label: "No"}, {Label: "Ask later"}}
		}
		recs[i].Question = q
		if rng.intN(50) == 0 {
			continue // pending
		}
		o := question.Outcomes[rng.intN(len(question.Outcomes))]
		r := &question.Result{Outcome: o, DecidedBy: question.ByHuman, Via: question.ViaDialog,
			DecidedAt: created.Add(time.Duration(rng.intN(120)) * time.Second)}
		if o == question.Answered {
			r = answered(fmt.Sprintf("yes, %s it but keep the %s backup", verb, topic), r.DecidedAt)
			r.Note = "checked with the team"
		}
		recs[i].Result = r
	}
	return recs
}

var big struct {
	once sync.Once
	path string
	err  error
}

// open100k opens a database of 100,000 records, built once per process.
func open100k(b *testing.B) *SQLite {
	b.Helper()
	big.once.Do(func() {
		big.path = filepath.Join(benchDir, "100k.db")
		s, err := Open(big.path)
		if err != nil {
			big.err = err
			return
		}
		defer func() { _ = s.Close() }()
		big.err = bulkInsert(context.Background(), s, benchRecords(100_000))
	})
	if big.err != nil {
		b.Fatal(big.err)
	}
	s, err := Open(big.path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}

func BenchmarkSQLite_CommitDecision(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "history.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	ctx := context.Background()
	n := 0
	for b.Loop() {
		q := newQuestion(question.NewID(), time.Now())
		if err := s.Begin(ctx, q); err != nil {
			b.Fatal(err)
		}
		if err := s.End(ctx, q, *answered("ok", time.Now())); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "decisions/s")
}

// BenchmarkSQLite_CommitDecided records questions decided at ask time, the
// way a rule decides them: one BeginEnded, one durable commit each.
func BenchmarkSQLite_CommitDecided(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "history.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	ctx := context.Background()
	n := 0
	for b.Loop() {
		q := newQuestion(question.NewID(), time.Now())
		if err := s.BeginEnded(ctx, q, *ended(question.AutoApproved, time.Now())); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "decisions/s")
}

func BenchmarkSQLite_FirstPage100k(b *testing.B) {
	s := open100k(b)
	ctx := context.Background()
	for b.Loop() {
		p, err := s.List(ctx, Filter{})
		if err != nil || len(p.Records) != DefaultLimit || p.Next == "" {
			b.Fatalf("List = %d records, next %q, %v", len(p.Records), p.Next, err)
		}
	}
}

func BenchmarkSQLite_Search100k(b *testing.B) {
	s := open100k(b)
	ctx := context.Background()
	f := Filter{Search: "kubernetes"}
	n, err := s.Count(ctx, f)
	if err != nil {
		b.Fatal(err)
	}
	total := 0
	for _, c := range n {
		total += c
	}
	var rows int
	for b.Loop() {
		p, err := s.List(ctx, f)
		if err != nil {
			b.Fatal(err)
		}
		rows = len(p.Records)
	}
	b.ReportMetric(float64(total), "matches")
	b.ReportMetric(float64(rows), "rows/op")
}

func BenchmarkSQLite_Count100k(b *testing.B) {
	s := open100k(b)
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.Count(ctx, Filter{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSQLite_CountVerdicts100k(b *testing.B) {
	s := open100k(b)
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.CountVerdicts(ctx, Filter{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSQLite_FirstPageByVerdict100k(b *testing.B) {
	s := open100k(b)
	ctx := context.Background()
	f := Filter{Verdicts: []question.Verdict{question.VerdictDenied}}
	var rows int
	for b.Loop() {
		p, err := s.List(ctx, f)
		if err != nil {
			b.Fatal(err)
		}
		rows = len(p.Records)
	}
	b.ReportMetric(float64(rows), "rows/op")
}
