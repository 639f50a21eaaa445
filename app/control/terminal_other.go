//go:build !linux

package control

import (
	"fmt"
	"net"
	"runtime"
)

// peerOnTerminal cannot tell on this platform whether the process at the
// other end of c runs in the foreground of a terminal, so it never says so:
// approving then takes the dialog or the question's page.
func peerOnTerminal(net.Conn) (string, error) {
	return "", fmt.Errorf("cannot check the caller's terminal on %s", runtime.GOOS)
}
