package history

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// The formats Export writes.
const (
	FormatJSON = "json"
	FormatCSV  = "csv"
)

// CSVHeader is the first row of a CSV export; every later row has one field
// per column. New columns go at the end, so that a reader that counts
// columns keeps working.
var CSVHeader = []string{
	"id", "created", "client", "client_version", "session_id", "kind", "header", "question",
	"outcome", "reason", "decided_by", "via", "answer", "note", "decided_at", "elapsed_ms", "verdict",
	"afterwards", "summary", "tool", "command", "path", "cwd", "agent_mode", "rule_id", "rule_scope",
	"host",
}

// Lister is the part of a Store that Export reads; the CLI satisfies it with
// an adapter over the control socket.
type Lister interface {
	// List returns a page of the records that match f, newest first.
	List(ctx context.Context, f Filter) (Page, error)
}

// ListerFunc adapts a function to a Lister.
type ListerFunc func(ctx context.Context, f Filter) (Page, error)

// List calls fn.
func (fn ListerFunc) List(ctx context.Context, f Filter) (Page, error) { return fn(ctx, f) }

// ExportItem is one record in a JSON export. It has the shape of
// control.Item, which 'asktray history --json' prints, so that tools read
// both alike.
type ExportItem struct {
	Question  question.Question `json:"question"`
	Result    *question.Result  `json:"result"`
	ElapsedMS int64             `json:"elapsed_ms,omitempty"`
	Verdict   question.Verdict  `json:"verdict"`
}

// Export writes every record that f selects, newest first, to w in format
// (FormatJSON or FormatCSV, case-insensitive) and returns how many it wrote.
// It pages through s with a cursor from the first page, ignoring f.Limit and
// f.Cursor, so records asked while it runs are left out.
//
// JSON is an indented array of ExportItem. CSV has the columns of CSVHeader,
// times in RFC 3339 UTC, the answer as the result value's JSON, and what
// the question would do (the summary, an agent tool's command or path, its
// working directory, the agent's mode) and the rule that decided it; a text
// field that starts with =, +, -, @, tab or carriage return gets a leading
// apostrophe, so that a spreadsheet shows an agent's text instead of running
// it as a formula. JSON is the lossless format: every invisible character
// is written as a \uXXXX escape (question.EscapeJSON), so that an agent's
// text printed to a terminal cannot drive it, and decodes as it was.
//
// It fails on an unknown format before writing anything. It blocks on s and
// w and may be called from any goroutine.
func Export(ctx context.Context, s Lister, f Filter, format string, w io.Writer) (int, error) {
	var (
		n   int
		err error
	)
	switch strings.ToLower(format) {
	case FormatJSON:
		n, err = exportJSON(ctx, s, f, w)
	case FormatCSV:
		n, err = exportCSV(ctx, s, f, w)
	default:
		return 0, fmt.Errorf("export history: unknown format %q: want json or csv", format)
	}
	if err != nil {
		return n, fmt.Errorf("export history as %s: %w", strings.ToLower(format), err)
	}
	return n, nil
}

// eachRecord calls fn for every record f selects, page by page.
func eachRecord(ctx context.Context, s Lister, f Filter, fn func(Record) error) (int, error) {
	f.Limit, f.Cursor = MaxLimit, ""
	n := 0
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		p, err := s.List(ctx, f)
		if err != nil {
			return n, err
		}
		for _, rec := range p.Records {
			if err := fn(rec); err != nil {
				return n, err
			}
			n++
		}
		if p.Next == "" || len(p.Records) == 0 {
			return n, nil
		}
		f.Cursor = p.Next
	}
}

// exportJSON writes the records as an indented JSON array, one at a time.
func exportJSON(ctx context.Context, s Lister, f Filter, w io.Writer) (int, error) {
	bw := bufio.NewWriter(w)
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("  ", "  ")
	_, _ = bw.WriteString("[")
	sep := "\n  "
	n, err := eachRecord(ctx, s, f, func(rec Record) error {
		buf.Reset()
		if err := enc.Encode(NewExportItem(rec)); err != nil {
			return fmt.Errorf("encode question %s: %w", rec.Question.ID, err)
		}
		_, _ = bw.WriteString(sep)
		sep = ",\n  "
		_, err := bw.Write(question.EscapeJSON([]byte(strings.TrimSuffix(buf.String(), "\n"))))
		return err
	})
	if err != nil {
		return n, err
	}
	if n > 0 {
		_, _ = bw.WriteString("\n")
	}
	_, _ = bw.WriteString("]\n")
	if err := bw.Flush(); err != nil {
		return n, fmt.Errorf("write: %w", err)
	}
	return n, nil
}

// NewExportItem returns rec as it appears in a JSON export.
func NewExportItem(rec Record) ExportItem {
	it := ExportItem{Question: rec.Question, Result: rec.Result, Verdict: question.VerdictOf(&rec.Question, rec.Result)}
	if rec.Result != nil {
		it.ElapsedMS = rec.Elapsed().Milliseconds()
	}
	return it
}

// exportCSV writes the header and one row per record.
func exportCSV(ctx context.Context, s Lister, f Filter, w io.Writer) (int, error) {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return 0, fmt.Errorf("write: %w", err)
	}
	n, err := eachRecord(ctx, s, f, func(rec Record) error {
		return cw.Write(csvRow(rec))
	})
	if err != nil {
		return n, err
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return n, fmt.Errorf("write: %w", err)
	}
	return n, nil
}

// csvRow returns rec's fields in the order of CSVHeader.
func csvRow(rec Record) []string {
	q, r := rec.Question, rec.Result
	row := []string{
		q.ID, csvTime(q.Created), csvText(q.Client.Name), csvText(q.Client.Version), csvText(q.Client.SessionID),
		string(q.Kind), csvText(q.Header), csvText(q.Message),
		string(question.StatePending), "", "", "", "", "", "", "", string(question.VerdictOf(&q, r)), "",
	}
	row = append(row, subjectColumns(&q)...)
	row = append(row, "", "", csvText(q.Host))
	if r != nil {
		row[8], row[9], row[10], row[11] = string(r.Outcome), string(r.Reason), string(r.DecidedBy), string(r.Via)
		row[12], row[13] = markControls(string(r.Value)), csvText(r.Note)
		row[14], row[15] = csvTime(r.DecidedAt), strconv.FormatInt(rec.Elapsed().Milliseconds(), 10)
		row[17] = string(r.Afterwards)
		row[len(row)-3], row[len(row)-2] = csvText(r.RuleID), csvText(r.RuleScope)
	}
	return row
}

// subjectColumns are the columns that say what q would do: its one-line
// name (present.LineName, no home directory), and for an agent tool's
// approval the tool, its command or path, then the working directory and
// the agent's permission mode.
func subjectColumns(q *question.Question) []string {
	tool, cmd, path := "", "", ""
	if present.IsToolApproval(q) {
		tool = q.Action
		cmd, path = present.ToolCommand(q)
	}
	return []string{csvText(present.LineName(q, "", 200)), csvText(tool), csvText(cmd), csvText(path), csvText(q.Cwd), csvText(q.AgentMode)}
}

// csvTime formats t in RFC 3339 UTC, or "" for the zero time.
func csvTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// csvText defuses text that a spreadsheet would take for a formula (OWASP's
// advice on CSV injection) by putting an apostrophe in front of it, and
// writes each control character but a line break or a tab as its marker
// (question.Marker: ⟨U+001B⟩), so that an agent's text cannot drive the
// terminal a CSV export is printed on (an escape sequence, a C1 control).
func csvText(s string) string {
	s = markControls(s)
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// markControls writes each control character of s but a line break or a
// tab as its marker.
func markControls(s string) string {
	if strings.IndexFunc(s, terminalControl) >= 0 {
		var b strings.Builder
		for _, r := range s {
			if terminalControl(r) {
				b.WriteString(question.Marker(r))
			} else {
				b.WriteRune(r)
			}
		}
		s = b.String()
	}
	return s
}

// terminalControl reports whether r is a control character other than a
// line break or a tab: what a terminal may act on.
func terminalControl(r rune) bool {
	return unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r'
}
