package history

import (
	"context"
	"database/sql"
	"fmt"
)

// SchemaVersion is the version of the newest database schema, kept in
// PRAGMA user_version.
const SchemaVersion = 4

// migration moves a database from schema version n to n+1, where n+1 is its
// position in migrations counted from one. It runs inside a transaction.
type migration func(ctx context.Context, tx *sql.Tx) error

// migrations holds every schema change in order; never edit a released one.
var migrations = []migration{
	migrateQuestions,
	migrateSearch,
	migrateVerdictIndex,
	migrateOrigin,
}

func migrateQuestions(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`CREATE TABLE questions (
			id             TEXT PRIMARY KEY,
			kind           TEXT NOT NULL,
			client_name    TEXT NOT NULL,
			client_version TEXT NOT NULL,
			session_id     TEXT NOT NULL,
			created        INTEGER NOT NULL,
			deadline       INTEGER NOT NULL,
			state          TEXT NOT NULL,
			decided_by     TEXT NOT NULL DEFAULT '',
			reason         TEXT NOT NULL DEFAULT '',
			via            TEXT NOT NULL DEFAULT '',
			decided_at     INTEGER,
			rule_id        TEXT NOT NULL DEFAULT '',
			question_json  TEXT NOT NULL,
			result_json    TEXT
		)`,
		`CREATE INDEX questions_created ON questions (created, id)`,
		`CREATE INDEX questions_state ON questions (state, created)`,
		`CREATE INDEX questions_client ON questions (client_name, created)`,
	)
}

// migrateSearch adds the full-text index. Its rows are keyed by docid, a
// stable integer key of each question (the implicit rowid may change on
// VACUUM), and hold the text that searchText returns.
func migrateSearch(ctx context.Context, tx *sql.Tx) error {
	err := execAll(ctx, tx,
		`ALTER TABLE questions ADD COLUMN docid INTEGER`,
		`UPDATE questions SET docid = rowid`,
		// Covers a search's join, sort and count. docid is unique: it is
		// also the rowid of the question's full-text row.
		`CREATE INDEX questions_docid ON questions (docid, created, id, state)`,
		`CREATE VIRTUAL TABLE questions_fts USING fts5 (body, tokenize = 'unicode61 remove_diacritics 2')`,
	)
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT docid, question_json, result_json FROM questions`)
	if err != nil {
		return err
	}
	defer func() { _ = rows.Close() }()
	ins, err := tx.PrepareContext(ctx, `INSERT INTO questions_fts (rowid, body) VALUES (?, ?)`)
	if err != nil {
		return err
	}
	defer func() { _ = ins.Close() }()
	for rows.Next() {
		var (
			docid  int64
			qj, rj []byte
		)
		if err := rows.Scan(&docid, &qj, &rj); err != nil {
			return err
		}
		rec, err := decodeRecord(qj, rj)
		if err != nil {
			return fmt.Errorf("question with docid %d: %w", docid, err)
		}
		if _, err := ins.ExecContext(ctx, docid, searchText(rec.Question, rec.Result)); err != nil {
			return err
		}
	}
	return rows.Err()
}

// migrateVerdictIndex indexes what question.VerdictFor reads of a row, so
// that counting by verdict (CountVerdicts) reads the index, not every
// row's JSON: the state, kind, reason and decider, and a confirm's answer
// as a virtual column (computed from result_json, stored only in the
// index). The verdict itself is not stored: it is derived when read.
func migrateVerdictIndex(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`ALTER TABLE questions ADD COLUMN confirm_value TEXT
			GENERATED ALWAYS AS (CASE WHEN kind = 'confirm' THEN result_json -> '$.value' END) VIRTUAL`,
		`CREATE INDEX questions_verdict ON questions (state, kind, reason, decided_by, confirm_value)`,
	)
}

// migrateOrigin gives the questions recorded before question.Origin was
// their origin, read from the tool that asked them as it was then the only
// record of it: permission_prompt, and the hooks' permission_request on an
// approval, asked for an agent tool's permission; the hooks'
// permission_request on another kind was an agent's own question;
// request_approval an approval; the hooks' notification an agent's own
// notice; any other tool one of the ask tools. A question without a tool
// (Asktray's own) keeps no origin.
func migrateOrigin(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`UPDATE questions SET question_json = json_set(question_json, '$.origin', CASE
			WHEN question_json ->> '$.tool' = 'permission_prompt' THEN 'permission'
			WHEN question_json ->> '$.tool' = 'permission_request' AND kind = 'approval' THEN 'permission'
			WHEN question_json ->> '$.tool' = 'permission_request' THEN 'agent_question'
			WHEN question_json ->> '$.tool' = 'request_approval' THEN 'approval'
			WHEN question_json ->> '$.tool' = 'notification' AND kind = 'notice' THEN 'agent_notice'
			ELSE 'ask' END)
		WHERE COALESCE(question_json ->> '$.tool', '') <> '' AND question_json ->> '$.origin' IS NULL`,
	)
}

func execAll(ctx context.Context, tx *sql.Tx, stmts ...string) error {
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	return nil
}

// migrate brings db up to schema version target, one transaction per
// migration. It fails if the database is newer than this code knows.
func migrate(ctx context.Context, db *sql.DB, target int) error {
	for {
		done, err := migrateStep(ctx, db, target)
		if err != nil || done {
			return err
		}
	}
}

// migrateStep applies the next migration towards target, if any, and reports
// whether the database is already at target.
func migrateStep(ctx context.Context, db *sql.DB, target int) (done bool, err error) {
	tx, err := db.BeginTx(ctx, nil) // _txlock=immediate: takes the write lock now
	if err != nil {
		return false, err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	var v int
	if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
		return false, fmt.Errorf("read schema version: %w", err)
	}
	if v > len(migrations) {
		return false, fmt.Errorf("schema version %d is newer than this program supports (%d)", v, len(migrations))
	}
	if v >= target {
		return true, tx.Rollback()
	}
	if err := migrations[v](ctx, tx); err != nil {
		return false, fmt.Errorf("migrate schema to version %d: %w", v+1, err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, v+1)); err != nil {
		return false, fmt.Errorf("set schema version %d: %w", v+1, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("commit schema version %d: %w", v+1, err)
	}
	return false, nil
}
