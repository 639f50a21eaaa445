package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/asktray/asktray/app/question"
)

// Annotate sets the Afterwards of the ended question id to after: what was
// learnt of it once it had ended (question.ReasonAgentProceeded). Its
// outcome, reason and note stay as they were. It fails, wrapping
// question.ErrNotFound, for an unknown id, and question.ErrStillPending for
// a pending one. It blocks until the change is durable.
func (s *SQLite) Annotate(ctx context.Context, id string, after question.Reason) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		var (
			docid int64
			rj    []byte
		)
		err := tx.QueryRowContext(ctx, `SELECT docid, result_json FROM questions WHERE id = ?`, id).Scan(&docid, &rj)
		if errors.Is(err, sql.ErrNoRows) {
			return question.ErrNotFound
		}
		if err != nil {
			return err
		}
		r, err := decodeResult(rj)
		if err != nil {
			return fmt.Errorf("decode result: %w", err)
		}
		if r == nil {
			return question.ErrStillPending
		}
		r.Afterwards = after
		b, err := encode(r)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE questions SET result_json = ? WHERE docid = ?`, string(b), docid)
		return err
	})
	if err != nil {
		return fmt.Errorf("annotate question %s: %w", id, err)
	}
	return nil
}
