package webask

import (
	"io"
	"net"
	"net/http"
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

// refuse returns why r may not be served, or "".
func (s *Server) refuse(r *http.Request) string {
	if !loopbackPeer(r.RemoteAddr) {
		return "only local browsers may open this page"
	}
	if !s.hostAllowed(r.Host) {
		return "Host must be this app's loopback address"
	}
	origin := r.Header.Get("Origin")
	site := r.Header.Get("Sec-Fetch-Site")
	switch {
	case origin == "null":
		// Our own form sends Origin: null because the page's referrer
		// policy is no-referrer (Fetch: serializing a request origin); the
		// browser's Sec-Fetch-Site then tells ours from a foreign page's.
		if site != "same-origin" {
			return "Origin not allowed"
		}
	case origin != "" && origin != "http://"+r.Host:
		return "Origin not allowed"
	}
	if site != "" && site != "same-origin" && site != "none" && r.Method != http.MethodGet && r.Method != http.MethodHead {
		return "cross-site requests are not allowed"
	}
	return ""
}

// hostAllowed reports whether host names a loopback address with the
// listener's port.
func (s *Server) hostAllowed(host string) bool {
	addr := s.addr.Load()
	if addr == nil {
		return false
	}
	_, wantPort, err := net.SplitHostPort(*addr)
	if err != nil {
		return false
	}
	h, port, err := net.SplitHostPort(host)
	if err != nil || port != wantPort {
		return false
	}
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// loopbackPeer reports whether a request's remote address is on loopback.
func loopbackPeer(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// plain writes a short text response.
func (s *Server) plain(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, msg+"\n")
}
