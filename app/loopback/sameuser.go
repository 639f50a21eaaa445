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
	remote, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return fmt.Errorf("peer address %q: %w", r.RemoteAddr, err)
	}
	la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return errors.New("the connection's own address is unknown")
	}
	local, err := netip.ParseAddrPort(la.String())
	if err != nil {
		return fmt.Errorf("own address %q: %w", la, err)
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
