package askdialog

import (
	"runtime/debug"
	"time"
)

// releaseAfter is how long after the last dialog closed the memory it used
// is handed back to the operating system: long enough that a quick run of
// questions pays it once, short enough that an idle app is small again.
const releaseAfter = 2 * time.Second

// releaseMemory hands freed memory back to the operating system: the Go
// heap (debug.FreeOSMemory: a GC, then returning free spans) and, where
// the C library is glibc, the C heap that GLFW, Mesa and Fyne's cgo calls
// allocate from (malloc_trim), which otherwise keeps the peak of a dialog's
// window and GL buffers mapped. It blocks for a few milliseconds; tests
// replace it. It may be called from any goroutine.
var releaseMemory = func() {
	debug.FreeOSMemory()
	trimCHeap()
}

// scheduleRelease arranges releaseMemory once releaseAfter has passed with
// no dialog open, and cancels a pending one while any is. It runs on the
// Fyne goroutine; releaseMemory then runs on a goroutine of its own, so
// the event loop does not wait for the collection.
func (m *Manager) scheduleRelease() {
	switch open := len(m.byID) > 0; {
	case open && m.stopRelease != nil:
		m.stopRelease()
		m.stopRelease = nil
	case !open && m.stopRelease == nil:
		m.stopRelease = m.clock.after(releaseAfter, func() {
			m.stopRelease = nil
			go releaseMemory()
		})
	}
}
