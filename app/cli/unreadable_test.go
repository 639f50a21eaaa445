package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/question"
)

// TestCLI_UnreadableHistoryIsSetAside corrupts the history file (issue 33
// item 10): the real binary still starts, moves the file aside whole,
// starts a new history, and tells the person in a notice where the old file
// is and how to recover what can be read. On f02af39 the app stopped with
// "file is not a database" and no word on what to do.
func TestCLI_UnreadableHistoryIsSetAside(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, datadir.DatabaseFile)
	broken := []byte("not a database: a disk error wrote this over the history's first page" + strings.Repeat(".", 4096))
	if err := os.WriteFile(db, broken, 0o600); err != nil {
		t.Fatal(err)
	}
	startApp(t, dir)

	r := run(t, dir, "pending", "--json")
	var pend []question.Question
	if err := json.Unmarshal([]byte(r.stdout), &pend); err != nil || len(pend) != 1 {
		t.Fatalf("pending --json: %v %+v", err, r)
	}
	n := pend[0]
	if n.Kind != question.KindNotice || !strings.Contains(n.Message, "could not read its history") || !strings.Contains(n.Message, ".recover") {
		t.Fatalf("the notice says %+v", n)
	}
	matches, _ := filepath.Glob(db + ".unreadable-*")
	var aside string
	for _, m := range matches {
		if !strings.HasSuffix(m, "-wal") && !strings.HasSuffix(m, "-shm") {
			aside = m
		}
	}
	if aside == "" || !strings.Contains(n.Message, "`"+aside+"`") {
		t.Fatalf("set aside as %q (of %q); the notice says %q", aside, matches, n.Message)
	}
	if got, err := os.ReadFile(aside); err != nil || !bytes.Equal(got, broken) {
		t.Errorf("the file set aside holds %d bytes (%v), want the broken file's %d", len(got), err, len(broken))
	}
	// The new history works: it records the notice, named by its header.
	if r := run(t, dir, "history"); r.code != 0 || !strings.Contains(r.stdout, "History could not be read") {
		t.Errorf("history after the reset: %+v", r)
	}
	if fi, err := os.Stat(db); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the new history: %v %v", fi, err)
	}
}
