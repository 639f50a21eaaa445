//go:build !linux

package control

import (
	"errors"
	"net"
)

// ServerPIDs says whether serverPID works here: not on this platform, where
// the hook relies on the socket's or the pipe's own access checks.
const ServerPIDs = false

// serverPID cannot ask this platform's kernel which process serves c.
func serverPID(net.Conn) (int, error) {
	return 0, errors.New("this platform does not say which process serves the control socket")
}
