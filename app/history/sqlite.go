package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/asktray/asktray/app/question"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

var (
	_ Store = (*SQLite)(nil)
)

// SQLite is a Store kept in an SQLite database file in WAL mode. Writes are
// serialized and each one is durable (synchronous=FULL) when its call
// returns; reads run concurrently. Its methods are safe for concurrent use.
type SQLite struct {
	db   *sql.DB
	path string
	wmu  chan struct{} // holds one token while a write transaction runs
}

// Open opens the history database at path, creating the file with mode 0600
// if it does not exist and migrating its schema to SchemaVersion. The
// directory must exist. It blocks until the database is ready.
func Open(path string) (*SQLite, error) {
	return open(path, SchemaVersion)
}

// open is Open with the schema migrated only up to version; tests use it to
// make databases at older versions.
func open(path string, version int) (*SQLite, error) {
	s, err := openAt(path, version)
	if err != nil {
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	return s, nil
}

func openAt(path string, version int) (*SQLite, error) {
	if path == "" {
		return nil, errors.New("empty path")
	}
	if err := makePrivate(path); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, err
	}
	n := max(4, runtime.GOMAXPROCS(0))
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	s := &SQLite{db: db, path: path, wmu: make(chan struct{}, 1)}
	if err := s.init(version); err != nil {
		_ = db.Close()
		return nil, err
	}
	return s, nil
}

// makePrivate creates the file at path with mode 0600, or sets an existing
// one's mode to 0600: the database may hold secrets from answers. SQLite
// gives its -wal and -shm files the database file's mode.
func makePrivate(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f, err := os.OpenFile(filepath.Clean(path), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			return makePrivate(path) // created meanwhile by someone else
		}
		if err != nil {
			return err
		}
		return f.Close()
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return errors.New("not a regular file")
	case fi.Mode().Perm() != 0o600:
		return os.Chmod(path, 0o600)
	}
	return nil
}

// dsn returns the data source name for the file at path: a file: URI whose
// query sets the PRAGMAs every connection gets, and makes every transaction
// take the write lock at once (BEGIN IMMEDIATE), which only writes use.
func dsn(path string) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	if strings.HasPrefix(esc, "/") {
		esc = "//" + esc // an empty authority, so that "//x" stays a path
	}
	return "file:" + esc + "?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)" +
		"&_pragma=synchronous(FULL)&_pragma=foreign_keys(ON)&_txlock=immediate"
}

// init checks the journal mode and migrates the schema to version.
func (s *SQLite) init(version int) error {
	ctx := context.Background()
	var mode string
	if err := s.db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
		return fmt.Errorf("read journal mode: %w", err)
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("journal mode is %q, want wal", mode)
	}
	return migrate(ctx, s.db, version)
}

// write runs fn in a write transaction, one at a time.
func (s *SQLite) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	select {
	case s.wmu <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.wmu }()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Begin records q as pending. It fails, wrapping ErrExists, if q.ID is
// already recorded. It blocks until the record is durable.
func (s *SQLite) Begin(ctx context.Context, q question.Question) error {
	if err := checkBegin(q); err != nil {
		return err
	}
	q.State = question.StatePending
	qj, err := encode(q)
	if err != nil {
		return fmt.Errorf("begin question %s: %w", q.ID, err)
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM questions WHERE id = ?`, q.ID).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return ErrExists
		}
		var docid int64
		if err := tx.QueryRowContext(ctx, `SELECT IFNULL(MAX(docid), 0) + 1 FROM questions`).Scan(&docid); err != nil {
			return err
		}
		return insert(ctx, tx, docid, q, qj)
	})
	if err != nil {
		return fmt.Errorf("begin question %s: %w", q.ID, err)
	}
	return nil
}

// BeginEnded records q, decided when it was asked, together with its outcome
// r in one transaction: one durable commit instead of Begin's and End's two.
// It fails, wrapping ErrExists, if q.ID is already recorded. It blocks until
// the record is durable.
func (s *SQLite) BeginEnded(ctx context.Context, q question.Question, r question.Result) error {
	if err := checkBegin(q); err != nil {
		return err
	}
	if err := checkEnd(q, r); err != nil {
		return err
	}
	q.State = question.State(r.Outcome)
	qj, err := encode(q)
	if err != nil {
		return fmt.Errorf("record decided question %s: %w", q.ID, err)
	}
	rj, err := encode(r)
	if err != nil {
		return fmt.Errorf("record decided question %s: %w", q.ID, err)
	}
	// Three statements, not Begin's four and End's two: the rows are
	// written once, already ended.
	err = s.write(ctx, func(tx *sql.Tx) error {
		var n, docid int64
		err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM questions WHERE id = ?),
			(SELECT IFNULL(MAX(docid), 0) + 1 FROM questions)`, q.ID).Scan(&n, &docid)
		if err != nil {
			return err
		}
		if n > 0 {
			return ErrExists
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO questions
			(id, docid, kind, client_name, client_version, session_id, created, deadline, state,
			 decided_by, reason, via, decided_at, rule_id, question_json, result_json)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			q.ID, docid, string(q.Kind), q.Client.Name, q.Client.Version, q.Client.SessionID,
			nanos(q.Created), nanos(q.Deadline), string(q.State),
			string(r.DecidedBy), string(r.Reason), string(r.Via), nanos(r.DecidedAt), r.RuleID, string(qj), string(rj))
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO questions_fts (rowid, body) VALUES (?, ?)`, docid, searchText(q, &r))
		return err
	})
	if err != nil {
		return fmt.Errorf("record decided question %s: %w", q.ID, err)
	}
	return nil
}

// insert adds the pending question q, encoded as qj, under docid.
func insert(ctx context.Context, tx *sql.Tx, docid int64, q question.Question, qj []byte) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO questions
		(id, docid, kind, client_name, client_version, session_id, created, deadline, state, question_json)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		q.ID, docid, string(q.Kind), q.Client.Name, q.Client.Version, q.Client.SessionID,
		nanos(q.Created), nanos(q.Deadline), string(question.StatePending), string(qj))
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO questions_fts (rowid, body) VALUES (?, ?)`, docid, searchText(q, nil))
	return err
}

// End records r as the outcome of the pending question q. Only q.ID is
// read from q: the stored question is kept, with its State set to
// r.Outcome. It fails, wrapping question.ErrNotFound or
// question.ErrNotPending, if the question is unknown or already ended. It
// blocks until the record is durable.
func (s *SQLite) End(ctx context.Context, q question.Question, r question.Result) error {
	if err := checkEnd(q, r); err != nil {
		return err
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		var (
			docid int64
			state string
			qj    []byte
		)
		err := tx.QueryRowContext(ctx, `SELECT docid, state, question_json FROM questions WHERE id = ?`, q.ID).
			Scan(&docid, &state, &qj)
		if errors.Is(err, sql.ErrNoRows) {
			return question.ErrNotFound
		}
		if err != nil {
			return err
		}
		if question.State(state) != question.StatePending {
			return fmt.Errorf("%w: it is %s", question.ErrNotPending, state)
		}
		stored, err := decodeQuestion(qj)
		if err != nil {
			return fmt.Errorf("decode question: %w", err)
		}
		return finish(ctx, tx, docid, stored, r)
	})
	if err != nil {
		return fmt.Errorf("end question %s: %w", q.ID, err)
	}
	return nil
}

// finish stores r as the outcome of the pending question q kept under docid.
func finish(ctx context.Context, tx *sql.Tx, docid int64, q question.Question, r question.Result) error {
	q.State = question.State(r.Outcome)
	qj, err := encode(q)
	if err != nil {
		return err
	}
	rj, err := encode(r)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE questions SET state = ?, decided_by = ?, reason = ?, via = ?,
		decided_at = ?, rule_id = ?, question_json = ?, result_json = ? WHERE docid = ?`,
		string(q.State), string(r.DecidedBy), string(r.Reason), string(r.Via),
		nanos(r.DecidedAt), r.RuleID, string(qj), string(rj), docid)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE questions_fts SET body = ? WHERE rowid = ?`, searchText(q, &r), docid)
	return err
}

// Delete removes the finished record with the given id. It fails, wrapping
// question.ErrNotFound, if the id is unknown, and ErrPending if the question
// has not ended (its outcome is still to be recorded). It blocks until the
// removal is durable.
func (s *SQLite) Delete(ctx context.Context, id string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		var docid int64
		var state string
		err := tx.QueryRowContext(ctx, `SELECT docid, state FROM questions WHERE id = ?`, id).Scan(&docid, &state)
		if errors.Is(err, sql.ErrNoRows) {
			return question.ErrNotFound
		}
		if err != nil {
			return err
		}
		if state == string(question.StatePending) {
			return ErrPending
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM questions_fts WHERE rowid = ?`, docid); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM questions WHERE docid = ?`, docid)
		return err
	})
	if err != nil {
		return fmt.Errorf("delete question %s: %w", id, err)
	}
	return nil
}

// DeleteOlderThan removes the finished records created before t and returns
// how many it removed; pending records stay. It blocks until the removal is
// durable.
func (s *SQLite) DeleteOlderThan(ctx context.Context, t time.Time) (int, error) {
	if t.IsZero() {
		return 0, nil
	}
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		const old = `created < ? AND state <> 'pending'`
		if _, err := tx.ExecContext(ctx, `DELETE FROM questions_fts WHERE rowid IN
			(SELECT docid FROM questions WHERE `+old+`)`, nanos(t)); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM questions WHERE `+old, nanos(t))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("delete questions before %s: %w", t.Format(time.RFC3339), err)
	}
	return int(n), nil
}

// InterruptPending ends every pending record with outcome Interrupted,
// decided by the app for reason ReasonStopped at time at, and returns their
// ids, oldest first. It is meant for startup, for questions an earlier run
// left pending. It blocks until the change is durable.
func (s *SQLite) InterruptPending(ctx context.Context, at time.Time) ([]string, error) {
	var ids []string
	err := s.write(ctx, func(tx *sql.Tx) error {
		ids = nil
		rows, err := tx.QueryContext(ctx, `SELECT docid, id, question_json FROM questions
			WHERE state = 'pending' ORDER BY created, id`)
		if err != nil {
			return err
		}
		type row struct {
			docid int64
			q     question.Question
		}
		var pending []row
		for rows.Next() {
			var (
				r  row
				id string
				qj []byte
			)
			if err := rows.Scan(&r.docid, &id, &qj); err != nil {
				_ = rows.Close()
				return err
			}
			if r.q, err = decodeQuestion(qj); err != nil {
				_ = rows.Close()
				return fmt.Errorf("question %s: %w", id, err)
			}
			pending = append(pending, r)
			ids = append(ids, id)
		}
		_ = rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, p := range pending {
			if err := finish(ctx, tx, p.docid, p.q, interruption(at)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("interrupt pending questions: %w", err)
	}
	return ids, nil
}

// Close closes the database. It blocks until open reads finish.
func (s *SQLite) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close history %s: %w", s.path, err)
	}
	return nil
}
