package control

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
)

// peer is what the kernel said about the process at the other end of a
// control connection when it connected.
type peer struct {
	conn *net.UnixConn
	uid  int
	err  error // why uid is unknown
}

type peerKey struct{}

// errOtherUser marks a request refused because its peer is not the app's user.
var errOtherUser = errors.New("the control socket serves only the user who runs the app")

// connContext records the peer of a new connection in its context. The
// http.Server calls it on its accept goroutine, once per connection.
func connContext(ctx context.Context, c net.Conn) context.Context {
	p := &peer{uid: -1}
	uc, ok := c.(*net.UnixConn)
	if !ok {
		p.err = fmt.Errorf("a %T is not a unix socket connection", c)
	} else {
		p.conn = uc
		p.uid, p.err = peerUID(uc)
	}
	return context.WithValue(ctx, peerKey{}, p)
}

func peerOf(ctx context.Context) *peer {
	p, _ := ctx.Value(peerKey{}).(*peer)
	return p
}

// checkPeer returns nil when p runs as uid want, and an error wrapping
// errOtherUser otherwise, also when the peer is unknown.
func checkPeer(p *peer, want int) error {
	switch {
	case p == nil:
		return fmt.Errorf("%w: the connection's peer is unknown", errOtherUser)
	case p.err != nil:
		return fmt.Errorf("%w: cannot read the peer's uid: %w", errOtherUser, p.err)
	case p.uid != want:
		return fmt.Errorf("%w: the peer runs as uid %d, the app as uid %d", errOtherUser, p.uid, want)
	}
	return nil
}

// sameUser refuses, with 403 other_user, every request whose peer is not a
// process of the user who runs the app.
func (s *Server) sameUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := checkPeer(peerOf(r.Context()), os.Getuid()); err != nil {
			s.log().Warn("control request refused", "path", r.URL.Path, "err", err)
			writeError(w, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}
