//go:build !cgo || wayland || !(linux || freebsd || openbsd || netbsd)

package globalkey

// Grabber holds a grab until Close; this build makes none.
type Grabber struct{}

// Grab returns ErrUnsupported: this build has no X11.
func Grab(string, Chord, func()) (*Grabber, error) { return nil, ErrUnsupported }

// Close does nothing.
func (*Grabber) Close() {}
