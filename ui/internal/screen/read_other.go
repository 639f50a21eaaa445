//go:build !cgo || wayland || !(linux || freebsd || openbsd || netbsd)

package screen

// Read returns the zero Info where there is no X11 (or no cgo): nothing
// is known, and Fyne's own scale stands.
func Read() Info { return Info{} }
