package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/hookclient"
	"github.com/asktray/asktray/app/procfs"
)

// Asker takes a host's hook requests; app/hookservice's Service is one.
// Handle blocks while the person decides and returns early when ctx ends;
// it calls registered once the request's question is asked.
type Asker interface {
	Handle(ctx context.Context, req hook.Request, registered func()) hook.Reply
}

// listener is the app's socket for one host's connection: it serves
// POST /v2/hook, with the host's key, to the SSH process that carries the
// host's connection, and nothing else.
type listener struct {
	host  Host
	asker Asker
	// carrier is the pid of the ssh process of the host's connection (0
	// while none runs); only it, or a process it started, may connect.
	carrier func() int
	log     *slog.Logger

	srv *http.Server
	ln  net.Listener
	// closing is set once the host is being removed or the app stops: a
	// request cut then is not the host's disconnection.
	closing atomic.Bool
}

type connKey struct{}

// MaxConns bounds the connections one host holds open at once (a hook
// waiting for the person holds one); a connection past it is closed at
// once, and its hook steps aside.
const MaxConns = 64

// limited closes the connections a listener accepts past max at once.
type limited struct {
	net.Listener
	slots chan struct{}
}

func (l *limited) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.slots <- struct{}{}:
			return &slotConn{Conn: c, free: func() { <-l.slots }}, nil
		default:
			c.Close()
		}
	}
}

// slotConn gives its slot back when closed.
type slotConn struct {
	net.Conn
	once sync.Once
	free func()
}

func (c *slotConn) Close() error {
	c.once.Do(c.free)
	return c.Conn.Close()
}

// listen creates the socket at path (0600; a stale one is removed) and
// serves on a new goroutine. It returns once the socket accepts.
func (l *listener) listen(path string) error {
	_ = os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return fmt.Errorf("host %s: listen: %w", l.host.Name, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return fmt.Errorf("host %s: listen: %w", l.host.Name, err)
	}
	l.ln = &limited{Listener: ln, slots: make(chan struct{}, MaxConns)}
	l.srv = &http.Server{Handler: l.handler(), ReadHeaderTimeout: 10 * time.Second,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context { return context.WithValue(ctx, connKey{}, c) }}
	go func() {
		if err := l.srv.Serve(l.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			l.log.Error("remote host socket stopped", "host", l.host.Name, "err", err)
		}
	}()
	return nil
}

// close stops serving at once: every open request's connection is closed,
// so the host's hooks step aside and their questions end. It removes the
// socket.
func (l *listener) close() {
	l.closing.Store(true)
	if l.srv == nil {
		return
	}
	_ = l.srv.Close()
	_ = os.Remove(l.ln.Addr().String())
}

// handler is the host's only route behind the peer and key checks: a peer
// that is not the host's ssh process gets 403, a request without the
// host's key 401, any other route 404.
func (l *listener) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v2/hook", l.hook)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := r.Context().Value(connKey{}).(net.Conn)
		if err := l.peerOK(c); err != nil {
			l.log.Warn("remote host socket: peer refused", "host", l.host.Name, "err", err)
			http.Error(w, "forbidden: "+err.Error(), http.StatusForbidden)
			return
		}
		key, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || !l.host.KeyMatches(key) {
			l.log.Warn("remote host socket: wrong key", "host", l.host.Name)
			http.Error(w, "unauthorized: this host's key is required", http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// peerOK checks that c's peer is a process of this user that is the host's
// ssh process or was started by it (ASKTRAY_SSH_COMMAND may wrap ssh).
func (l *listener) peerOK(c net.Conn) error {
	if sc, ok := c.(*slotConn); ok {
		c = sc.Conn
	}
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return fmt.Errorf("not a unix socket connection")
	}
	cred, err := hookclient.PeerCred(uc)
	if err != nil {
		return err
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("uid %d is not the app's user", cred.Uid)
	}
	carrier := l.carrier()
	if carrier <= 0 {
		return fmt.Errorf("the host is not connected")
	}
	for pid, n := int(cred.Pid), 0; pid > 1 && n < 16; n++ {
		if pid == carrier {
			return nil
		}
		st, err := procfs.ReadStat(pid)
		if err != nil {
			break
		}
		pid = st.PPID
	}
	return fmt.Errorf("pid %d is not the host's ssh process %d", cred.Pid, carrier)
}

// hook is POST /v2/hook, as the control socket serves it, for a request
// that came from the host: the question names the host, and the host's
// sessions are its own (a host cannot reach a session of this machine or of
// another host by naming its id).
func (l *listener) hook(w http.ResponseWriter, r *http.Request) {
	var req hook.Request
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, hook.MaxPayload+4096))
	if err := dec.Decode(&req); err != nil {
		http.Error(w, "bad request: body: "+err.Error(), http.StatusBadRequest)
		return
	}
	if _, err := hook.ParseAgent(string(req.Agent)); err != nil {
		http.Error(w, "bad request: agent: "+err.Error(), http.StatusBadRequest)
		return
	}
	req.Host = l.host.Name
	req.SessionID = l.host.Name + "/" + req.SessionID
	w.Header().Set("Content-Type", "application/x-ndjson")
	s := &stream{w: w, rc: http.NewResponseController(w), enc: json.NewEncoder(w)}
	stop := s.heartbeat()
	ctx, done := l.watch(r.Context())
	defer done()
	rep := l.asker.Handle(ctx, req, s.ack)
	s.ack()
	stop()
	_ = s.enc.Encode(rep)
}

// disconnectedWithin bounds how long after a host's request was cut the
// app looks for the end of the host's ssh process, to tell the host's
// disconnection from its hook's going away: both close the connection, and
// ssh's exit is seen within milliseconds of its sockets closing.
const disconnectedWithin = 1500 * time.Millisecond

// watch returns the context that a host's request is handled under: it
// ends once the request's own context has ended and the app knows why,
// with hook.ErrHostDisconnected as its cause when the ssh process that
// carried the request ended too (the SSH connection dropped), else with
// the request's own cause. done releases it; it does not block.
func (l *listener) watch(req context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.WithoutCancel(req))
	pid := l.carrier()
	finished := make(chan struct{})
	go func() {
		select {
		case <-finished:
			return
		case <-req.Done():
		}
		cause := context.Cause(req)
		deadline := time.Now().Add(disconnectedWithin)
		for !l.closing.Load() && time.Now().Before(deadline) {
			if l.carrier() != pid {
				cause = hook.ErrHostDisconnected
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		cancel(cause)
	}()
	return ctx, func() {
		close(finished)
		cancel(context.Canceled)
	}
}

// stream is a hook call's reply: the acknowledgement, a newline every
// hook.Heartbeat while the person decides (so that the host's hook can
// tell a live connection from a silent one), then the reply.
type stream struct {
	w     http.ResponseWriter
	rc    *http.ResponseController
	enc   *json.Encoder
	mu    sync.Mutex
	acked bool
}

// ack writes the acknowledgement once. Any goroutine may call it.
func (s *stream) ack() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.acked {
		return
	}
	s.acked = true
	s.w.WriteHeader(http.StatusOK)
	_ = s.enc.Encode(hook.Ack{Registered: true})
	_ = s.rc.Flush()
}

// heartbeat writes the newlines on a new goroutine until the returned
// stop, which blocks until that goroutine has ended.
func (s *stream) heartbeat() (stop func()) {
	done, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		t := time.NewTicker(hook.Heartbeat)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				s.mu.Lock()
				if s.acked {
					_, _ = s.w.Write([]byte("\n"))
					_ = s.rc.Flush()
				}
				s.mu.Unlock()
			}
		}
	}()
	return func() {
		close(done)
		<-ended
	}
}
