package app

import (
	"slices"
	"testing"
)

// TestClosersRunInReverse checks the shutdown order Run relies on: what was
// pushed last (the listeners) closes first, what was pushed first (the
// lock) closes last, and each closer runs once.
func TestClosersRunInReverse(t *testing.T) {
	t.Parallel()
	var got []string
	var down closers
	for _, name := range []string{"lock", "log", "history", "broker", "listener"} {
		down.push(func() { got = append(got, name) })
	}
	down.run()
	down.run()
	if want := []string{"listener", "broker", "history", "log", "lock"}; !slices.Equal(got, want) {
		t.Fatalf("closed %v, want %v", got, want)
	}
}
