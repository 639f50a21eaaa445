//go:build linux

package cli

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

// TestPage_GraceCookieReplayNeedsPassword is issue 33 item 5 against the
// real binary: the person's browser (here this test process, with a cookie
// jar) allows one approval with the password, which opens its grace; an
// agent copies the browser's session cookie and replays it with curl on
// another approval's page: the password is still needed, as the grace is
// bound to the browser process that gave it, and the approval stays
// pending. The person's own browser then allows that approval within its
// grace, with no password. On f02af39 curl's replay allowed it.
func TestPage_GraceCookieReplayNeedsPassword(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("curl is missing; make deps installs it")
	}
	dir := shortTempDir(t)
	approval := func(session, what string) question.Question {
		return question.Question{Kind: question.KindApproval, Client: question.Client{Name: "claude-code", SessionID: session},
			Tool: "request_approval", Origin: question.OriginApproval, Action: what, Message: what}
	}
	p := startApp(t, dir, approval("person", "Run the tests"), approval("agent", "Drop the production database"))
	ids := p.askedIDs(t, 2)
	shown := inScript(t, "", "pending", "--data-dir", dir)
	link := func(id string) string {
		l := regexp.MustCompile(`http://127\.0\.0\.1:\d+/q/` + regexp.QuoteMeta(id) + `\?k=[A-Za-z0-9_-]+`).FindString(shown)
		if l == "" {
			t.Fatalf("no link for %s in:\n%s", id, shown)
		}
		return l
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	if got := allowWith(t, link(ids[0]), "", testPassword, browser); !strings.Contains(got, "You can close this tab") {
		t.Fatalf("the person's browser with the password:\n%s", got)
	}
	u, _ := url.Parse(link(ids[1]))
	var cookie string
	for _, c := range jar.Cookies(u) {
		if c.Name == "asktray_session" {
			cookie = c.Value
		}
	}
	if cookie == "" {
		t.Fatal("the browser got no session cookie")
	}
	if got := allowWith(t, link(ids[1]), "asktray_session="+cookie, "", nil); !strings.Contains(got, "login password is needed") {
		t.Fatalf("curl replaying the browser's cookie on another approval's page:\n%s", got)
	}
	if r := run(t, dir, "pending", "--json"); !strings.Contains(r.stdout, ids[1]) {
		t.Fatalf("the approval is no longer pending after the replay: %+v", r)
	}
	if got := allowWith(t, link(ids[1]), "", "", browser); !strings.Contains(got, "You can close this tab") {
		t.Fatalf("the person's own browser within its grace:\n%s", got)
	}
}

// allowWith fetches the page at link and posts allow with password after
// the arming delay, through browser (this process, with its cookie jar) or,
// when browser is nil, through curl with cookie (another process, as an
// agent replays a copied value). It returns the page the app answers with.
func allowWith(t *testing.T, link, cookie, password string, browser *http.Client) string {
	t.Helper()
	u, _ := url.Parse(link)
	get := func() string {
		if browser == nil {
			return curlOut(t, "-s", "-H", "Cookie: "+cookie, link)
		}
		resp, err := browser.Get(link)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	page := get()
	m := regexp.MustCompile(`name="t" value="([^"]+)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no form token on the page:\n%s", page)
	}
	time.Sleep(1500 * time.Millisecond) // past the arming delay: the page's own rule, not a wait for a condition
	form := url.Values{"k": {u.Query().Get("k")}, "t": {m[1]}, "action": {"allow"}}
	if password != "" {
		form.Set("password", password)
	}
	target := u.Scheme + "://" + u.Host + u.Path
	if browser == nil {
		return curlOut(t, "-s", "-H", "Cookie: "+cookie, "--data", form.Encode(), target)
	}
	resp, err := browser.PostForm(target, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func curlOut(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("curl", args...).Output() //nolint:gosec // the test's own arguments
	if err != nil {
		t.Fatalf("curl %v: %v", args, err)
	}
	return string(out)
}
