package history

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/asktray/asktray/app/question"
)

var errClosed = errors.New("history store is closed")

// Memory is a Store kept in memory, for tests and for running without a
// database. It has the same semantics as SQLite. Search matches the terms
// case-insensitively against the searchable text with punctuation taken as
// word breaks, each term as whole words and the last as a word prefix; this
// agrees with SQLite's full-text search for simple words, though SQLite also
// folds diacritics. Its methods are safe for concurrent use and never block
// for long.
type Memory struct {
	mu     sync.RWMutex
	rows   map[string]*memRow
	closed bool
}

// memRow is one stored record, kept encoded like a database row so that
// every read returns a fresh copy that normalises exactly as SQLite does.
type memRow struct {
	id      string
	created int64
	state   question.State
	kind    question.Kind
	client  string
	qj, rj  []byte
	text    string // normalised searchText
}

// NewMemory returns an empty in-memory Store.
func NewMemory() *Memory {
	return &Memory{rows: make(map[string]*memRow)}
}

// normalize lower-cases s and turns every run of characters that are not
// letters or digits into one space, so that matching ignores punctuation
// the way the full-text tokenizer does.
func normalize(s string) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !isWordRune(r) })
	return " " + strings.Join(f, " ") + " "
}

// lock takes the lock and checks the store is open and ctx is live.
func (m *Memory) lock(ctx context.Context, write bool) (unlock func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if write {
		m.mu.Lock()
		unlock = m.mu.Unlock
	} else {
		m.mu.RLock()
		unlock = m.mu.RUnlock
	}
	if m.closed {
		unlock()
		return nil, errClosed
	}
	return unlock, nil
}

// Begin records q as pending. It fails, wrapping ErrExists, if q.ID is
// already recorded. It does not block.
func (m *Memory) Begin(ctx context.Context, q question.Question) error {
	if err := checkBegin(q); err != nil {
		return err
	}
	q.State = question.StatePending
	qj, err := encode(q)
	if err != nil {
		return fmt.Errorf("begin question %s: %w", q.ID, err)
	}
	unlock, err := m.lock(ctx, true)
	if err != nil {
		return fmt.Errorf("begin question %s: %w", q.ID, err)
	}
	defer unlock()
	if _, ok := m.rows[q.ID]; ok {
		return fmt.Errorf("begin question %s: %w", q.ID, ErrExists)
	}
	m.rows[q.ID] = &memRow{
		id: q.ID, created: nanos(q.Created), state: q.State, kind: q.Kind, client: q.Client.Name,
		qj: qj, text: normalize(searchText(q, nil)),
	}
	return nil
}

// BeginEnded records q, decided when it was asked, together with its outcome
// r. It fails, wrapping ErrExists, if q.ID is already recorded, and changes
// nothing when r is not a valid outcome. It does not block.
func (m *Memory) BeginEnded(ctx context.Context, q question.Question, r question.Result) error {
	if err := checkBegin(q); err != nil {
		return err
	}
	if err := checkEnd(q, r); err != nil {
		return err
	}
	q.State = question.StatePending
	qj, err := encode(q)
	if err != nil {
		return fmt.Errorf("record decided question %s: %w", q.ID, err)
	}
	unlock, err := m.lock(ctx, true)
	if err != nil {
		return fmt.Errorf("record decided question %s: %w", q.ID, err)
	}
	defer unlock()
	if _, ok := m.rows[q.ID]; ok {
		return fmt.Errorf("record decided question %s: %w", q.ID, ErrExists)
	}
	row := &memRow{
		id: q.ID, created: nanos(q.Created), state: q.State, kind: q.Kind, client: q.Client.Name,
		qj: qj, text: normalize(searchText(q, nil)),
	}
	if err := row.finish(r); err != nil {
		return fmt.Errorf("record decided question %s: %w", q.ID, err)
	}
	m.rows[q.ID] = row
	return nil
}

// End records r as the outcome of the pending question q. Only q.ID is
// read from q: the stored question is kept, with its State set to
// r.Outcome. It fails, wrapping question.ErrNotFound or
// question.ErrNotPending, if the question is unknown or already ended. It
// does not block.
func (m *Memory) End(ctx context.Context, q question.Question, r question.Result) error {
	if err := checkEnd(q, r); err != nil {
		return err
	}
	unlock, err := m.lock(ctx, true)
	if err != nil {
		return fmt.Errorf("end question %s: %w", q.ID, err)
	}
	defer unlock()
	row, ok := m.rows[q.ID]
	switch {
	case !ok:
		return fmt.Errorf("end question %s: %w", q.ID, question.ErrNotFound)
	case row.state != question.StatePending:
		return fmt.Errorf("end question %s: %w: it is %s", q.ID, question.ErrNotPending, row.state)
	}
	if err := row.finish(r); err != nil {
		return fmt.Errorf("end question %s: %w", q.ID, err)
	}
	return nil
}

// finish stores r as the outcome of the pending row.
func (row *memRow) finish(r question.Result) error {
	q, err := decodeQuestion(row.qj)
	if err != nil {
		return fmt.Errorf("decode question: %w", err)
	}
	q.State = question.State(r.Outcome)
	qj, err := encode(q)
	if err != nil {
		return err
	}
	rj, err := encode(r)
	if err != nil {
		return err
	}
	row.state, row.qj, row.rj = q.State, qj, rj
	row.text = normalize(searchText(q, &r))
	return nil
}

// Lookup returns the question with the given id and, if it has ended, its
// result. It fails, wrapping question.ErrNotFound, if the id is unknown. It
// does not block.
func (m *Memory) Lookup(ctx context.Context, id string) (question.Question, *question.Result, error) {
	rec, err := m.Get(ctx, id)
	if err != nil {
		return question.Question{}, nil, err
	}
	return rec.Question, rec.Result, nil
}

// Get returns the record with the given id. It fails, wrapping
// question.ErrNotFound, if the id is unknown. It does not block.
func (m *Memory) Get(ctx context.Context, id string) (Record, error) {
	unlock, err := m.lock(ctx, false)
	if err != nil {
		return Record{}, fmt.Errorf("get question %s: %w", id, err)
	}
	defer unlock()
	row, ok := m.rows[id]
	if !ok {
		return Record{}, fmt.Errorf("get question %s: %w", id, question.ErrNotFound)
	}
	rec, err := decodeRecord(row.qj, row.rj)
	if err != nil {
		return Record{}, fmt.Errorf("get question %s: %w", id, err)
	}
	return rec, nil
}

// matcher returns a test for the rows that match f; outcomes says whether to
// apply f.Outcomes.
func matcher(f Filter, outcomes bool) func(*memRow) bool {
	// Like the full-text query, every term must match whole words, save
	// that the last may end in a word prefix.
	terms := searchTerms(f.Search)
	for i, t := range terms {
		terms[i] = normalize(t)
		if i == len(terms)-1 {
			terms[i] = strings.TrimSuffix(terms[i], " ")
		}
	}
	since, until := nanos(f.Since), nanos(f.Until)
	return func(r *memRow) bool {
		switch {
		case outcomes && len(f.Outcomes) > 0 && !slices.Contains(f.Outcomes, r.state),
			f.Client != "" && r.client != f.Client,
			f.Kind != "" && r.kind != f.Kind,
			!f.Since.IsZero() && r.created < since,
			!f.Until.IsZero() && r.created >= until:
			return false
		}
		for _, t := range terms {
			if !strings.Contains(r.text, t) {
				return false
			}
		}
		return true
	}
}

// List returns a page of the records that match f, newest first (by
// Created, then by id, both descending). It does not block.
func (m *Memory) List(ctx context.Context, f Filter) (Page, error) {
	c, hasCursor, err := decodeCursor(f.Cursor)
	if err != nil {
		return Page{}, fmt.Errorf("list questions: %w", err)
	}
	unlock, err := m.lock(ctx, false)
	if err != nil {
		return Page{}, fmt.Errorf("list questions: %w", err)
	}
	defer unlock()
	match := matcher(f, true)
	var rows []*memRow
	for _, r := range m.rows {
		if match(r) && (!hasCursor || c.after(r.created, r.id)) {
			rows = append(rows, r)
		}
	}
	slices.SortFunc(rows, func(a, b *memRow) int {
		return cmp.Or(cmp.Compare(b.created, a.created), strings.Compare(b.id, a.id))
	})
	var p Page
	if limit := pageLimit(f.Limit); len(rows) > limit {
		rows = rows[:limit]
		p.Next = encodeCursor(cursor{created: rows[limit-1].created, id: rows[limit-1].id})
	}
	for _, r := range rows {
		rec, err := decodeRecord(r.qj, r.rj)
		if err != nil {
			return Page{}, fmt.Errorf("list questions: question %s: %w", r.id, err)
		}
		p.Records = append(p.Records, rec)
	}
	return p, nil
}

// Count returns the number of records per state that match f, ignoring
// f.Outcomes, f.Limit and f.Cursor; every state has an entry. It does not
// block.
func (m *Memory) Count(ctx context.Context, f Filter) (map[question.State]int, error) {
	unlock, err := m.lock(ctx, false)
	if err != nil {
		return nil, fmt.Errorf("count questions: %w", err)
	}
	defer unlock()
	match := matcher(f, false)
	counts := emptyCounts()
	for _, r := range m.rows {
		if match(r) {
			counts[r.state]++
		}
	}
	return counts, nil
}

// Clients returns the distinct non-empty client names, sorted. It does not
// block.
func (m *Memory) Clients(ctx context.Context) ([]string, error) {
	unlock, err := m.lock(ctx, false)
	if err != nil {
		return nil, fmt.Errorf("list clients: %w", err)
	}
	defer unlock()
	var names []string
	for _, r := range m.rows {
		if r.client != "" {
			names = append(names, r.client)
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// Delete removes the finished record with the given id. It fails, wrapping
// question.ErrNotFound, if the id is unknown, and ErrPending if the question
// has not ended. It does not block.
func (m *Memory) Delete(ctx context.Context, id string) error {
	unlock, err := m.lock(ctx, true)
	if err != nil {
		return fmt.Errorf("delete question %s: %w", id, err)
	}
	defer unlock()
	row, ok := m.rows[id]
	if !ok {
		return fmt.Errorf("delete question %s: %w", id, question.ErrNotFound)
	}
	if row.state == question.StatePending {
		return fmt.Errorf("delete question %s: %w", id, ErrPending)
	}
	delete(m.rows, id)
	return nil
}

// DeleteOlderThan removes the finished records created before t and returns
// how many it removed; pending records stay. It does not block.
func (m *Memory) DeleteOlderThan(ctx context.Context, t time.Time) (int, error) {
	if t.IsZero() {
		return 0, nil
	}
	unlock, err := m.lock(ctx, true)
	if err != nil {
		return 0, fmt.Errorf("delete questions before %s: %w", t.Format(time.RFC3339), err)
	}
	defer unlock()
	n, before := 0, nanos(t)
	for id, r := range m.rows {
		if r.created < before && r.state != question.StatePending {
			delete(m.rows, id)
			n++
		}
	}
	return n, nil
}

// InterruptPending ends every pending record with outcome Interrupted,
// decided by the app for reason ReasonStopped at time at, and returns their
// ids, oldest first. It does not block.
func (m *Memory) InterruptPending(ctx context.Context, at time.Time) ([]string, error) {
	unlock, err := m.lock(ctx, true)
	if err != nil {
		return nil, fmt.Errorf("interrupt pending questions: %w", err)
	}
	defer unlock()
	var pending []*memRow
	for _, r := range m.rows {
		if r.state == question.StatePending {
			pending = append(pending, r)
		}
	}
	slices.SortFunc(pending, func(a, b *memRow) int {
		return cmp.Or(cmp.Compare(a.created, b.created), strings.Compare(a.id, b.id))
	})
	ids := make([]string, 0, len(pending))
	for _, r := range pending {
		if err := r.finish(interruption(at)); err != nil {
			return nil, fmt.Errorf("interrupt pending questions: question %s: %w", r.id, err)
		}
		ids = append(ids, r.id)
	}
	return ids, nil
}

// Close empties and closes the store; later calls fail.
func (m *Memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed, m.rows = true, nil
	return nil
}
