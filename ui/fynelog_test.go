package ui

import (
	"bytes"
	"errors"
	"io"
	"log"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
)

// TestFyneLogFilter: Fyne's own report of a preferences file read
// half-written (the EOF another Asktray's quit causes) is dropped whole;
// any other Fyne error, a preferences error with another cause, and every
// other line reach the terminal unchanged and in order.
func TestFyneLogFilter(t *testing.T) {
	var out bytes.Buffer
	f := newFyneLogFilter(&out)
	old, oldFlags := log.Writer(), log.Flags()
	log.SetOutput(f)
	log.SetFlags(0)
	defer func() { log.SetOutput(old); log.SetFlags(oldFlags) }()

	log.Print("before")
	fyne.LogError("Preferences load error:", io.EOF)
	log.Print("between")
	fyne.LogError("Preferences load error:", errors.New("invalid character 'x'"))
	fyne.LogError("Failed to focus object", nil)
	fyne.LogError("Preferences load error:", io.EOF)
	log.Print("after")

	got := out.String()
	if strings.Contains(got, "Cause: EOF") {
		t.Errorf("the EOF report reached the terminal:\n%s", got)
	}
	if n := strings.Count(got, "Preferences load error:"); n != 1 {
		t.Errorf("%d preferences errors reached the terminal, want the one not caused by EOF:\n%s", n, got)
	}
	lines := strings.Split(strings.TrimSpace(got), "\n")
	want := []string{"before", "between", "Fyne error:  Preferences load error:", "  Cause: invalid character 'x'", "  At: ",
		"Fyne error:  Failed to focus object", "  At: ", "after"}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), got)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want it to start %q", i, lines[i], w)
		}
	}
}
