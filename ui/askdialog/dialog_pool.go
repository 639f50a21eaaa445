package askdialog

import (
	"os"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	_ "github.com/asktray/asktray/ui/internal/fynecache" // closed dialogs' widgets leave Fyne's caches sooner
)

// windowPool keeps up to size hidden dialog windows for reuse. Creating a
// window is most of a dialog's time to its first frame: on the GLFW driver
// the first Show creates the X window, its GL context and Fyne's painter
// (shaders, font atlas), tens of milliseconds on a software renderer. A
// closed dialog's window is hidden, emptied and kept here instead of being
// destroyed, and the next dialog fills and shows it again. That also saves
// the memory that repeatedly creating and destroying GL contexts leaves
// behind in the C heap. Its methods run on the Fyne goroutine.
type windowPool struct {
	size int
	free []fyne.Window
}

// newWindowPool returns a pool of up to size windows; size 0 turns reuse
// off (every dialog creates and destroys its own window).
func newWindowPool(size int) *windowPool {
	return &windowPool{size: max(size, 0)}
}

// windowPoolEnv names the environment variable that sets the pool's size:
// 0 turns window reuse off (the baseline of the dialog benchmarks).
const windowPoolEnv = "ASKTRAY_WINDOW_POOL"

// defaultWindowPool is how many hidden windows are kept: one covers the
// usual one question at a time, the second a question asked while another
// dialog closes.
const defaultWindowPool = 2

// maxWindowPool caps ASKTRAY_WINDOW_POOL.
const maxWindowPool = 8

// windowPoolSize reads ASKTRAY_WINDOW_POOL: a whole number from 0 to
// maxWindowPool, else defaultWindowPool.
func windowPoolSize() int {
	n, err := strconv.Atoi(os.Getenv(windowPoolEnv))
	if err != nil || n < 0 || n > maxWindowPool {
		return defaultWindowPool
	}
	return n
}

// get returns a hidden window titled title, with the window class of that
// title, reused when one is free (else a new one of a), and whether it was
// reused. A nil pool always makes a
// new window.
func (p *windowPool) get(a fyne.App, title string) (fyne.Window, bool) {
	if p == nil || len(p.free) == 0 {
		return a.NewWindow(title), false
	}
	w := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	if w.Title() != title {
		// Its class is its title's, set when the window was made or last
		// retitled; only a new title needs the X round trips of a new class.
		w.SetTitle(title)
		setWindowClass(w, title)
	}
	return w, true
}

// put hides w, drops its content and handlers and keeps it for reuse, and
// reports whether it did; when the pool is full (or nil) the caller
// destroys w. A kept window cannot be closed from outside while hidden,
// and one that is closed all the same leaves the pool.
func (p *windowPool) put(w fyne.Window) bool {
	if p == nil || len(p.free) >= p.size {
		return false
	}
	w.Hide()
	w.SetCloseIntercept(w.Hide)
	w.SetOnClosed(func() { p.drop(w) })
	c := w.Canvas()
	c.SetOnTypedKey(nil)
	c.SetOnTypedRune(nil)
	if kc, ok := c.(interface {
		SetOnKeyDown(func(*fyne.KeyEvent))
		SetOnKeyUp(func(*fyne.KeyEvent))
	}); ok {
		kc.SetOnKeyDown(nil)
		kc.SetOnKeyUp(nil)
	}
	c.Unfocus()
	// A menu or the Always… panel may still be open over the content.
	for o := c.Overlays(); o.Top() != nil; {
		o.Remove(o.Top())
	}
	// An empty content lets the closed dialog's widgets be collected.
	w.SetContent(container.NewWithoutLayout())
	p.free = append(p.free, w)
	return true
}

// drop forgets w, which was closed.
func (p *windowPool) drop(w fyne.Window) {
	for i, f := range p.free {
		if f == w {
			p.free = append(p.free[:i], p.free[i+1:]...)
			return
		}
	}
}

// len returns how many windows are free.
func (p *windowPool) len() int {
	if p == nil {
		return 0
	}
	return len(p.free)
}
