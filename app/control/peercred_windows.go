package control

import (
	"net"
	"os"
)

// peerUID cannot learn which user is at the other end of an AF_UNIX
// connection on Windows: there are no uids, Go exposes no peer credentials
// for these sockets, and GetNamedPipeClientProcessId works on named pipes
// only. What keeps other users out is the file system: connecting to an
// AF_UNIX socket needs write access to its file, and app.EnsureDataDir gives
// the data dir a protected DACL that grants the app's user alone, inherited
// by the socket created in it. So it returns os.Getuid() (-1 on Windows),
// the uid the check compares with. It does not block.
func peerUID(_ *net.UnixConn) (int, error) {
	return os.Getuid(), nil
}
