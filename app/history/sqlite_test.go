package history

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

func TestSchemaVersion_MatchesMigrations(t *testing.T) {
	t.Parallel()
	if SchemaVersion != len(migrations) {
		t.Errorf("SchemaVersion = %d, but there are %d migrations", SchemaVersion, len(migrations))
	}
}

func userVersion(t *testing.T, s *SQLite) int {
	t.Helper()
	var v int
	if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSQLite_MigratesFromEmpty(t *testing.T) {
	t.Parallel()
	s := openSQLite(t)
	if v := userVersion(t, s); v != SchemaVersion {
		t.Errorf("user_version = %d, want %d", v, SchemaVersion)
	}
	for _, name := range []string{"questions", "questions_fts", "questions_created", "questions_state", "questions_client", "questions_docid"} {
		var n int
		if err := s.db.QueryRow(`SELECT COUNT(*) FROM sqlite_schema WHERE name = ?`, name).Scan(&n); err != nil || n != 1 {
			t.Errorf("schema object %s: count %d, %v", name, n, err)
		}
	}
}

func TestSQLite_MigratesFromVersion1(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "history.db")
	s, err := open(path, 1)
	if err != nil {
		t.Fatal(err)
	}
	if v := userVersion(t, s); v != 1 {
		t.Fatalf("user_version = %d, want 1", v)
	}
	q := newQuestion("old", base)
	q.State = question.State(question.Answered)
	q.Message = "Rotate the signing keys?"
	r := answered("rotated yesterday", base.Add(time.Minute))
	qj, _ := encode(q)
	rj, _ := encode(r)
	_, err = s.db.Exec(`INSERT INTO questions (id, kind, client_name, client_version, session_id, created, deadline,
		state, decided_by, decided_at, question_json, result_json) VALUES (?, ?, ?, '', '', ?, ?, ?, ?, ?, ?, ?)`,
		q.ID, string(q.Kind), q.Client.Name, nanos(q.Created), nanos(q.Deadline), string(q.State),
		string(r.DecidedBy), nanos(r.DecidedAt), string(qj), string(rj))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	if v := userVersion(t, s); v != SchemaVersion {
		t.Errorf("user_version = %d, want %d", v, SchemaVersion)
	}
	ctx := context.Background()
	for _, search := range []string{"signing keys", "yesterday"} {
		p, err := s.List(ctx, Filter{Search: search})
		if err != nil || !slices.Equal(ids(p.Records), []string{"old"}) {
			t.Errorf("List(Search: %q) = %v, %v; want [old]", search, ids(p.Records), err)
		}
	}
	// New rows get their own search entries next to the backfilled one.
	n := newQuestion("new", base.Add(time.Hour))
	n.Message = "Rotate the logs?"
	add(t, s, n, nil)
	if p, err := s.List(ctx, Filter{Search: "rotate"}); err != nil || !slices.Equal(ids(p.Records), []string{"new", "old"}) {
		t.Errorf("List(Search: rotate) = %v, %v; want [new old]", ids(p.Records), err)
	}
}

func TestSQLite_RejectsNewerSchema(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "history.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, SchemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	if s, err := Open(path); err == nil {
		_ = s.Close()
		t.Error("Open of a newer schema did not fail")
	}
}

func TestSQLite_Pragmas(t *testing.T) {
	t.Parallel()
	s := openSQLite(t)
	ctx := context.Background()
	// Hold one connection so that the second is a fresh one.
	c1, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c1.Close() }()
	c2, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c2.Close() }()
	for i, c := range []*sql.Conn{c1, c2} {
		for _, p := range []struct{ pragma, want string }{
			{"journal_mode", "wal"}, {"synchronous", "2"}, {"busy_timeout", "5000"}, {"foreign_keys", "1"},
		} {
			var got string
			if err := c.QueryRowContext(ctx, "PRAGMA "+p.pragma).Scan(&got); err != nil || got != p.want {
				t.Errorf("connection %d: PRAGMA %s = %q, %v; want %q", i+1, p.pragma, got, err, p.want)
			}
		}
	}
}

func TestSQLite_SurvivesReopen(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "history.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	q := newQuestion("kept", base)
	r := answered("durable", base.Add(time.Second))
	add(t, s, q, r)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	rec, err := s.Get(context.Background(), "kept")
	if err != nil {
		t.Fatal(err)
	}
	q.State = question.State(question.Answered)
	if d := diffQuestion(rec.Question, q) + diffResult(rec.Result, r); d != "" {
		t.Error(d)
	}
}

func TestSQLite_FileMode(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no Unix file modes on Windows")
	}
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing.db")
	if err := os.WriteFile(existing, nil, 0o400); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(dir, "new.db"), existing} {
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		_ = s.Close()
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if m := fi.Mode().Perm(); m != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(path), m)
		}
	}
}

func TestSQLite_PathWithURICharacters(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("? is not allowed in Windows file names")
	}
	dir := filepath.Join(t.TempDir(), "a?b#c%20d")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "history.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	add(t, s, newQuestion("a", base), nil)
	_ = s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database not at its path: %v", err)
	}
}

func TestSQLite_ConcurrentBeginEnd(t *testing.T) {
	t.Parallel()
	s := openSQLite(t)
	ctx := context.Background()
	const workers, each = 20, 5
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				q := newQuestion(fmt.Sprintf("w%02d-%02d", w, i), base.Add(time.Duration(i)*time.Second))
				if err := s.Begin(ctx, q); err != nil {
					errs <- err
					return
				}
				if _, err := s.List(ctx, Filter{Limit: 5}); err != nil {
					errs <- err
				}
				if err := s.End(ctx, q, *answered("ok", q.Created)); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	n, err := s.Count(ctx, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if n[question.State(question.Answered)] != workers*each || n[question.StatePending] != 0 {
		t.Errorf("Count = %v, want %d answered", n, workers*each)
	}
}

func TestSQLite_OpenRejectsDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if s, err := Open(dir); err == nil {
		_ = s.Close()
		t.Fatal("Open of a directory did not fail")
	}
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() == 0o600 {
		t.Errorf("directory mode changed to %v (%v)", fi.Mode(), err)
	}
}

// TestSQLite_MigrateOrigin: a question recorded before origins were gets
// the origin its tool then meant, and one without a tool gets none.
func TestSQLite_MigrateOrigin(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "history.db")
	s, err := open(path, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]question.Origin{}
	for i, c := range []struct {
		kind   question.Kind
		tool   string
		origin question.Origin
	}{
		{question.KindApproval, "permission_prompt", question.OriginPermission},
		{question.KindApproval, "permission_request", question.OriginPermission},
		{question.KindChoice, "permission_request", question.OriginAgentQuestion},
		{question.KindApproval, "request_approval", question.OriginApproval},
		{question.KindNotice, "notification", question.OriginAgentNotice},
		{question.KindConfirm, "ask_confirm", question.OriginAsk},
		{question.KindNotice, "notify", question.OriginAsk},
		{question.KindNotice, "", ""},
	} {
		q := newQuestion(fmt.Sprintf("q%d", i), base.Add(time.Duration(i)*time.Minute))
		q.Kind, q.Tool = c.kind, c.tool
		qj, _ := encode(q)
		if _, err := s.db.Exec(`INSERT INTO questions (id, docid, kind, client_name, client_version, session_id, created, deadline,
			state, question_json) VALUES (?, ?, ?, '', '', '', ?, ?, ?, ?)`,
			q.ID, i+1, string(q.Kind), nanos(q.Created), nanos(q.Deadline), string(q.State), string(qj)); err != nil {
			t.Fatal(err)
		}
		want[q.ID] = c.origin
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	for id, o := range want {
		rec, err := s.Get(context.Background(), id)
		if err != nil || rec.Question.Origin != o {
			t.Errorf("%s (%s, %q): origin %q %v, want %q", id, rec.Question.Kind, rec.Question.Tool, rec.Question.Origin, err, o)
		}
	}
}
