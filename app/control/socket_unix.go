//go:build !windows

package control

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"

	"github.com/asktray/asktray/app/hookclient"
)

// listenControl creates the unix socket at path, removing a stale one, with
// mode 0600 (the data dir around it is 0700). It does not block.
func listenControl(path string) (net.Listener, error) {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("remove stale control socket: %w", err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listen on control socket %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("restrict control socket: %w", err)
	}
	return ln, nil
}

// removeControl removes the socket file a closed listener leaves behind.
func removeControl(addr string) { _ = os.Remove(addr) }

// dialControl connects to the socket at path. It blocks until the app
// accepts, ctx ends or a second passes: a unix socket connects at once or
// not at all, and the limit only guards against an app too stuck to accept.
func dialControl(ctx context.Context, path string) (net.Conn, error) {
	return hookclient.Dial(ctx, path)
}

// selfUser names the user who runs this process: "uid N", as peerUser
// names a peer.
func selfUser() (string, error) { return uidUser(os.Getuid()), nil }

// uidUser names the user with uid uid.
func uidUser(uid int) string { return "uid " + strconv.Itoa(uid) }
