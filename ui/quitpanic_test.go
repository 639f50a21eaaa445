package ui

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// TestRecoverQuitting: a panic in Fyne's loop once the quit has begun is
// logged and the quit goes on; before that it is no business of the quit's
// and panics on.
func TestRecoverQuitting(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	var g uiGate
	g.stop()
	func() {
		defer recoverQuitting(&g, log)
		var w *struct{ x int }
		_ = w.x // the nil dereference of fyne-io/fyne#5981
	}()
	if !strings.Contains(buf.String(), "panicked while quitting") || !strings.Contains(buf.String(), "nil pointer") {
		t.Fatalf("log: %s", buf.String())
	}

	var running uiGate
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "nil pointer") {
			t.Fatalf("a panic before the quit: recovered %v, want it to panic on", r)
		}
	}()
	func() {
		defer recoverQuitting(&running, log)
		var w *struct{ x int }
		_ = w.x
	}()
}
