//go:build !windows

package hookclient

import (
	"context"
	"net"
	"time"
)

// Dial connects to the control socket at path. It blocks until the app
// accepts, ctx ends or a second passes: a unix socket connects at once or
// not at all, and the limit only guards against an app too stuck to accept.
func Dial(ctx context.Context, path string) (net.Conn, error) {
	d := net.Dialer{Timeout: time.Second}
	return d.DialContext(ctx, "unix", path)
}
