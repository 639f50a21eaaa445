// Package webask serves a page per pending question on the app's loopback
// listener, so the person can answer in a browser: over an SSH tunnel, from a
// container, or on a machine with no display.
//
// Each question gets its own link key (256 random bits, never the MCP token)
// when it is asked; the key is spent when the question ends. The page is
// plain HTML and CSS with one small script that arms the answer buttons
// after the same delay as the dialog. Answers are POSTs carrying a per-page
// form token and are recorded with via "web". The agent never sees the link:
// only the person's own channels (the CLI, the log, the desktop) hand it out.
//
// It imports neither Fyne nor mcp-go: the question, its presentation
// (app/question/present), the listener rules (app/loopback), the person's
// proof (app/personcheck) and a Markdown parser (goldmark), as the package
// map in docs/architecture.md says.
package webask

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"log/slog"
	"net"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asktray/asktray/app/loopback"
	"github.com/asktray/asktray/app/personcheck"
	"github.com/asktray/asktray/app/question"
)

// maxPages is how many unspent form tokens one question keeps; opening the
// page more often forgets the oldest.
const maxPages = 16

// maxBody limits an answer's POST body; a form answer is the largest.
const maxBody = 1 << 20

// Config configures a Server.
type Config struct {
	Broker *question.Broker // required
	Log    *slog.Logger     // nil discards
	// ArmDelay is the arming delay (settings' arm_delay_ms); held by
	// question.ClampArmDelay (zero means question.DefaultArmDelay).
	ArmDelay time.Duration
	// Links, if set, is given the link of each new question, which carries
	// its key: a headless app prints it on its own terminal. It runs on the
	// broker's event goroutine and must not block. Links never go to the log.
	Links func(id, url string)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Person checks the login password that an answer which approves needs
	// on a page (the same Checker as the control socket's, so that a lock
	// or a grace period is the app's). Nil refuses every such answer.
	Person *personcheck.Checker
	// Grace is the grace period a right password opens (nil: the default),
	// which the page states.
	Grace func() time.Duration
	// Dir, if set, is the data dir, where OpenFile writes the files that
	// forward a browser to a page.
	Dir string
	// Home is the person's home directory, which a page's headline writes
	// as "~" (present.Headline); "" means os.UserHomeDir.
	Home string
}

// Server mints, spends and serves the per-question links. Its methods are
// safe for concurrent use.
type Server struct {
	cfg   Config
	log   *slog.Logger
	delay atomic.Int64 // nanoseconds
	addr  atomic.Pointer[string]
	unsub func()

	mu       sync.Mutex
	links    map[string]*link    // by question id, pending questions only
	sessions map[string]struct{} // browser session ids this app made
	opens    map[string][]string // forwarding files by question id
}

// link is the secret of one pending question and the pages served for it.
type link struct {
	key   string
	pages map[string]time.Time // form token -> when its page was served
	order []string             // tokens, oldest first
}

// New returns a Server subscribed to cfg.Broker, holding a link for every
// question already pending. Call SetAddr before handing out links and Close
// when done. It does not block.
func New(cfg Config) *Server {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Home == "" {
		cfg.Home, _ = os.UserHomeDir() // none: directories are shown in full
	}
	s := &Server{cfg: cfg, log: cfg.Log, links: map[string]*link{}, sessions: map[string]struct{}{}, opens: map[string][]string{}}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.SetArmDelay(cfg.ArmDelay)
	removeStaleOpens(cfg.Dir)
	s.unsub = cfg.Broker.Subscribe(s.event)
	for _, q := range cfg.Broker.Pending() {
		s.mint(q.ID)
	}
	return s
}

// Close stops following the broker and forgets every link. It does not block.
func (s *Server) Close() {
	s.unsub()
	s.mu.Lock()
	clear(s.links)
	s.mu.Unlock()
	s.removeOpens("")
}

// SetAddr sets the listener's address (host:port). Links point to it, and
// the Host header must name a loopback address with its port. A listener on
// a non-loopback address (--dangerously-listen-non-loopback) still serves
// the pages to loopback only, so links then name 127.0.0.1. It may be
// called from any goroutine.
func (s *Server) SetAddr(addr string) {
	if host, port, err := net.SplitHostPort(addr); err == nil {
		if !loopback.Name(host) {
			addr = net.JoinHostPort("127.0.0.1", port)
		}
	}
	s.addr.Store(&addr)
}

// SetArmDelay changes the arming delay for pages served from now on. It may
// be called from any goroutine.
func (s *Server) SetArmDelay(d time.Duration) {
	s.delay.Store(int64(question.ClampArmDelay(d)))
}

func (s *Server) armDelay() time.Duration { return time.Duration(s.delay.Load()) }

// URL returns the link to pending question id's page, or "" when id is not
// pending (or no address is set). It may be called from any goroutine; it
// never blocks on the broker's events.
func (s *Server) URL(id string) string {
	addr := s.addr.Load()
	if addr == nil {
		return ""
	}
	key := s.keyFor(id)
	if key == "" {
		return ""
	}
	return "http://" + *addr + "/q/" + url.PathEscape(id) + "?k=" + key
}

// keyFor returns the key of question id, minting it when the broker says the
// question is pending but its EventAsked has not reached us yet.
func (s *Server) keyFor(id string) string {
	s.mu.Lock()
	l := s.links[id]
	s.mu.Unlock()
	if l != nil {
		return l.key
	}
	q, res, err := s.cfg.Broker.Get(id)
	if err != nil || res != nil || q.State != question.StatePending {
		return ""
	}
	return s.mint(id)
}

// event follows the broker: a new question gets a link, an ended one loses
// it. It runs on the broker's event goroutine and does not block.
func (s *Server) event(ev question.Event) {
	switch ev.Type {
	case question.EventAsked:
		s.mint(ev.Question.ID)
		if s.cfg.Links != nil {
			if u := s.URL(ev.Question.ID); u != "" {
				s.cfg.Links(ev.Question.ID, u)
			}
		}
	case question.EventEnded:
		s.mu.Lock()
		delete(s.links, ev.Question.ID)
		s.mu.Unlock()
		s.removeOpens(ev.Question.ID)
	}
}

// mint gives question id a link key unless it has one, and returns the key.
func (s *Server) mint(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l, ok := s.links[id]; ok {
		return l.key
	}
	l := &link{key: randomToken(), pages: map[string]time.Time{}}
	s.links[id] = l
	return l.key
}

// randomToken returns 256 random bits, base64url without padding.
func randomToken() string {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never returns an error.
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// dummyKey is compared against when the id is unknown, so that a wrong id
// and a wrong key take the same path.
var dummyKey = randomToken()

// check reports whether key opens question id's link; the comparison takes
// the same time for an unknown id as for a wrong key.
func (s *Server) check(id, key string) bool {
	s.mu.Lock()
	l := s.links[id]
	s.mu.Unlock()
	want := dummyKey
	if l != nil {
		want = l.key
	}
	ok := subtle.ConstantTimeCompare([]byte(key), []byte(want)) == 1
	return ok && l != nil
}

// newPage records a page served now for question id and returns its form
// token, or "" when the link is gone.
func (s *Server) newPage(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.links[id]
	if l == nil {
		return ""
	}
	t := randomToken()
	l.pages[t] = s.cfg.Now()
	l.order = append(l.order, t)
	for len(l.order) > maxPages {
		delete(l.pages, l.order[0])
		l.order = l.order[1:]
	}
	return t
}

// takePage spends form token t of question id, whose link key is key, and
// returns when its page was served. ok is false when the key or the token
// does not belong to the question.
func (s *Server) takePage(id, key, t string) (served time.Time, ok bool) {
	if !s.check(id, key) {
		return time.Time{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.links[id]
	if l == nil {
		return time.Time{}, false
	}
	served, ok = l.pages[t]
	if ok {
		delete(l.pages, t)
	}
	return served, ok
}
