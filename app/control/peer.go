package control

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/asktray/asktray/app/question"
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

// errNeedsPerson marks an answer that approves refused for want of the person.
var errNeedsPerson = errors.New("only the person can approve this")

// channel decides how an answer to question id arrived: ViaTerminal when the
// caller says the person confirmed it on its terminal and its process really
// runs in the foreground of one, ViaCLI otherwise. An answer that approves
// needs ViaTerminal; without it the error wraps errNeedsPerson, names the
// other ways to answer, and the question stays pending.
func (s *Server) channel(r *http.Request, id string, req AnswerRequest, resp question.Response) (question.Via, error) {
	q, _, err := s.Broker.Get(id)
	if err != nil {
		return "", err
	}
	termErr := errors.New("the caller did not confirm on a terminal")
	if req.TerminalConfirmed {
		termErr = s.onTerminal(r)
	}
	if termErr == nil {
		return question.ViaTerminal, nil
	}
	if !q.Approves(resp) {
		return question.ViaCLI, nil
	}
	s.log().Warn("approval over the control socket refused", "id", id, "err", termErr)
	return "", fmt.Errorf("%w (%s, %v); the question stays pending. Answer it in the Asktray dialog, "+
		"on its page in a browser (the tray's Open in browser menu), or run 'asktray answer' in your own terminal",
		errNeedsPerson, describe(q), termErr)
}

// describe names a question in an error: its action or the start of its message.
func describe(q question.Question) string {
	name := q.Action
	if name == "" {
		name = q.Message
	}
	if r := []rune(name); len(r) > 60 {
		name = string(r[:59]) + "…"
	}
	return fmt.Sprintf("%s %q from %s", q.Kind, name, q.Client.DisplayName())
}

// onTerminal returns nil when the process that sent r runs in the
// foreground of its controlling terminal.
func (s *Server) onTerminal(r *http.Request) error {
	p := peerOf(r.Context())
	if p == nil || p.conn == nil {
		return errors.New("the caller's process is unknown")
	}
	return peerOnTerminal(p.conn)
}
