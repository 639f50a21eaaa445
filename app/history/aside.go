package history

import (
	"errors"
	"fmt"
	"os"
	"time"

	"modernc.org/sqlite"
)

// SQLite's primary result codes for a file that is no database and for a
// damaged one (https://www.sqlite.org/rescode.html).
const (
	codeCorrupt = 11 // SQLITE_CORRUPT
	codeNotADB  = 26 // SQLITE_NOTADB
)

// Unreadable reports whether err says the history file is not an SQLite
// database or is a damaged one, as opposed to one that is busy, not
// permitted or of a newer schema, which must be left as it is.
func Unreadable(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	c := se.Code() & 0xff // an extended code keeps the primary in its low byte
	return c == codeCorrupt || c == codeNotADB
}

// SetAside renames the history file at path to path+".unreadable-" and the
// UTC time now (20261205T001500Z), with its -wal and -shm files (so that
// the pair stays readable together), and returns the new name. Nothing is
// deleted: SQLite's own tools (sqlite3 NAME .recover) may still read what
// is left. It fails, naming both paths, when the file cannot be moved; a
// missing -wal or -shm is no failure. It blocks for the renames.
func SetAside(path string, now time.Time) (string, error) {
	aside := path + ".unreadable-" + now.UTC().Format("20060102T150405Z")
	if _, err := os.Lstat(aside); err == nil {
		aside += fmt.Sprintf("-%d", now.UnixNano())
	}
	if err := os.Rename(path, aside); err != nil {
		return "", fmt.Errorf("move the unreadable history %s aside to %s: %w", path, aside, err)
	}
	for _, ext := range []string{"-wal", "-shm"} {
		if err := os.Rename(path+ext, aside+ext); err != nil && !errors.Is(err, os.ErrNotExist) {
			return aside, fmt.Errorf("move %s aside to %s: %w", path+ext, aside+ext, err)
		}
	}
	return aside, nil
}
