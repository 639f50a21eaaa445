package webask

import (
	"io"
	"net"
	"net/http"

	"github.com/asktray/asktray/app/loopback"
)

// Handler returns the pages, to be mounted at /q/ on the loopback listener,
// outside the MCP bearer check: every response carries the security headers,
// and a request from a non-loopback peer, with a Host other than the
// listener's loopback address, or with a foreign Origin gets 403.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /q/{id}", s.get)
	mux.HandleFunc("POST /q/{id}", s.post)
	mux.HandleFunc("/q/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodPost && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, POST")
			s.plain(w, http.StatusMethodNotAllowed, "Method Not Allowed")
			return
		}
		s.notFound(w)
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		if reason := s.refuse(r); reason != "" {
			s.plain(w, http.StatusForbidden, "Forbidden: "+reason)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// refuse returns why r may not be served, or "": the question pages take
// requests from loopback peers only, addressed to the listener's own
// loopback address and port, from its own pages.
func (s *Server) refuse(r *http.Request) string {
	rules := loopback.Rules{SameOrigin: true}
	if addr := s.addr.Load(); addr != nil {
		_, rules.Port, _ = net.SplitHostPort(*addr)
	}
	if rules.Port == "" {
		return "Host must be this app's loopback address" // no listener yet
	}
	switch rules.Check(r) {
	case loopback.Allowed:
		if err := s.sameUser(r); err != nil {
			s.log.Warn("question page refused: another user", "peer", r.RemoteAddr, "err", err)
			return "only the user who runs Asktray may open this page"
		}
		return ""
	case loopback.ForeignPeer:
		return "only local browsers may open this page"
	case loopback.ForeignHost:
		return "Host must be this app's loopback address"
	case loopback.CrossSite:
		return "cross-site requests are not allowed"
	default:
		return "Origin not allowed"
	}
}

// plain writes a short text response.
func (s *Server) plain(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, msg+"\n")
}
