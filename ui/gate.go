package ui

import (
	"sync"
	"sync/atomic"

	"fyne.io/fyne/v2"
)

// uiGate hands work from other goroutines (the broker, D-Bus, the control
// socket, timers) to the Fyne goroutine until the UI stops, and drops it
// after. Once Fyne's loop has stopped, fyne.Do no longer queues: it runs
// its function at once on the calling goroutine (internal/driver/glfw
// loop.go, "as the queue will be stopped"), where a window call after GLFW
// was terminated panics (GLFW NotInitialized). That is how a second start
// asking a quitting app to show its status window crashed it (issue 37
// item 12). Its methods are safe for concurrent use.
type uiGate struct {
	mu      sync.RWMutex // held for reading while handing work on, for writing to stop
	stopped atomic.Bool
}

// do queues fn for the Fyne goroutine, unless the UI stopped; it reports
// whether it did. It does not wait for fn. A queued fn that the loop runs
// after stop does nothing.
func (g *uiGate) do(fn func()) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.stopped.Load() {
		return false
	}
	fyne.Do(func() {
		if !g.stopped.Load() {
			fn()
		}
	})
	return true
}

// stop drops all later work; call it before quitting Fyne's loop. It waits
// for a do in progress to finish queueing and may be called more than once.
func (g *uiGate) stop() {
	g.mu.Lock()
	g.stopped.Store(true)
	g.mu.Unlock()
}
