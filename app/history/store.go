package history

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/asktray/asktray/app/question"
)

// Page sizes for List.
const (
	DefaultLimit = 50
	MaxLimit     = 1000
)

// ErrExists is wrapped by the error Begin returns when a question with the
// same id is already recorded.
var ErrExists = errors.New("question already recorded")

// ErrPending is wrapped by the error Delete returns for a question that is
// still pending: its outcome has yet to be recorded.
var ErrPending = errors.New("question is still pending")

// Record is one question and, once it has ended, its result.
type Record struct {
	Question question.Question
	Result   *question.Result // nil while pending
}

// Elapsed returns how long the question waited for its outcome, or 0 while it
// is pending.
func (r Record) Elapsed() time.Duration {
	if r.Result == nil {
		return 0
	}
	return r.Result.DecidedAt.Sub(r.Question.Created)
}

// Filter selects records for List and Count. The zero Filter selects every
// record.
type Filter struct {
	Outcomes []question.State // empty = all; may include question.StatePending
	// Verdicts selects by what the end meant (question.VerdictFor, derived
	// when read); empty = all. With Outcomes, a record must match both.
	Verdicts []question.Verdict
	Client   string // exact client name; empty = all
	// Host is where the asking agent ran: a remote host's exact name
	// (question.Question.Host), ThisMachine for this user's own agents,
	// empty for all.
	Host  string
	Kind  question.Kind // empty = all
	Since time.Time     // Created >= Since; zero = unbounded
	Until time.Time     // Created < Until; zero = unbounded

	// Search is a full-text query over the header, message, option labels
	// and descriptions, answer value and note, and client name. Every
	// whitespace-separated term must match; the last matches as a prefix.
	// It is plain user text: no character in it has a special meaning,
	// punctuation separates words, and terms with no letter or digit are
	// ignored.
	Search string

	Limit  int    // page size; 0 means DefaultLimit; capped at MaxLimit
	Cursor string // opaque, from Page.Next or CursorAt; empty = first page

	// Reverse lists oldest first: the page after Cursor holds the records
	// newer than it, the oldest of them first, and Next goes on toward the
	// newest. With no Cursor it starts at the oldest record.
	Reverse bool
}

// ThisMachine is Filter.Host for the questions of this user's own agents,
// asked on no remote host's channel.
const ThisMachine = "."

// Page is one page of records, newest first.
type Page struct {
	Records []Record
	Next    string // cursor of the next page; empty when there are no more rows
}

// Store keeps questions and their outcomes. Implementations are safe for
// concurrent use.
//
// Begin fails with an error wrapping ErrExists when the id is already
// recorded. End, Annotate, Lookup, Get and Delete fail with an error
// wrapping question.ErrNotFound when the id is unknown, End fails with an
// error wrapping question.ErrNotPending when the question has already
// ended, and Annotate with one wrapping question.ErrStillPending when it has
// not.
//
// A stored question reads back with every field intact except that its
// State is the row's state (pending, or the outcome once ended), times are
// in UTC, and json.RawMessage values are compacted: they are JSON-equal,
// not necessarily byte-equal, to what was stored.
type Store interface {
	question.DecidedJournal
	question.Lookup
	question.Annotator

	// Get returns the record with the given id.
	Get(ctx context.Context, id string) (Record, error)
	// List returns a page of the records that match f, newest first (oldest
	// first with f.Reverse).
	List(ctx context.Context, f Filter) (Page, error)
	// Count returns the number of records per state (pending and every
	// outcome, zeros included) that match f, ignoring f.Outcomes,
	// f.Verdicts, f.Limit and f.Cursor.
	Count(ctx context.Context, f Filter) (map[question.State]int, error)
	// CountVerdicts returns the number of records per verdict (every one,
	// zeros included) that match f, ignoring f.Outcomes, f.Verdicts,
	// f.Limit and f.Cursor.
	CountVerdicts(ctx context.Context, f Filter) (map[question.Verdict]int, error)
	// Clients returns the distinct non-empty client names, sorted.
	Clients(ctx context.Context) ([]string, error)
	// Hosts returns the distinct remote hosts that asked (question.Question.Host,
	// never "" for this machine), sorted.
	Hosts(ctx context.Context) ([]string, error)
	// Delete removes the record with the given id.
	Delete(ctx context.Context, id string) error
	// DeleteOlderThan removes finished records created before t and returns
	// how many it removed. It never removes pending records.
	DeleteOlderThan(ctx context.Context, t time.Time) (int, error)
	// InterruptPending ends every pending record with outcome Interrupted,
	// decided by the app for reason ReasonStopped at time at, and returns
	// their ids, oldest first.
	InterruptPending(ctx context.Context, at time.Time) ([]string, error)
	// Close releases the store.
	Close() error
}

// pageLimit returns the effective page size for n.
func pageLimit(n int) int {
	switch {
	case n <= 0:
		return DefaultLimit
	case n > MaxLimit:
		return MaxLimit
	default:
		return n
	}
}

// nanos returns t as Unix nanoseconds, with 0 for the zero time.
func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// cursor is the position after which the next page starts.
type cursor struct {
	created int64
	id      string
}

// CursorAt returns the cursor of the page that starts just past r: the
// records older than r in List's order, the records newer than r with
// Filter.Reverse. r need not be stored any more. It may be called on any
// goroutine.
func CursorAt(r Record) string {
	return encodeCursor(cursor{created: nanos(r.Question.Created), id: r.Question.ID})
}

func encodeCursor(c cursor) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(c.created, 10) + ":" + c.id))
}

// decodeCursor parses s; ok is false for the empty cursor.
func decodeCursor(s string) (c cursor, ok bool, err error) {
	if s == "" {
		return cursor{}, false, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return cursor{}, false, fmt.Errorf("invalid cursor %q: %w", s, err)
	}
	n, id, found := strings.Cut(string(b), ":")
	if !found {
		return cursor{}, false, fmt.Errorf("invalid cursor %q", s)
	}
	created, err := strconv.ParseInt(n, 10, 64)
	if err != nil {
		return cursor{}, false, fmt.Errorf("invalid cursor %q: %w", s, err)
	}
	return cursor{created: created, id: id}, true, nil
}

// searchTerms splits a user's search text into terms, dropping those with
// no letter or digit, since the full-text index cannot match them.
func searchTerms(s string) []string {
	var terms []string
	for t := range strings.FieldsSeq(s) {
		if strings.IndexFunc(t, isWordRune) >= 0 {
			terms = append(terms, t)
		}
	}
	return terms
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

// ftsQuery turns terms into an FTS5 query: each term quoted as a string,
// all of them required, the last one matched as a prefix.
func ftsQuery(terms []string) string {
	var b strings.Builder
	for i, t := range terms {
		if i > 0 {
			b.WriteString(" AND ")
		}
		b.WriteString(`"` + strings.ReplaceAll(t, `"`, `""`) + `"`)
		if i == len(terms)-1 {
			b.WriteString("*")
		}
	}
	return b.String()
}

// searchText returns the text of q and r that Filter.Search looks at.
func searchText(q question.Question, r *question.Result) string {
	parts := []string{q.Client.Name, q.Header, q.Message, q.Tool, q.Action, q.Details, q.AgentReason}
	for _, o := range q.Options {
		parts = append(parts, o.Label, o.Description)
	}
	if r != nil {
		parts = appendJSONText(parts, r.Value)
		parts = append(parts, r.Note)
	}
	return strings.Join(parts, "\n")
}

// appendJSONText appends the keys, strings, numbers and booleans of the JSON
// value raw to parts, or raw itself when it is not valid JSON.
func appendJSONText(parts []string, raw json.RawMessage) []string {
	if len(raw) == 0 {
		return parts
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return append(parts, string(raw))
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				parts = append(parts, k)
				walk(v[k])
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		case string:
			parts = append(parts, v)
		case json.Number:
			parts = append(parts, v.String())
		case bool:
			parts = append(parts, strconv.FormatBool(v))
		}
	}
	walk(v)
	return parts
}

// encode returns v as compact JSON without HTML escaping.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// decodeQuestion parses a stored question, with its times in UTC.
func decodeQuestion(b []byte) (question.Question, error) {
	var q question.Question
	if err := json.Unmarshal(b, &q); err != nil {
		return question.Question{}, err
	}
	q.Created = q.Created.UTC()
	q.Deadline = q.Deadline.UTC()
	q.SnoozeUntil = q.SnoozeUntil.UTC()
	return q, nil
}

// decodeResult parses a stored result, or returns nil for an empty one.
func decodeResult(b []byte) (*question.Result, error) {
	if len(b) == 0 {
		return nil, nil
	}
	var r question.Result
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	r.DecidedAt = r.DecidedAt.UTC()
	return &r, nil
}

// checkBegin validates the arguments of Begin.
func checkBegin(q question.Question) error {
	if q.ID == "" {
		return errors.New("begin question: empty id")
	}
	return nil
}

// checkEnd validates the arguments of End.
func checkEnd(q question.Question, r question.Result) error {
	if q.ID == "" {
		return errors.New("end question: empty id")
	}
	if !r.Outcome.Valid() {
		return fmt.Errorf("end question %s: invalid outcome %q", q.ID, r.Outcome)
	}
	return nil
}

// interruption is the result InterruptPending gives a pending question.
func interruption(at time.Time) question.Result {
	return question.Result{
		Outcome:   question.Interrupted,
		DecidedBy: question.ByApp,
		Reason:    question.ReasonStopped,
		DecidedAt: at,
	}
}

// emptyCounts returns a count of zero for every state.
func emptyCounts() map[question.State]int {
	m := make(map[question.State]int, len(question.Outcomes)+1)
	m[question.StatePending] = 0
	for _, o := range question.Outcomes {
		m[question.State(o)] = 0
	}
	return m
}

// decodeRecord parses a stored question and its result, if any.
func decodeRecord(qj, rj []byte) (Record, error) {
	q, err := decodeQuestion(qj)
	if err != nil {
		return Record{}, fmt.Errorf("decode question: %w", err)
	}
	r, err := decodeResult(rj)
	if err != nil {
		return Record{}, fmt.Errorf("decode result: %w", err)
	}
	return Record{Question: q, Result: r}, nil
}
