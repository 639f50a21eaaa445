package control

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"
)

// On Windows the control channel is a named pipe, not the unix socket:
// AF_UNIX sockets exist only from Windows 10 1803 on, Wine has none (socket()
// fails with WSAEAFNOSUPPORT), and Go gives no peer credentials for them.
// Pipe names are one namespace for the whole machine, so what keeps other
// users out is the pipe's own access list, and each side checks the other's
// process token:
//
//   - the name is \\.\pipe\asktray-<hash of the user's SID and the socket
//     path>, so each user, and each data dir of a user, has its own pipe;
//   - the pipe is created with a protected DACL that allows only the user and
//     SYSTEM (pipeSDDL), and go-winio creates every instance with
//     FILE_PIPE_REJECT_REMOTE_CLIENTS, so no other machine can connect;
//   - the server reads the client's user SID from its process token
//     (GetNamedPipeClientProcessId), as SO_PEERCRED gives the uid on Linux,
//     and sameUser refuses any other SID;
//   - the client reads the server's the same way (GetNamedPipeServerProcessId)
//     and hangs up on a pipe that another user created first under the name.

// selfSID is the current process's user SID, read once.
var selfSID = sync.OnceValues(func() (string, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return "", fmt.Errorf("read the current user's SID: %w", err)
	}
	return u.User.Sid.String(), nil
})

// selfUser names the user who runs this process: its SID.
func selfUser() (string, error) { return selfSID() }

// pipeName returns the pipe for the control socket path socketPath of the
// user with SID sid. The path is made absolute and lower-cased (Windows
// paths ignore case), so the app and its CLI agree on it.
func pipeName(sid, socketPath string) string {
	if abs, err := filepath.Abs(socketPath); err == nil {
		socketPath = abs
	}
	sum := sha256.Sum256([]byte(sid + "\x00" + strings.ToLower(filepath.Clean(socketPath))))
	return `\\.\pipe\asktray-` + hex.EncodeToString(sum[:16])
}

// pipeSDDL is the pipe's security descriptor: a protected DACL (nothing
// inherited) allowing the user sid and SYSTEM, and nobody else.
func pipeSDDL(sid string) string {
	return "D:P(A;;GA;;;" + sid + ")(A;;GA;;;SY)"
}

// listenControl creates the named pipe for the control socket path. It
// fails when the pipe already exists (another app for the same data dir,
// or another user's squatting): it never serves on a pipe it did not
// create. It does not block.
func listenControl(path string) (net.Listener, error) {
	sid, err := selfSID()
	if err != nil {
		return nil, fmt.Errorf("listen on control pipe: %w", err)
	}
	name := pipeName(sid, path)
	ln, err := winio.ListenPipe(name, &winio.PipeConfig{SecurityDescriptor: pipeSDDL(sid)})
	if err != nil {
		return nil, fmt.Errorf("listen on control pipe %s: %w", name, err)
	}
	claimFirstInstance(name)
	return ln, nil
}

// claimFirstInstance connects to the pipe's first instance once and hangs
// up, so that no client is stranded on it. go-winio creates that instance
// without read or write access, which on Windows keeps it disconnected (no
// client can connect to it) and holds the name while Accept makes the
// instances that serve. Wine lets a client connect to it anyway, and as the
// oldest instance it takes the first client, which then waits forever: no
// one reads it. On Windows this one attempt fails at once with
// ERROR_PIPE_BUSY and changes nothing. It does not block.
func claimFirstInstance(name string) {
	p, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ|windows.GENERIC_WRITE, 0, nil, windows.OPEN_EXISTING, 0, 0)
	if err == nil {
		windows.CloseHandle(h) //nolint:errcheck // nothing to do about it
	}
}

// removeControl does nothing: a pipe goes away with its last handle.
func removeControl(string) {}

// dialControl connects to the control pipe for path and checks that a
// process of this user serves it. It blocks until the app accepts, ctx ends
// or a second passes (all instances busy). A missing pipe fails as a dial
// error, which the client reports as ErrNoApp.
func dialControl(ctx context.Context, path string) (net.Conn, error) {
	sid, err := selfSID()
	if err != nil {
		return nil, err
	}
	return dialPipe(ctx, pipeName(sid, path), sid)
}

// dialPipe connects to the pipe name and hangs up unless a process of the
// user with SID want serves it. It blocks like dialControl.
func dialPipe(ctx context.Context, name, want string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	c, err := winio.DialPipeContext(ctx, name)
	if err != nil {
		return nil, &net.OpError{Op: "dial", Net: "pipe", Err: err}
	}
	owner, err := pipeProcessUser(c, windows.GetNamedPipeServerProcessId)
	if err == nil && owner != want {
		err = fmt.Errorf("%w: served by %s, not by this user (%s)", errOtherUser, owner, want)
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("control pipe %s: %w", name, err)
	}
	return c, nil
}

// peerUser returns the user SID of the process at the other end of the
// server side of a pipe connection, read from its process token.
func peerUser(c net.Conn) (string, error) {
	return pipeProcessUser(c, windows.GetNamedPipeClientProcessId)
}

// pipeProcessUser returns the user SID of the process that pidOf names for
// the pipe connection c (its client or its server). It does not block.
func pipeProcessUser(c net.Conn, pidOf func(windows.Handle, *uint32) error) (string, error) {
	f, ok := c.(interface{ Fd() uintptr })
	if !ok {
		return "", fmt.Errorf("a %T is not a named pipe connection", c)
	}
	var pid uint32
	if err := pidOf(windows.Handle(f.Fd()), &pid); err != nil {
		return "", fmt.Errorf("find the process at the other end of the pipe: %w", err)
	}
	return processUser(pid)
}

// processUser returns the user SID in process pid's token.
func processUser(pid uint32) (string, error) {
	if pid == windows.GetCurrentProcessId() {
		return selfSID()
	}
	ph, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return "", fmt.Errorf("open process %d: %w", pid, err)
	}
	defer windows.CloseHandle(ph) //nolint:errcheck // nothing to do about it
	var tok windows.Token
	if err := windows.OpenProcessToken(ph, windows.TOKEN_QUERY, &tok); err != nil {
		return "", fmt.Errorf("open the token of process %d: %w", pid, err)
	}
	defer tok.Close()
	u, err := tok.GetTokenUser()
	if err != nil {
		return "", fmt.Errorf("read the user of process %d: %w", pid, err)
	}
	return u.User.Sid.String(), nil
}
