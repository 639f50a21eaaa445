package hookclient

import (
	"context"
	"errors"
	"net"
)

// Dial stands in for the unix dial on Windows, where the control channel
// is app/control's named pipe; these tests dial nothing there.
func Dial(context.Context, string) (net.Conn, error) {
	return nil, &net.OpError{Op: "dial", Net: "pipe", Err: errors.New("no unix socket on Windows")}
}
