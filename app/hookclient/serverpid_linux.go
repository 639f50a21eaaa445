package hookclient

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// PeerCred returns the kernel's credentials of the process at the other end
// of c, taken when it connected (a client) or listened (a server). It does
// not block.
func PeerCred(c *net.UnixConn) (*unix.Ucred, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return nil, fmt.Errorf("peer credentials: %w", err)
	}
	var cred *unix.Ucred
	var serr error
	if err := raw.Control(func(fd uintptr) {
		cred, serr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return nil, fmt.Errorf("peer credentials: %w", err)
	}
	if serr != nil {
		return nil, fmt.Errorf("peer credentials: SO_PEERCRED: %w", serr)
	}
	return cred, nil
}

// ServerPIDs says whether ServerPID works here: a checked client
// (Transport) can learn which process serves the socket.
const ServerPIDs = true

// ServerPID returns the pid of the process at the other end of a client
// connection c: the one that listened on the socket, as the kernel
// recorded it then. It does not block.
func ServerPID(c net.Conn) (int, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return 0, fmt.Errorf("a %T is not a unix socket connection", c)
	}
	cred, err := PeerCred(uc)
	if err != nil {
		return 0, err
	}
	return int(cred.Pid), nil
}
