package webask

import (
	"fmt"
	"net/http"
	"time"

	"github.com/asktray/asktray/app/loopback"
	"github.com/asktray/asktray/app/personcheck"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// sessionCookie names the browser's session, the channel a password's grace
// period is bound to. It is HttpOnly and SameSite=Strict, and its value is
// 256 random bits the app keeps in memory only: a restart ends every grace.
const sessionCookie = "asktray_session"

// passwordView is the password field of a page whose question can be
// approved.
type passwordView struct {
	Fresh bool   // this browser is within a grace period
	Grace string // the grace period, as the person reads it
	Error string
}

// sameUser returns nil when the process at the other end of r's loopback
// TCP connection runs as the app's user (loopback.SameUser).
func (s *Server) sameUser(r *http.Request) error { return loopback.SameUser(r) }

// session returns r's browser session id when the cookie names one this
// app made, or "".
func (s *Server) session(r *http.Request) string {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.sessions[c.Value]; ok {
		return c.Value
	}
	return ""
}

// ensureSession returns r's browser session, making one and setting its
// cookie on w when r has none. The cookie goes only to this app's pages
// (Path /q/), never to a script (HttpOnly), and never with a request that
// another site starts (SameSite=Strict).
func (s *Server) ensureSession(w http.ResponseWriter, r *http.Request) string {
	if sid := s.session(r); sid != "" {
		return sid
	}
	sid := randomToken()
	s.mu.Lock()
	s.sessions[sid] = struct{}{}
	s.mu.Unlock()
	// Not Secure: the page is plain HTTP on loopback, where a Secure cookie
	// would never come back.
	// A short life: the grace it may carry lasts at most MaxGrace.
	http.SetCookie(w, &http.Cookie{ //nolint:gosec // G124: see above
		Name: sessionCookie, Value: sid, Path: "/q/", HttpOnly: true, SameSite: http.SameSiteStrictMode,
		MaxAge: int(personcheck.MaxGrace / time.Second)})
	return sid
}

// passwordField returns the password field of q's page, or nil when no
// answer to q approves or the page may not approve it (present.Unseen). It
// does not block.
func (s *Server) passwordField(r *http.Request, q *question.Question) *passwordView {
	if !q.CanApprove() || present.Unseen(q) != "" {
		return nil
	}
	p := &passwordView{Grace: graceWords(s.grace())}
	if sid := s.session(r); sid != "" && s.cfg.Person != nil {
		p.Fresh = s.cfg.Person.Fresh(browserChannel(sid, r))
	}
	return p
}

func (s *Server) grace() time.Duration {
	if s.cfg.Grace == nil {
		return personcheck.DefaultGrace
	}
	return min(s.cfg.Grace(), personcheck.MaxGrace)
}

// graceWords says a grace period in words.
func graceWords(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	if d%time.Minute == 0 {
		if d == time.Minute {
			return "1 minute"
		}
		return fmt.Sprintf("%d minutes", d/time.Minute)
	}
	return d.Round(time.Second).String()
}

// prove checks the person's proof for an answer that approves: this
// browser's grace period, or the password posted with it. It sets the
// session cookie when the browser has none and blocks while PAM checks.
func (s *Server) prove(w http.ResponseWriter, r *http.Request, id string) error {
	if s.cfg.Person == nil {
		return fmt.Errorf("%w: no password check is set up; %s", personcheck.ErrUnavailable, personcheck.DialogHint)
	}
	ch := browserChannel(s.ensureSession(w, r), r)
	err := s.cfg.Person.Prove(ch, r.PostForm.Get("password"))
	if err != nil {
		s.log.Warn("web approval refused", "id", id, "channel", string(ch), "err", err)
	}
	return err
}
