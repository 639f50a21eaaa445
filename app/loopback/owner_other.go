//go:build !linux

package loopback

import "net/netip"

// Owner cannot tell on this platform; it returns ErrNoOwner.
func Owner(_, _ netip.AddrPort) (int, error) { return -1, ErrNoOwner }

// OwnerSocket cannot tell on this platform; it returns ErrNoOwner.
func OwnerSocket(_, _ netip.AddrPort) (int, uint64, error) { return -1, 0, ErrNoOwner }
