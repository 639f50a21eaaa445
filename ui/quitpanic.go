package ui

import (
	"fmt"
	"log/slog"
	"runtime/debug"
)

// recoverQuitting, deferred around Fyne's loop, lets the app finish quitting
// when Fyne panics once the quit has begun (g stopped), and panics on with
// anything else. Fyne 2.7.1 crashes when a window that is closing gets a
// pointer event that changes the cursor: processMouseMoved calls
// SetInputMode on the window's view, which is nil from Close on
// (https://github.com/fyne-io/fyne/issues/5981, open). A clean-clone CI run
// saw it once as the app quit with its status window under the pointer
// (TestSecondStartWithoutDisplay: exit status 2). It runs on the main
// goroutine as Run returns.
func recoverQuitting(g *uiGate, log *slog.Logger) {
	r := recover()
	if r == nil {
		return
	}
	if !g.stopped.Load() {
		panic(fmt.Sprintf("%v\n%s", r, debug.Stack()))
	}
	if log != nil {
		log.Warn("the UI toolkit panicked while quitting; the quit goes on (https://github.com/fyne-io/fyne/issues/5981)",
			"panic", fmt.Sprint(r), "stack", string(debug.Stack()))
	}
}
