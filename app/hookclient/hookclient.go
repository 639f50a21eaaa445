// Package hookclient is the hook's side of the running app's control
// socket: dialing it, checking which process serves it, and one agent hook
// call (POST /v2/hook). It is all that `asktray hook AGENT` and the
// hook-only binary (cmd/asktray-hook) need of the control channel. It
// imports little (the standard library without net/http, app/hook,
// golang.org/x/sys) and speaks the one request it makes as plain HTTP/1.0,
// so that a process that starts for every tool call an agent makes starts
// fast (net/http and the TLS stack it links cost about a third of such a
// start). app/control's client uses it for the same call.
package hookclient

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/asktray/asktray/app/hook"
)

// ErrNoApp means no app answers on the control socket.
var ErrNoApp = errors.New("no running app")

// ErrNoAck means the app took the hook's connection but did not acknowledge
// the request within hook.Handshake: it is stopped (SIGSTOP), stuck or too
// busy, and the hook steps aside.
var ErrNoAck = fmt.Errorf("the app did not acknowledge the request within %s", hook.Handshake)

// ErrWrongServer means the process serving the control socket is not the
// one a checked dial trusts (see CheckedDial).
var ErrWrongServer = errors.New("the control socket is not served by the running app")

// ReplySlack is how long past the request's wait the client waits for the
// app's reply: the app ends the wait itself and answers at once then.
const ReplySlack = 2 * time.Second

// maxReply bounds the reply a hook reads.
const maxReply = 1 << 20

// StatusError is an error response of the app: its HTTP status and body.
type StatusError struct {
	Status int
	Body   []byte
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("the app answered %d: %s", e.Status, strings.TrimSpace(string(e.Body)))
}

// Dialer connects to the control socket. It blocks at most about a second
// (see Dial).
type Dialer = func(ctx context.Context) (net.Conn, error)

// CheckedDial returns dial with a check of each new connection: when check
// is not nil it is handed the pid of the process that serves the socket, as
// the kernel recorded it when that process listened (ServerPID), before
// anything is sent, and the connection is closed with an error wrapping
// ErrWrongServer unless check returns nil. Where the kernel does not say
// (ServerPIDs is false), every checked connection fails.
func CheckedDial(dial Dialer, check func(pid int) error) Dialer {
	return func(ctx context.Context) (net.Conn, error) {
		conn, err := dial(ctx)
		if err != nil || check == nil {
			return conn, err
		}
		pid, err := ServerPID(conn)
		if err == nil {
			err = check(pid)
		}
		if err != nil {
			conn.Close()
			return nil, fmt.Errorf("%w: %w", ErrWrongServer, err)
		}
		return conn, nil
	}
}
