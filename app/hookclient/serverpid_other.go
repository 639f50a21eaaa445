//go:build !linux

package hookclient

import (
	"errors"
	"net"
)

// ServerPIDs says whether ServerPID works here: not on this platform, where
// the hook relies on the socket's or the pipe's own access checks.
const ServerPIDs = false

// ServerPID cannot ask this platform's kernel which process serves c.
func ServerPID(net.Conn) (int, error) {
	return 0, errors.New("this platform does not say which process serves the control socket")
}
