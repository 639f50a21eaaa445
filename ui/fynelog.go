package ui

import (
	"bytes"
	"io"
	"sync"
)

// fyneLogFilter is the standard logger's output while the UI runs: it
// passes everything to w except Fyne's report that another Asktray's
// preferences file was read half-written ("Fyne error: Preferences load
// error:" caused by EOF, and its "At:" line). Every Asktray on the machine
// shares Fyne's preferences file (~/.config/fyne/app.asktray.desktop/), which
// each one rewrites as it quits, truncating it first; the others watch it
// and reload it, and one that reads it between the truncation and the write
// gets EOF and printed three lines to the terminal running it (issue 38 item
// 11). Asktray keeps nothing in Fyne's preferences (its settings are
// settings.json in its data dir), so nothing is lost. Any goroutine may
// write to it; a write does not block beyond w's.
type fyneLogFilter struct {
	mu   sync.Mutex
	w    io.Writer
	held []byte // a "Preferences load error:" line, until its cause is known
	drop bool   // the next "At:" line belongs to a dropped report
}

func newFyneLogFilter(w io.Writer) *fyneLogFilter { return &fyneLogFilter{w: w} }

// Write passes p on or drops it; the standard logger writes one line per call.
func (f *fyneLogFilter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.held != nil && bytes.Contains(p, []byte("  Cause: EOF")):
		f.held, f.drop = nil, true
		return len(p), nil
	case f.drop && bytes.Contains(p, []byte("  At: ")):
		f.drop = false
		return len(p), nil
	case bytes.Contains(p, []byte("Fyne error:  Preferences load error:")):
		if err := f.flush(); err != nil {
			return 0, err
		}
		f.held, f.drop = append([]byte(nil), p...), false
		return len(p), nil
	}
	f.drop = false
	if err := f.flush(); err != nil {
		return 0, err
	}
	return f.w.Write(p)
}

// flush writes a held line whose cause was not EOF.
func (f *fyneLogFilter) flush() error {
	if f.held == nil {
		return nil
	}
	_, err := f.w.Write(f.held)
	f.held = nil
	return err
}
