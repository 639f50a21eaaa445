package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/asktray/asktray/app/question"
)

// Lookup returns the question with the given id and, if it has ended, its
// result. It fails, wrapping question.ErrNotFound, if the id is unknown.
func (s *SQLite) Lookup(ctx context.Context, id string) (question.Question, *question.Result, error) {
	rec, err := s.Get(ctx, id)
	if err != nil {
		return question.Question{}, nil, err
	}
	return rec.Question, rec.Result, nil
}

// Get returns the record with the given id. It fails, wrapping
// question.ErrNotFound, if the id is unknown.
func (s *SQLite) Get(ctx context.Context, id string) (Record, error) {
	var qj, rj []byte
	err := s.db.QueryRowContext(ctx, `SELECT question_json, result_json FROM questions WHERE id = ?`, id).Scan(&qj, &rj)
	if errors.Is(err, sql.ErrNoRows) {
		err = question.ErrNotFound
	}
	if err != nil {
		return Record{}, fmt.Errorf("get question %s: %w", id, err)
	}
	rec, err := decodeRecord(qj, rj)
	if err != nil {
		return Record{}, fmt.Errorf("get question %s: %w", id, err)
	}
	return rec, nil
}

// where returns the SQL condition selecting the rows that match f, and its
// arguments; outcomes says whether to apply f.Outcomes and f.Verdicts.
func where(f Filter, outcomes bool) (string, []any) {
	conds := []string{"1"}
	var args []any
	if outcomes && len(f.Outcomes) > 0 {
		conds = append(conds, "state IN (?"+strings.Repeat(", ?", len(f.Outcomes)-1)+")")
		for _, o := range f.Outcomes {
			args = append(args, string(o))
		}
	}
	if outcomes && len(f.Verdicts) > 0 {
		cond, vargs := verdictCond(f.Verdicts)
		conds = append(conds, cond)
		args = append(args, vargs...)
	}
	if f.Client != "" {
		conds = append(conds, "client_name = ?")
		args = append(args, f.Client)
	}
	if f.Host != "" {
		host := f.Host
		if host == ThisMachine {
			host = ""
		}
		conds = append(conds, "IFNULL(json_extract(question_json, '$.host'), '') = ?")
		args = append(args, host)
	}
	if f.Kind != "" {
		conds = append(conds, "kind = ?")
		args = append(args, string(f.Kind))
	}
	if !f.Since.IsZero() {
		conds = append(conds, "created >= ?")
		args = append(args, nanos(f.Since))
	}
	if !f.Until.IsZero() {
		conds = append(conds, "created < ?")
		args = append(args, nanos(f.Until))
	}
	if terms := searchTerms(f.Search); len(terms) > 0 {
		conds = append(conds, "docid IN (SELECT rowid FROM questions_fts WHERE questions_fts MATCH ?)")
		args = append(args, ftsQuery(terms))
	}
	return strings.Join(conds, " AND "), args
}

// List returns a page of the records that match f, newest first (by
// Created, then by id, both descending), or oldest first with f.Reverse.
// It blocks while it reads.
func (s *SQLite) List(ctx context.Context, f Filter) (Page, error) {
	c, ok, err := decodeCursor(f.Cursor)
	if err != nil {
		return Page{}, fmt.Errorf("list questions: %w", err)
	}
	cond, args := where(f, true)
	past, order := "<", "DESC"
	if f.Reverse {
		past, order = ">", "ASC"
	}
	if ok {
		cond += " AND (created, id) " + past + " (?, ?)"
		args = append(args, c.created, c.id)
	}
	limit := pageLimit(f.Limit)
	args = append(args, limit+1)
	query := `SELECT created, id, question_json, result_json FROM questions WHERE ` + cond + ` ORDER BY created ` + order + `, id ` + order + ` LIMIT ?` //nolint:gosec // G202: cond holds only constant SQL and bound parameters
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return Page{}, fmt.Errorf("list questions: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var (
		p    Page
		last cursor
	)
	for rows.Next() {
		if len(p.Records) == limit {
			p.Next = encodeCursor(last)
			break
		}
		var qj, rj []byte
		if err := rows.Scan(&last.created, &last.id, &qj, &rj); err != nil {
			return Page{}, fmt.Errorf("list questions: %w", err)
		}
		rec, err := decodeRecord(qj, rj)
		if err != nil {
			return Page{}, fmt.Errorf("list questions: question %s: %w", last.id, err)
		}
		p.Records = append(p.Records, rec)
	}
	if err := rows.Err(); err != nil {
		return Page{}, fmt.Errorf("list questions: %w", err)
	}
	return p, nil
}

// Count returns the number of records per state that match f, ignoring
// f.Outcomes, f.Verdicts, f.Limit and f.Cursor; every state has an entry. It blocks
// while it reads.
func (s *SQLite) Count(ctx context.Context, f Filter) (map[question.State]int, error) {
	cond, args := where(f, false)
	query := `SELECT state, COUNT(*) FROM questions WHERE ` + cond + ` GROUP BY state` //nolint:gosec // G202: cond holds only constant SQL and bound parameters
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("count questions: %w", err)
	}
	defer func() { _ = rows.Close() }()
	m := emptyCounts()
	for rows.Next() {
		var (
			state string
			n     int
		)
		if err := rows.Scan(&state, &n); err != nil {
			return nil, fmt.Errorf("count questions: %w", err)
		}
		m[question.State(state)] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("count questions: %w", err)
	}
	return m, nil
}

// Clients returns the distinct non-empty client names, sorted. It blocks
// while it reads.
func (s *SQLite) Clients(ctx context.Context) ([]string, error) {
	return s.distinct(ctx, "clients", `SELECT DISTINCT client_name FROM questions WHERE client_name <> '' ORDER BY client_name`)
}

// Hosts returns the distinct remote hosts that asked, sorted. It blocks
// while it reads.
func (s *SQLite) Hosts(ctx context.Context) ([]string, error) {
	return s.distinct(ctx, "hosts", `SELECT DISTINCT h FROM (SELECT json_extract(question_json, '$.host') AS h FROM questions)
		WHERE h IS NOT NULL AND h <> '' ORDER BY h`)
}

// distinct runs query, which selects one text column, and returns its
// rows; what names them in errors.
func (s *SQLite) distinct(ctx context.Context, what, query string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", what, err)
	}
	defer func() { _ = rows.Close() }()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, fmt.Errorf("list %s: %w", what, err)
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list %s: %w", what, err)
	}
	return names, nil
}
