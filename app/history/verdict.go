package history

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strings"

	"modernc.org/sqlite"

	"github.com/asktray/asktray/app/question"
)

// verdictSQL is the SQL expression of a row's verdict: question.VerdictFor
// itself, registered with SQLite as asktray_verdict, so that filtering and
// counting read the one rule the front ends show. Only a confirm's value
// decides (yes or no), so only a confirm's is passed.
const verdictSQL = `asktray_verdict(` + verdictInputs + `)`

func init() {
	sqlite.MustRegisterDeterministicScalarFunction("asktray_verdict", 5, sqlVerdict)
}

// sqlVerdict is asktray_verdict(kind, state, reason, decided_by, value):
// question.VerdictFor over a row's columns. SQLite calls it on the
// goroutine that runs the query.
func sqlVerdict(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	text := func(v driver.Value) string {
		switch v := v.(type) {
		case string:
			return v
		case []byte:
			return string(v)
		}
		return ""
	}
	var value json.RawMessage
	if s := text(args[4]); s != "" {
		value = json.RawMessage(s)
	}
	return string(question.VerdictFor(question.Kind(text(args[0])), question.State(text(args[1])),
		question.Reason(text(args[2])), question.Decider(text(args[3])), value)), nil
}

// verdictCond returns the SQL condition selecting rows with one of vs, and
// its arguments.
func verdictCond(vs []question.Verdict) (string, []any) {
	args := make([]any, 0, len(vs))
	for _, v := range vs {
		args = append(args, string(v))
	}
	return verdictSQL + " IN (?" + strings.Repeat(", ?", len(vs)-1) + ")", args
}

// verdictInputs are the columns question.VerdictFor reads, as verdictSQL
// passes them; confirm_value is a confirm's answer (see
// migrateVerdictIndex, whose index CountVerdicts reads in its order).
const verdictInputs = `kind, state, reason, decided_by, confirm_value`

// CountVerdicts returns the number of records per verdict that match f,
// ignoring f.Outcomes, f.Verdicts, f.Limit and f.Cursor; every verdict has
// an entry. It counts the rows per distinct input of question.VerdictFor
// and reads each group's verdict once, which is faster than calling
// asktray_verdict per row. It blocks while it reads.
func (s *SQLite) CountVerdicts(ctx context.Context, f Filter) (map[question.Verdict]int, error) {
	cond, args := where(f, false)
	query := `SELECT state, kind, reason, decided_by, confirm_value, COUNT(*) FROM questions WHERE ` + cond + ` GROUP BY 1, 2, 3, 4, 5` //nolint:gosec // G202: cond holds only constant SQL and bound parameters
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("count verdicts: %w", err)
	}
	defer func() { _ = rows.Close() }()
	m := make(map[question.Verdict]int, len(question.Verdicts))
	for _, v := range question.Verdicts {
		m[v] = 0
	}
	for rows.Next() {
		var (
			kind, state, reason, by string
			value                   sql.NullString
			n                       int
		)
		if err := rows.Scan(&state, &kind, &reason, &by, &value, &n); err != nil {
			return nil, fmt.Errorf("count verdicts: %w", err)
		}
		v := question.VerdictFor(question.Kind(kind), question.State(state), question.Reason(reason), question.Decider(by), json.RawMessage(value.String))
		m[v] += n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("count verdicts: %w", err)
	}
	return m, nil
}
