//go:build !linux

package loopback

import (
	"errors"
	"net/netip"
)

// ErrNoOwner says this platform gives no way to learn who owns a TCP peer.
var ErrNoOwner = errors.New("this platform does not say which user owns a loopback TCP connection")

// Owner cannot tell on this platform; it returns ErrNoOwner.
func Owner(_, _ netip.AddrPort) (int, error) { return -1, ErrNoOwner }
