package control

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"

	"github.com/asktray/asktray/app/hookclient"
)

// peerUser names the user of the process at the other end of c by its
// uid, as the kernel recorded it when that process connected (SO_PEERCRED).
// It does not block.
func peerUser(c net.Conn) (string, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return "", fmt.Errorf("a %T is not a unix socket connection", c)
	}
	cred, err := peerCred(uc)
	if err != nil {
		return "", err
	}
	return uidUser(int(cred.Uid)), nil
}

// peerCred returns the kernel's credentials of the process at the other end
// of c, taken when it connected.
func peerCred(c *net.UnixConn) (*unix.Ucred, error) { return hookclient.PeerCred(c) }
