//go:build !linux && !darwin && !windows

package control

import (
	"net"
	"os"
)

// peerUser cannot ask this platform's kernel for the peer's uid, so it
// relies on the socket's mode: Listen makes it 0600 inside the 0700 data
// dir, and only the app's user (or root) can connect to it at all.
func peerUser(net.Conn) (string, error) {
	return uidUser(os.Getuid()), nil
}
