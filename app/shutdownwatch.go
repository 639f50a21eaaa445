package app

import (
	"context"
	"log/slog"
	"runtime"
	"sync/atomic"
	"time"
)

// shutdownGrace is how long a shutdown may take before watchShutdown steps in.
const shutdownGrace = 5 * time.Second

// shutdownWatch notices a shutdown that hangs. Fyne's event loop can
// deadlock as it stops: its OnStopped event may be queued for the main
// loop just after the loop's last drain, and Run then waits for it forever
// (internal/driver/glfw/loop.go in Fyne 2.7 and 2.8; see also
// https://github.com/fyne-io/fyne/issues/5724). A person's Quit must still
// end the app, so when the UI has not returned in time the watch logs every
// goroutine's stack and calls abandon, which shuts down without the UI.
type shutdownWatch struct {
	inGUI atomic.Bool   // the UI holds the main goroutine
	over  chan struct{} // closed when the shutdown finished
}

// watchShutdown starts the watch; it returns at once and may be called
// from any goroutine. grace after ctx is done, if the shutdown is not over,
// it logs what every goroutine is doing (on Windows no signal dumps them),
// and, if the UI still runs, calls abandon on the watch's goroutine.
func watchShutdown(ctx context.Context, log *slog.Logger, grace time.Duration, abandon func()) *shutdownWatch {
	w := &shutdownWatch{over: make(chan struct{})}
	go func() {
		select {
		case <-w.over:
			return
		case <-ctx.Done():
		}
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-w.over:
			return
		case <-t.C:
		}
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		if !w.inGUI.Load() {
			log.Warn("still shutting down", "after", grace, "goroutines", string(buf))
			return
		}
		log.Warn("the UI did not stop; shutting down without it", "after", grace, "goroutines", string(buf))
		abandon()
	}()
	return w
}

// done says the shutdown finished; call it once.
func (w *shutdownWatch) done() { close(w.over) }
