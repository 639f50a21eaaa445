package webask

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asktray/asktray/app/personcheck"
	"github.com/asktray/asktray/app/question"
)

// env is a broker, a Server and an httptest server on loopback, with a
// clock the test moves.
type env struct {
	t      *testing.T
	broker *question.Broker
	web    *Server
	ts     *httptest.Server
	client *http.Client // one browser: its own cookie jar
	person *personcheck.Checker
	logs   *strings.Builder
	links  strings.Builder // what Config.Links was given, a line each
	logMu  sync.Mutex

	mu   sync.Mutex
	now  time.Time
	real bool // the clock is the wall clock
}

// newEnv returns an env whose clock moves only when the test says.
func newEnv(t *testing.T) *env { return makeEnv(t, false) }

// newRealEnv returns an env on the wall clock, for a real browser.
func newRealEnv(t *testing.T) *env { return makeEnv(t, true) }

func makeEnv(t *testing.T, real bool) *env {
	t.Helper()
	e := &env{t: t, broker: question.NewBroker(question.Config{}), now: time.Now(), logs: &strings.Builder{}, real: real}
	log := slog.New(slog.NewTextHandler(lockedWriter{&e.logMu, e.logs}, nil))
	e.client = newJarClient()
	e.person = personcheck.New(passwordIs(testPassword), func() time.Duration { return 5 * time.Minute }, log)
	e.web = New(Config{Broker: e.broker, Log: log, Now: e.clock, Person: e.person, Dir: t.TempDir(), Home: "/home/ada", Links: func(id, u string) {
		e.logMu.Lock()
		defer e.logMu.Unlock()
		e.links.WriteString(id + " " + u + "\n")
	}})
	e.ts = httptest.NewServer(e.web.Handler())
	e.web.SetAddr(e.ts.Listener.Addr().String())
	t.Cleanup(func() {
		e.ts.Close()
		e.web.Close()
		_ = e.broker.Close()
	})
	return e
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// linkText returns the links given to Config.Links so far, "id url" a line.
func (e *env) linkText() string {
	e.logMu.Lock()
	defer e.logMu.Unlock()
	return e.links.String()
}

// logText returns what was logged so far.
func (e *env) logText() string {
	e.logMu.Lock()
	defer e.logMu.Unlock()
	return e.logs.String()
}

func (e *env) clock() time.Time {
	if e.real {
		return time.Now()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.now
}

// pass moves the clock on by d.
func (e *env) pass(d time.Duration) {
	e.mu.Lock()
	e.now = e.now.Add(d)
	e.mu.Unlock()
}

// ask asks q and returns its id and link.
func (e *env) ask(q question.Question) (string, string) {
	e.t.Helper()
	if q.Client.Name == "" {
		q.Client = question.Client{Name: "claude-code", Version: "2.1.0"}
	}
	asked, err := e.broker.Ask(context.Background(), q)
	if err != nil {
		e.t.Fatalf("ask: %v", err)
	}
	link := e.web.URL(asked.ID)
	if link == "" {
		e.t.Fatal("no link for a pending question")
	}
	return asked.ID, link
}

type reply struct {
	status int
	header http.Header
	body   string
}

func (e *env) do(req *http.Request) reply {
	e.t.Helper()
	return e.doWith(e.client, req)
}

// doWith sends req from browser c.
func (e *env) doWith(c *http.Client, req *http.Request) reply {
	e.t.Helper()
	res, err := c.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return reply{res.StatusCode, res.Header, string(b)}
}

func (e *env) get(link string) reply {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, link, nil)
	return e.do(req)
}

// post sends form to question id's page with headers h.
func (e *env) post(id string, form url.Values, h map[string]string) reply {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/q/"+id, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range h {
		req.Header.Set(k, v)
	}
	return e.do(req)
}

var tokenRE = regexp.MustCompile(`name="t" value="([^"]+)"`)

// open GETs link, returns the form values k and t it carries, and lets the
// arming delay pass.
func (e *env) open(link string) url.Values {
	e.t.Helper()
	r := e.get(link)
	if r.status != http.StatusOK {
		e.t.Fatalf("GET page: %d\n%s", r.status, r.body)
	}
	m := tokenRE.FindStringSubmatch(r.body)
	if m == nil {
		e.t.Fatalf("no form token in page:\n%s", r.body)
	}
	u, _ := url.Parse(link)
	e.pass(time.Second)
	return url.Values{"k": {u.Query().Get("k")}, "t": {m[1]}}
}

// result waits for question id's result.
func (e *env) result(id string) question.Result {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := e.broker.Wait(ctx, id)
	if err != nil {
		e.t.Fatalf("wait %s: %v", id, err)
	}
	return res
}

// pending fails unless question id is still pending.
func (e *env) pending(id string) {
	e.t.Helper()
	if _, res, err := e.broker.Get(id); err != nil || res != nil {
		e.t.Fatalf("question %s ended: %+v %v", id, res, err)
	}
}

// with returns base plus the pairs kv (key, value, key, value…).
func with(base url.Values, kv ...string) url.Values {
	out := url.Values{}
	for k, v := range base {
		out[k] = append([]string(nil), v...)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out.Add(kv[i], kv[i+1])
	}
	return out
}

func schema(s string) json.RawMessage { return json.RawMessage(s) }

// testPassword is the person's login password in these tests.
const testPassword = "correct horse"

// passwordIs is a personcheck.Verifier that knows one password.
type passwordIs string

func (p passwordIs) Verify(s string) error {
	if s != string(p) {
		return personcheck.ErrWrongPassword
	}
	return nil
}

// newJarClient returns an HTTP client with a cookie jar of its own, as one
// browser is.
func newJarClient() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar}
}
