package control

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"

	"github.com/asktray/asktray/app/ellipsis"
	"github.com/asktray/asktray/app/personcheck"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// peer is what the kernel said about the process at the other end of a
// control connection when it connected.
type peer struct {
	conn net.Conn
	user string   // "uid N" on unix, the user's SID on Windows
	err  error    // why user is unknown
	proc *procRef // the process that connected (Linux), nil elsewhere
}

type peerKey struct{}

// errOtherUser marks a request refused because its peer is not the app's user.
var errOtherUser = errors.New("the control socket serves only the user who runs the app")

// connContext records the peer of a new connection in its context: its
// user and the process that connected. The http.Server calls it on its
// accept goroutine, once per connection.
func (s *Server) connContext(ctx context.Context, c net.Conn) context.Context {
	p := &peer{conn: c}
	p.user, p.err = peerUser(c)
	p.proc = connectedProc(c)
	if s.conns != nil {
		s.conns.setPeer(c, p)
	}
	return context.WithValue(ctx, peerKey{}, p)
}

func peerOf(ctx context.Context) *peer {
	p, _ := ctx.Value(peerKey{}).(*peer)
	return p
}

// checkPeer returns nil when p runs as user want (see selfUser), and an
// error wrapping errOtherUser otherwise, also when the peer is unknown.
func checkPeer(p *peer, want string) error {
	switch {
	case p == nil:
		return fmt.Errorf("%w: the connection's peer is unknown", errOtherUser)
	case p.err != nil:
		return fmt.Errorf("%w: cannot read the peer's user: %w", errOtherUser, p.err)
	case want == "" || p.user != want:
		return fmt.Errorf("%w: the peer runs as %s, the app as %s", errOtherUser, p.user, want)
	}
	return nil
}

// sameUser refuses, with 403 other_user, every request whose peer is not a
// process of the user who runs the app.
func (s *Server) sameUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		self, err := selfUser()
		if err == nil {
			err = checkPeer(peerOf(r.Context()), self)
		}
		if err != nil {
			s.log().Warn("control request refused", "path", r.URL.Path, "err", err)
			writeError(w, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// errNeedsPerson marks an answer that approves refused for want of the person.
var errNeedsPerson = errors.New("only the person can approve this")

// errUnseen marks an allow refused because the person cannot see all of
// what it would run (present.Unseen).
var errUnseen = present.ErrUnseen

// passwordError is an answer that approves, refused for want of the
// password: 403 (429 when locked) with its own code, so that the CLI can
// ask for the password; the message is personcheck's.
type passwordError struct {
	status int
	code   string
	err    error
}

func (e *passwordError) Error() string { return e.err.Error() }
func (e *passwordError) Unwrap() error { return e.err }

// channel decides how an answer to question id arrived: ViaTerminal when the
// caller says the person confirmed it on its terminal and its process really
// runs in the foreground of one, ViaCLI otherwise. An answer that approves
// needs ViaTerminal and the person's proof for that terminal (the login
// password in req, or the terminal's grace period, checked by s.Person);
// without them the error wraps errNeedsPerson or one of the password
// errors, and the question stays pending. It blocks while PAM checks.
func (s *Server) channel(r *http.Request, id string, req AnswerRequest, resp question.Response) (question.Via, error) {
	q, _, err := s.Broker.Get(id)
	if err != nil {
		return "", err
	}
	termErr := errors.New("the caller did not confirm on a terminal")
	term := ""
	if req.TerminalConfirmed {
		term, termErr = s.onTerminal(r)
	}
	if present.RefusesUnseen(&q, resp) {
		s.log().Warn("allow of a request too long to show refused", "id", id)
		return "", fmt.Errorf("%w; the question stays pending", errUnseen)
	}
	if !q.Approves(resp) {
		if termErr == nil {
			return question.ViaTerminal, nil
		}
		return question.ViaCLI, nil
	}
	if termErr != nil {
		s.log().Warn("approval over the control socket refused", "id", id, "err", termErr)
		return "", fmt.Errorf("%w (%s, %v); the question stays pending. Answer it in the Asktray dialog, "+
			"on its page in a browser (the tray's Open in browser menu), or run 'asktray answer' in your own terminal",
			errNeedsPerson, describe(q), termErr)
	}
	return question.ViaTerminal, s.prove(id, q, term, req.Password)
}

// prove checks the person's proof for an approval of q from terminal term.
func (s *Server) prove(id string, q question.Question, term, password string) error {
	err := s.proveTerminal(describe(q), term, password)
	if err != nil {
		s.log().Warn("approval over the control socket refused", "id", id, "terminal", term, "err", err)
	}
	return err
}

// proveTerminal checks the person's proof for what (an approval, a rule
// change) from terminal term: password, or the terminal's grace period. It
// blocks while PAM checks.
func (s *Server) proveTerminal(what, term, password string) error {
	if s.Person == nil {
		return fmt.Errorf("%w (%s): no password check is set up; %s", errNeedsPerson, what, personcheck.DialogHint)
	}
	err := s.Person.Prove(personcheck.Terminal(term), password)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, personcheck.ErrPasswordNeeded):
		return &passwordError{http.StatusForbidden, "needs_password", err}
	case errors.Is(err, personcheck.ErrWrongPassword):
		return &passwordError{http.StatusForbidden, "wrong_password", err}
	case errors.Is(err, personcheck.ErrLocked):
		return &passwordError{http.StatusTooManyRequests, "locked", err}
	}
	return fmt.Errorf("%w (%s): %w", errNeedsPerson, what, err)
}

// describe names a question in an error: its action or the start of its message.
func describe(q question.Question) string {
	name := q.Action
	if name == "" {
		name = q.Message
	}
	name = ellipsis.Cut(name, 60)
	return fmt.Sprintf("%s %q from %s", q.Kind, name, q.Client.DisplayName())
}

// onTerminal returns the terminal of the process that sent r when it runs
// in the foreground of its controlling terminal (see peerOnTerminal): the
// process that connected, still the same one (procRef), not whichever
// process has its pid now.
func (s *Server) onTerminal(r *http.Request) (string, error) {
	p := peerOf(r.Context())
	if p == nil || p.proc == nil {
		return "", errors.New("the caller's process is unknown")
	}
	return peerOnTerminal(p.proc)
}
