package webask

import (
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

var notice = question.Question{Kind: question.KindNotice, Message: "Deploy finished."}

// TestHeaders_OnEveryResponse checks the security headers on a page, the
// not-found page, a refusal and a result.
func TestHeaders_OnEveryResponse(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, link := e.ask(notice)
	badHost, _ := http.NewRequest(http.MethodGet, link, nil)
	badHost.Host = "evil.example:" + port(e)
	replies := map[string]reply{
		"page":      e.get(link),
		"not found": e.get(e.ts.URL + "/q/nope?k=x"),
		"bare /q/":  e.get(e.ts.URL + "/q/"),
		"bad host":  e.do(badHost),
	}
	replies["result"] = e.post(id, with(e.open(link), "action", "accept"), nil)
	want := map[string]string{
		"X-Frame-Options":        "DENY",
		"Referrer-Policy":        "no-referrer",
		"Cache-Control":          "no-store",
		"X-Content-Type-Options": "nosniff",
	}
	for name, r := range replies {
		for k, v := range want {
			if got := r.header.Get(k); got != v {
				t.Errorf("%s: %s = %q, want %q", name, k, got, v)
			}
		}
		c := r.header.Get("Content-Security-Policy")
		for _, d := range []string{"default-src 'none'", "style-src 'sha256-", "script-src 'sha256-", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"} {
			if !strings.Contains(c, d) {
				t.Errorf("%s: CSP %q lacks %q", name, c, d)
			}
		}
		if strings.Contains(c, "unsafe-inline") {
			t.Errorf("%s: CSP allows unsafe-inline", name)
		}
	}
	if !strings.Contains(csp, hash(string(styleCSS))) || !strings.Contains(csp, hash(string(armJS))) {
		t.Error("CSP hashes do not match the inlined style and script")
	}
	if !strings.Contains(replies["page"].body, "<style>"+string(styleCSS)+"</style>") || !strings.Contains(replies["page"].body, "<script>"+string(armJS)+"</script>") {
		t.Error("the page does not inline the hashed style and script byte for byte")
	}
}

func port(e *env) string {
	_, p, _ := net.SplitHostPort(e.ts.Listener.Addr().String())
	return p
}

// TestHostAndOrigin refuses what DNS rebinding and other sites would send,
// and serves loopback names on the listener's port.
func TestHostAndOrigin(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, link := e.ask(notice)
	p := port(e)
	cases := []struct {
		host, origin, site string
		method             string
		status             int
	}{
		{"127.0.0.1:" + p, "", "", "GET", 200},
		{"localhost:" + p, "", "", "GET", 200},
		{"[::1]:" + p, "", "", "GET", 200},
		{"127.0.0.1:" + p, "http://127.0.0.1:" + p, "same-origin", "GET", 200},
		{"evil.example:" + p, "", "", "GET", 403},
		{"127.0.0.1.evil.example:" + p, "", "", "GET", 403},
		{"localhost:1", "", "", "GET", 403},
		{"127.0.0.1", "", "", "GET", 403},
		{"192.168.1.5:" + p, "", "", "GET", 403},
		{"127.0.0.1:" + p, "http://evil.example", "cross-site", "GET", 403},
		{"127.0.0.1:" + p, "http://localhost:" + p, "", "GET", 403}, // another origin, even on loopback
		{"127.0.0.1:" + p, "http://127.0.0.1:9", "same-site", "POST", 403},
		{"127.0.0.1:" + p, "null", "", "POST", 403},
		{"127.0.0.1:" + p, "null", "cross-site", "POST", 403},
		{"127.0.0.1:" + p, "", "cross-site", "POST", 403},
		{"127.0.0.1:" + p, "null", "same-origin", "POST", 404}, // our own form under no-referrer; then the missing token
		{"127.0.0.1:" + p, "http://127.0.0.1:" + p, "same-origin", "POST", 404},
	}
	for _, c := range cases {
		u := link
		if c.method == "POST" {
			u = strings.Split(link, "?")[0]
		}
		req, _ := http.NewRequest(c.method, u, strings.NewReader("action=accept"))
		req.Host = c.host
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		if c.site != "" {
			req.Header.Set("Sec-Fetch-Site", c.site)
		}
		if r := e.do(req); r.status != c.status {
			t.Errorf("%s Host %q Origin %q Sec-Fetch-Site %q: %d, want %d", c.method, c.host, c.origin, c.site, r.status, c.status)
		}
	}
}

// TestNonLoopbackPeer refuses a browser that reaches the listener from elsewhere.
func TestNonLoopbackPeer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, link := e.ask(notice)
	req := httptest.NewRequest(http.MethodGet, link, nil)
	req.RemoteAddr = "192.0.2.7:50000"
	req.Host = e.ts.Listener.Addr().String()
	w := httptest.NewRecorder()
	e.web.Handler().ServeHTTP(w, req)
	if w.Code != http.StatusForbidden {
		t.Fatalf("status %d", w.Code)
	}
}

// TestNotFound_RevealsNothing: an unknown id, a wrong key, no key, a
// spent link and a stale token all get the same page.
func TestNotFound_RevealsNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, link := e.ask(notice)
	spentID, spent := e.ask(notice)
	vals := e.open(spent)
	if r := e.post(spentID, with(vals, "action", "accept"), nil); r.status != 200 {
		t.Fatalf("answer: %d", r.status)
	}
	u, _ := url.Parse(link)
	key := u.Query().Get("k")
	replies := map[string]reply{
		"unknown id":       e.get(e.ts.URL + "/q/" + question.NewID() + "?k=" + key),
		"wrong key":        e.get(e.ts.URL + "/q/" + id + "?k=" + randomToken()),
		"key of another":   e.get(e.ts.URL + "/q/" + spentID + "?k=" + key),
		"no key":           e.get(e.ts.URL + "/q/" + id),
		"spent link":       e.get(spent),
		"reused token":     e.post(spentID, with(vals, "action", "accept"), nil),
		"token, wrong key": e.post(id, with(url.Values{"k": {randomToken()}, "t": vals["t"]}, "action", "accept"), nil),
		"token of another": e.post(id, with(url.Values{"k": {key}, "t": vals["t"]}, "action", "accept"), nil),
	}
	var first string
	for name, r := range replies {
		if r.status != http.StatusNotFound {
			t.Errorf("%s: status %d", name, r.status)
		}
		if first == "" {
			first = r.body
		} else if r.body != first {
			t.Errorf("%s: body differs from the others", name)
		}
		if strings.Contains(r.body, id) || strings.Contains(r.body, spentID) || strings.Contains(r.body, "Deploy") {
			t.Errorf("%s: the page reveals the question", name)
		}
	}
	e.pending(id)
}

// TestLink_SpentWhenTheQuestionEnds: a withdrawn or expired question's link
// stops working, and URL stops handing it out.
func TestLink_SpentWhenTheQuestionEnds(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, link := e.ask(notice)
	vals := e.open(link)
	if err := e.broker.Withdraw(id); err != nil {
		t.Fatal(err)
	}
	e.result(id)
	deadline := time.Now().Add(5 * time.Second)
	for e.web.URL(id) != "" { // the ended event reaches the server on the broker's goroutine
		if time.Now().After(deadline) {
			t.Fatal("URL still hands out the link of an ended question")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if r := e.get(link); r.status != http.StatusNotFound {
		t.Errorf("GET: %d", r.status)
	}
	if r := e.post(id, with(vals, "action", "accept"), nil); r.status != http.StatusNotFound {
		t.Errorf("POST: %d", r.status)
	}
	if e.web.URL("unknown") != "" {
		t.Error("a link for an unknown id")
	}
}

// TestTooSoon refuses an answer posted sooner than the arming delay after
// its page was served, keeps the input, and takes it once the delay passed.
func TestTooSoon(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.web.SetArmDelay(800 * time.Millisecond)
	id, link := e.ask(question.Question{Kind: question.KindText, Message: "Name?", FreeText: true})
	r := e.get(link)
	if !strings.Contains(r.body, `data-arm-ms="800"`) {
		t.Error("page does not carry the arming delay")
	}
	vals := url.Values{"k": {strings.SplitN(link, "?k=", 2)[1]}, "t": {tokenRE.FindStringSubmatch(r.body)[1]}}
	e.pass(700 * time.Millisecond)
	r = e.post(id, with(vals, "text", "Ada", "action", "accept"), nil)
	if r.status != http.StatusTooManyRequests || !strings.Contains(r.body, "Too soon") || !strings.Contains(r.body, `value="Ada"`) {
		t.Fatalf("status %d\n%s", r.status, r.body)
	}
	e.pending(id)
	vals.Set("t", tokenRE.FindStringSubmatch(r.body)[1])
	e.pass(800 * time.Millisecond)
	if r = e.post(id, with(vals, "text", "Ada", "action", "accept"), nil); r.status != 200 {
		t.Fatalf("status %d", r.status)
	}
	if res := e.result(id); string(res.Value) != `"Ada"` {
		t.Fatalf("value %s", res.Value)
	}
	if !strings.Contains(e.logText(), "too soon") {
		t.Error("the refused early answer is not logged")
	}
}

// TestArmDelay_Clamped keeps the delay at or above the dialog's floor.
func TestArmDelay_Clamped(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for in, want := range map[time.Duration]time.Duration{0: question.DefaultArmDelay, 10 * time.Millisecond: question.MinArmDelay, 2 * time.Second: 2 * time.Second} {
		e.web.SetArmDelay(in)
		if got := e.web.armDelay(); got != want {
			t.Errorf("SetArmDelay(%v): %v, want %v", in, got, want)
		}
	}
}

// TestPost_BadRequests refuses other content types and other methods.
func TestPost_BadRequests(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, link := e.ask(notice)
	vals := e.open(link)
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/q/"+id, strings.NewReader(with(vals, "action", "accept").Encode()))
	req.Header.Set("Content-Type", "application/json")
	if r := e.do(req); r.status != http.StatusUnsupportedMediaType {
		t.Errorf("JSON body: %d", r.status)
	}
	big := with(vals, "action", "accept", "text", strings.Repeat("x", maxBody))
	req, _ = http.NewRequest(http.MethodPost, e.ts.URL+"/q/"+id, strings.NewReader(big.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if r := e.do(req); r.status != http.StatusRequestEntityTooLarge {
		t.Errorf("2 MiB body: %d", r.status)
	}
	req, _ = http.NewRequest(http.MethodPut, link, nil)
	if r := e.do(req); r.status != http.StatusMethodNotAllowed {
		t.Errorf("PUT: %d", r.status)
	}
	e.pending(id)
}

// TestLinks_KeysAndLog: each question gets its own long random key, a
// headless app is handed each new link (for its terminal) but the log never
// holds one, and a question asked before the server started gets one too.
func TestLinks_KeysAndLog(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, la := e.ask(notice)
	_, lb := e.ask(notice)
	ka, kb := strings.SplitN(la, "?k=", 2)[1], strings.SplitN(lb, "?k=", 2)[1]
	if ka == kb || len(ka) < 43 {
		t.Errorf("keys %q %q", ka, kb)
	}
	if !strings.HasPrefix(la, "http://127.0.0.1:"+port(e)+"/q/"+a+"?k=") {
		t.Errorf("link %q", la)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(e.linkText(), a+" "+la+"\n") {
		if time.Now().After(deadline) {
			t.Fatalf("the link was not handed out; got:\n%s", e.linkText())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if strings.Contains(e.logText(), ka) || strings.Contains(e.logText(), kb) {
		t.Errorf("the log holds a link's key:\n%s", e.logText())
	}
	late := New(Config{Broker: e.broker})
	defer late.Close()
	late.SetAddr("127.0.0.1:1")
	if u := late.URL(a); u == "" || strings.Contains(u, ka) {
		t.Errorf("late server's link %q", u)
	}
}
