package control

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// peerUser names the user of the process at the other end of c by its
// uid, as the kernel recorded it when that process connected
// (LOCAL_PEERCRED). It does not block.
func peerUser(c net.Conn) (string, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return "", fmt.Errorf("a %T is not a unix socket connection", c)
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return "", fmt.Errorf("peer credentials: %w", err)
	}
	var cred *unix.Xucred
	var serr error
	if err := raw.Control(func(fd uintptr) {
		cred, serr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	}); err != nil {
		return "", fmt.Errorf("peer credentials: %w", err)
	}
	if serr != nil {
		return "", fmt.Errorf("peer credentials: LOCAL_PEERCRED: %w", serr)
	}
	return uidUser(int(cred.Uid)), nil
}
