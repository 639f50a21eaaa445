package loopback

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
)

// SameUser returns nil when the process at the other end of r's loopback
// TCP connection runs as this process's user. On Linux it looks the socket
// up in /proc/net/tcp and tcp6 (Owner), so it reads those files and blocks
// briefly; where the platform cannot tell (ErrNoOwner) it returns nil, and
// the token or the link key guard alone. Any goroutine may call it.
func SameUser(r *http.Request) error {
	remote, local, err := Ends(r)
	if err != nil {
		return err
	}
	uid, err := Owner(remote, local)
	if errors.Is(err, ErrNoOwner) {
		return nil
	} else if err != nil {
		return err
	}
	if uid != os.Getuid() {
		return fmt.Errorf("the peer runs as uid %d, the app as uid %d", uid, os.Getuid())
	}
	return nil
}

// Ends returns the two addresses of r's TCP connection: the client's
// (remote) and the server's own (local). It does not block.
func Ends(r *http.Request) (remote, local netip.AddrPort, err error) {
	remote, err = netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return remote, local, fmt.Errorf("peer address %q: %w", r.RemoteAddr, err)
	}
	la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return remote, local, errors.New("the connection's own address is unknown")
	}
	local, err = netip.ParseAddrPort(la.String())
	if err != nil {
		return remote, local, fmt.Errorf("own address %q: %w", la, err)
	}
	return remote, local, nil
}
