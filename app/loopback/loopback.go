// Package loopback holds the rules that keep Asktray's HTTP listeners to
// the local machine: which peer addresses, Host headers and Origins a
// request may carry. Both listeners (the MCP endpoint in mcpbridge and the
// question pages in app/webask) check requests with Rules.Check, and the
// app checks its listen address with Name. It imports only the standard
// library.
//
// A DNS rebinding attack reaches a loopback listener from a web page with
// the attacker's name in Host; a page of another site sends its own
// Origin. Names compare case-insensitively, as DNS does.
package loopback

import (
	"errors"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// ErrNoOwner says this platform gives no way to learn who owns a TCP peer
// (Owner returns it everywhere but on Linux).
var ErrNoOwner = errors.New("this platform does not say which user owns a loopback TCP connection")

// Name reports whether host, a bare host without a port (IPv6 in brackets
// or not), is "localhost" in any case or a loopback IP address.
func Name(host string) bool {
	if len(host) > 1 && host[0] == '[' && host[len(host)-1] == ']' {
		host = host[1 : len(host)-1]
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Peer reports whether a request's remote address (host:port, or a bare
// IP) is a loopback IP address. Names are not resolved: a peer is an IP.
func Peer(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Verdict is the outcome of checking one request.
type Verdict int

// The verdicts, in the order Check tests them.
const (
	Allowed       Verdict = iota
	ForeignPeer           // the connection comes from another machine
	ForeignHost           // Host is not a loopback name (or an extra host), or not on Port
	ForeignOrigin         // Origin names another site
	CrossSite             // a non-GET request the browser says comes from another site
)

// Rules are one listener's checks. The zero value is the MCP endpoint's:
// loopback peers, a loopback Host with any port or none, and any http(s)
// Origin on a loopback host (local tools such as the MCP Inspector serve
// their own page on another port).
type Rules struct {
	// Port, when set, is the port the Host header must carry: the question
	// pages accept only their own listener's address.
	Port string
	// ExtraHosts are further names accepted in Host and Origin, for an app
	// deliberately listening on another interface.
	ExtraHosts []string
	// RemotePeers accepts connections from non-loopback addresses.
	RemotePeers bool
	// SameOrigin restricts browsers to this listener's own pages: an
	// Origin must be exactly "http://" + Host; "null" passes only with
	// Sec-Fetch-Site same-origin (a form under a no-referrer policy sends
	// Origin null, and the browser's Sec-Fetch-Site then tells ours from a
	// foreign page's); and a request other than GET or HEAD with a
	// Sec-Fetch-Site other than same-origin or none is refused.
	SameOrigin bool
}

// Check returns whether r may be served, and if not, why. It does not
// block and may be called from any goroutine.
func (ru Rules) Check(r *http.Request) Verdict {
	if !ru.RemotePeers && !Peer(r.RemoteAddr) {
		return ForeignPeer
	}
	if !ru.HostAllowed(r.Host) {
		return ForeignHost
	}
	origin := r.Header.Get("Origin")
	if !ru.SameOrigin {
		if origin != "" && !ru.OriginAllowed(origin) {
			return ForeignOrigin
		}
		return Allowed
	}
	site := r.Header.Get("Sec-Fetch-Site")
	switch {
	case origin == "null":
		if site != "same-origin" {
			return ForeignOrigin
		}
	case origin != "" && origin != "http://"+r.Host:
		return ForeignOrigin
	}
	if site != "" && site != "same-origin" && site != "none" && r.Method != http.MethodGet && r.Method != http.MethodHead {
		return CrossSite
	}
	return Allowed
}

// HostAllowed reports whether a Host header value names a loopback host or
// an extra host, on Port when Port is set (else with any port or none).
func (ru Rules) HostAllowed(hostport string) bool {
	name, port, err := net.SplitHostPort(hostport)
	if err != nil {
		if ru.Port != "" {
			return false
		}
		name = hostport
	} else if ru.Port != "" && port != ru.Port {
		return false
	}
	if Name(name) {
		return true
	}
	for _, e := range ru.ExtraHosts {
		if strings.EqualFold(name, e) {
			return true
		}
	}
	return false
}

// OriginAllowed reports whether an Origin header is an http(s) origin, and
// no more than that (no user, path, query or fragment), on a loopback or
// extra host with any port. Check applies it unless SameOrigin is set.
func (ru Rules) OriginAllowed(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return false
	}
	anyPort := ru
	anyPort.Port = ""
	return anyPort.HostAllowed(u.Host)
}

// String names v for test failures and logs.
func (v Verdict) String() string {
	switch v {
	case Allowed:
		return "allowed"
	case ForeignPeer:
		return "foreign peer"
	case ForeignHost:
		return "foreign host"
	case ForeignOrigin:
		return "foreign origin"
	case CrossSite:
		return "cross-site"
	}
	return "verdict(" + strconv.Itoa(int(v)) + ")"
}
