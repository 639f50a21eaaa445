package loopback

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// The two listeners' rules, as mcpbridge and app/webask build them.
var (
	mcp      = Rules{}
	mcpExtra = Rules{ExtraHosts: []string{"192.168.1.5", "desk"}, RemotePeers: true}
	page     = Rules{Port: "7931", SameOrigin: true}
)

// TestRules is the one table of every Host, Origin and peer the two
// listeners accept or refuse: the MCP endpoint (any loopback port, any
// loopback Origin) and the question page (its own port, its own Origin).
func TestRules(t *testing.T) {
	t.Parallel()
	type want struct{ mcp, page Verdict }
	cases := []struct {
		name                         string
		peer, host, origin, site, mt string
		want                         want
	}{
		// Peers.
		{"ipv4 loopback peer", "127.0.0.1:40000", "127.0.0.1:7931", "", "", "GET", want{Allowed, Allowed}},
		{"other 127/8 peer", "127.5.6.7:40000", "127.0.0.1:7931", "", "", "GET", want{Allowed, Allowed}},
		{"ipv6 loopback peer", "[::1]:40000", "127.0.0.1:7931", "", "", "GET", want{Allowed, Allowed}},
		{"mapped ipv4 loopback peer", "[::ffff:127.0.0.1]:40000", "127.0.0.1:7931", "", "", "GET", want{Allowed, Allowed}},
		{"bare loopback peer", "127.0.0.1", "127.0.0.1:7931", "", "", "GET", want{Allowed, Allowed}},
		{"lan peer", "192.0.2.7:51000", "127.0.0.1:7931", "", "", "GET", want{ForeignPeer, ForeignPeer}},
		{"unspecified peer", "0.0.0.0:51000", "127.0.0.1:7931", "", "", "GET", want{ForeignPeer, ForeignPeer}},
		{"named peer", "localhost:51000", "127.0.0.1:7931", "", "", "GET", want{ForeignPeer, ForeignPeer}},
		{"empty peer", "", "127.0.0.1:7931", "", "", "GET", want{ForeignPeer, ForeignPeer}},
		// Hosts.
		{"localhost", "127.0.0.1:1", "localhost:7931", "", "", "GET", want{Allowed, Allowed}},
		{"localhost any case", "127.0.0.1:1", "LocalHost:7931", "", "", "GET", want{Allowed, Allowed}},
		{"ipv6 host", "127.0.0.1:1", "[::1]:7931", "", "", "GET", want{Allowed, Allowed}},
		{"127/8 host", "127.0.0.1:1", "127.1.2.3:7931", "", "", "GET", want{Allowed, Allowed}},
		{"other port", "127.0.0.1:1", "127.0.0.1:1", "", "", "GET", want{Allowed, ForeignHost}},
		{"localhost other port", "127.0.0.1:1", "localhost:1", "", "", "GET", want{Allowed, ForeignHost}},
		{"no port", "127.0.0.1:1", "127.0.0.1", "", "", "GET", want{Allowed, ForeignHost}},
		{"localhost no port", "127.0.0.1:1", "localhost", "", "", "GET", want{Allowed, ForeignHost}},
		{"ipv6 no port", "127.0.0.1:1", "[::1]", "", "", "GET", want{Allowed, ForeignHost}},
		{"empty port", "127.0.0.1:1", "localhost:", "", "", "GET", want{Allowed, ForeignHost}},
		{"rebinding name", "127.0.0.1:1", "evil.example:7931", "", "", "GET", want{ForeignHost, ForeignHost}},
		{"rebinding no port", "127.0.0.1:1", "attacker.test", "", "", "GET", want{ForeignHost, ForeignHost}},
		{"loopback-looking name", "127.0.0.1:1", "127.0.0.1.evil.example:7931", "", "", "GET", want{ForeignHost, ForeignHost}},
		{"localhost subdomain", "127.0.0.1:1", "localhost.evil.example:7931", "", "", "GET", want{ForeignHost, ForeignHost}},
		{"trailing dot", "127.0.0.1:1", "localhost.:7931", "", "", "GET", want{ForeignHost, ForeignHost}},
		{"unspecified host", "127.0.0.1:1", "0.0.0.0:7931", "", "", "GET", want{ForeignHost, ForeignHost}},
		{"lan host", "127.0.0.1:1", "192.168.1.5:7931", "", "", "GET", want{ForeignHost, ForeignHost}},
		{"empty host", "127.0.0.1:1", "", "", "", "GET", want{ForeignHost, ForeignHost}},
		{"double brackets", "127.0.0.1:1", "[[::1]]", "", "", "GET", want{ForeignHost, ForeignHost}},
		// Origins.
		{"same origin", "127.0.0.1:1", "127.0.0.1:7931", "http://127.0.0.1:7931", "same-origin", "POST", want{Allowed, Allowed}},
		{"loopback tool origin", "127.0.0.1:1", "127.0.0.1:7931", "http://localhost:6274", "", "POST", want{Allowed, ForeignOrigin}},
		{"https loopback origin", "127.0.0.1:1", "127.0.0.1:7931", "https://127.0.0.1", "", "POST", want{Allowed, ForeignOrigin}},
		{"other loopback name same port", "127.0.0.1:1", "127.0.0.1:7931", "http://localhost:7931", "", "GET", want{Allowed, ForeignOrigin}},
		{"foreign origin", "127.0.0.1:1", "127.0.0.1:7931", "https://evil.example", "cross-site", "GET", want{ForeignOrigin, ForeignOrigin}},
		{"localhost subdomain origin", "127.0.0.1:1", "127.0.0.1:7931", "http://localhost.evil.com", "", "GET", want{ForeignOrigin, ForeignOrigin}},
		{"extension origin", "127.0.0.1:1", "127.0.0.1:7931", "chrome-extension://abc", "", "GET", want{ForeignOrigin, ForeignOrigin}},
		{"file origin", "127.0.0.1:1", "127.0.0.1:7931", "file://", "", "POST", want{ForeignOrigin, ForeignOrigin}},
		{"origin with user", "127.0.0.1:1", "127.0.0.1:7931", "http://evil@127.0.0.1:7931", "", "GET", want{ForeignOrigin, ForeignOrigin}},
		{"origin with path", "127.0.0.1:1", "127.0.0.1:7931", "http://127.0.0.1:7931/x", "", "GET", want{ForeignOrigin, ForeignOrigin}},
		{"null origin", "127.0.0.1:1", "127.0.0.1:7931", "null", "", "POST", want{ForeignOrigin, ForeignOrigin}},
		{"null origin cross-site", "127.0.0.1:1", "127.0.0.1:7931", "null", "cross-site", "POST", want{ForeignOrigin, ForeignOrigin}},
		{"null origin same-origin (own form)", "127.0.0.1:1", "127.0.0.1:7931", "null", "same-origin", "POST", want{ForeignOrigin, Allowed}},
		{"same-site other port", "127.0.0.1:1", "127.0.0.1:7931", "http://127.0.0.1:9", "same-site", "POST", want{Allowed, ForeignOrigin}},
		// Sec-Fetch-Site without an Origin.
		{"cross-site post", "127.0.0.1:1", "127.0.0.1:7931", "", "cross-site", "POST", want{Allowed, CrossSite}},
		{"same-site post", "127.0.0.1:1", "127.0.0.1:7931", "", "same-site", "POST", want{Allowed, CrossSite}},
		{"cross-site get (a link)", "127.0.0.1:1", "127.0.0.1:7931", "", "cross-site", "GET", want{Allowed, Allowed}},
		{"cross-site head", "127.0.0.1:1", "127.0.0.1:7931", "", "cross-site", "HEAD", want{Allowed, Allowed}},
		{"typed address post", "127.0.0.1:1", "127.0.0.1:7931", "", "none", "POST", want{Allowed, Allowed}},
	}
	for _, c := range cases {
		r := httptest.NewRequest(c.mt, "/", nil)
		r.RemoteAddr, r.Host = c.peer, c.host
		if c.origin != "" {
			r.Header.Set("Origin", c.origin)
		}
		if c.site != "" {
			r.Header.Set("Sec-Fetch-Site", c.site)
		}
		if got := mcp.Check(r); got != c.want.mcp {
			t.Errorf("%s: MCP endpoint: %v, want %v", c.name, got, c.want.mcp)
		}
		if got := page.Check(r); got != c.want.page {
			t.Errorf("%s: question page: %v, want %v", c.name, got, c.want.page)
		}
	}
}

// TestExtraHosts covers an MCP endpoint deliberately listening on another
// interface: its own names pass in Host and Origin, and so do remote peers.
func TestExtraHosts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		peer, host, origin string
		want               Verdict
	}{
		{"192.0.2.7:1", "192.168.1.5:7931", "", Allowed},
		{"192.0.2.7:1", "DESK:7931", "http://desk:7931", Allowed},
		{"192.0.2.7:1", "127.0.0.1:7931", "https://192.168.1.5", Allowed},
		{"192.0.2.7:1", "evil.example:7931", "", ForeignHost},
		{"192.0.2.7:1", "192.168.1.5:7931", "http://evil.example", ForeignOrigin},
	} {
		r := httptest.NewRequest(http.MethodPost, "/", nil)
		r.RemoteAddr, r.Host = c.peer, c.host
		if c.origin != "" {
			r.Header.Set("Origin", c.origin)
		}
		if got := mcpExtra.Check(r); got != c.want {
			t.Errorf("peer %s Host %s Origin %q: %v, want %v", c.peer, c.host, c.origin, got, c.want)
		}
	}
}

// TestName covers the listen address and page-link check.
func TestName(t *testing.T) {
	t.Parallel()
	for host, want := range map[string]bool{"localhost": true, "LOCALHOST": true, "127.0.0.1": true, "127.255.0.1": true,
		"::1": true, "[::1]": true, "::ffff:127.0.0.1": true, "0.0.0.0": false, "": false, "::": false,
		"192.0.2.1": false, "example.com": false, "localhost.": false, "[::1": false, "local host": false} {
		if got := Name(host); got != want {
			t.Errorf("Name(%q) = %v, want %v", host, got, want)
		}
	}
}

// TestStandardLibraryOnly keeps the package to the standard library, so
// that every listener can import it.
func TestStandardLibraryOnly(t *testing.T) {
	t.Parallel()
	testkit.ImportsOnly(t, ".")
}
