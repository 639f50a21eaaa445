// Package historytest gives tests a real history store: SQLite in the
// test's temporary dir, so that every test runs against the one store the
// app ships and no second implementation has to be kept in step with it.
// Only tests import it.
package historytest

import (
	"path/filepath"
	"testing"

	"github.com/asktray/asktray/app/history"
)

// New opens an empty history in t's temporary dir and closes it when t
// ends. It blocks for the open; call it from the test's goroutine.
func New(t testing.TB) *history.SQLite {
	t.Helper()
	s, err := history.Open(filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() }) // a test may have closed it already
	return s
}
