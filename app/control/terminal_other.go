//go:build !linux

package control

import (
	"fmt"
	"net"
	"runtime"
)

// peerOnTerminal cannot tell on this platform whether the process that
// connected runs in the foreground of a terminal, so it never says so:
// approving then takes the dialog or the question's page.
func peerOnTerminal(*procRef) (string, error) {
	return "", fmt.Errorf("cannot check the caller's terminal on %s", runtime.GOOS)
}

// procRef would name the process that connected; this platform does not
// check terminals, so it names none.
type procRef struct{}

// connectedProc returns nil here: no terminal check needs the process.
func connectedProc(net.Conn) *procRef { return nil }

// close does nothing: there is no pidfd here.
func (*procRef) close() {}
