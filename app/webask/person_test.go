package webask

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

// TestPassword_GraceIsPerBrowser: a right password on one browser's page
// lets that browser allow the next approval without one; another browser
// (another cookie jar, or curl with none) still needs it. The session
// cookie is HttpOnly and SameSite=Strict, and the log never holds it.
func TestPassword_GraceIsPerBrowser(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	approval := question.Question{Kind: question.KindApproval, Message: "Run `make deploy`?"}
	id1, link1 := e.ask(approval)
	page := e.get(link1)
	if !strings.Contains(page.body, `type="password"`) || !strings.Contains(page.body, "not asked again for 5 minutes") {
		t.Fatalf("the approval's page has no password field:\n%s", page.body)
	}
	r := e.post(id1, with(e.open(link1), "action", "allow", "password", testPassword), nil)
	if r.status != http.StatusOK || e.result(id1).Outcome != question.Answered {
		t.Fatalf("allow with the right password: %d\n%s", r.status, r.body)
	}
	cookie := r.header.Get("Set-Cookie")
	for _, want := range []string{sessionCookie + "=", "HttpOnly", "SameSite=Strict", "Path=/q/"} {
		if !strings.Contains(cookie, want) {
			t.Errorf("Set-Cookie %q lacks %s", cookie, want)
		}
	}
	sid := strings.TrimPrefix(strings.SplitN(cookie, ";", 2)[0], sessionCookie+"=")
	if strings.Contains(e.logText(), sid) {
		t.Error("the log holds the browser's session id")
	}

	id2, link2 := e.ask(question.Question{Kind: question.KindApproval, Message: "Run `make deploy` again?"})
	if page := e.get(link2); !strings.Contains(page.body, "not needed now") {
		t.Errorf("the same browser's next page asks for the password:\n%s", page.body)
	}
	other := newJarClient()
	form := e.open(link2)
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/q/"+id2, strings.NewReader(with(form, "action", "allow").Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if r := e.doWith(other, req); r.status != http.StatusForbidden || !strings.Contains(r.body, "login password is needed") {
		t.Fatalf("another browser allowed within the first one's grace: %d\n%s", r.status, r.body)
	}
	e.pending(id2)
	if r := e.post(id2, with(e.open(link2), "action", "allow"), nil); r.status != http.StatusOK {
		t.Fatalf("the same browser within its grace: %d\n%s", r.status, r.body)
	}
	if res := e.result(id2); res.Outcome != question.Answered || res.Via != question.ViaWeb {
		t.Fatalf("result %+v", res)
	}
}

// TestPassword_LockAfterThree: three wrong passwords lock the browser for
// 30 s, so that the right one is refused too and the question stays
// pending; each failure is logged; denying still works.
func TestPassword_LockAfterThree(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, link := e.ask(question.Question{Kind: question.KindApproval, Message: "Run `rm -rf build`?"})
	for i := range 3 {
		r := e.post(id, with(e.open(link), "action", "allow", "password", "guess"), nil)
		if r.status != http.StatusForbidden {
			t.Fatalf("wrong password %d: %d", i+1, r.status)
		}
	}
	r := e.post(id, with(e.open(link), "action", "allow", "password", testPassword), nil)
	if r.status != http.StatusForbidden || !strings.Contains(r.body, "locked for") {
		t.Fatalf("right password while locked: %d\n%s", r.status, r.body)
	}
	e.pending(id)
	if n := strings.Count(e.logText(), "approval password wrong"); n != 3 {
		t.Errorf("%d failures logged, want 3", n)
	}
	if r := e.post(id, with(e.open(link), "action", "decline"), nil); r.status != http.StatusOK || e.result(id).Outcome != question.Declined {
		t.Fatalf("deny while locked: %d", r.status)
	}
}

// TestOpenFile: the forwarding file is the user's alone (0600), leads to
// the page, and is gone once the page is opened; the link never needs to
// be on a command line.
func TestOpenFile(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, link := e.ask(question.Question{Kind: question.KindNotice, Message: "Deploy finished."})
	path, err := e.web.OpenFile(id)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 || filepath.Dir(path) != e.web.cfg.Dir {
		t.Fatalf("forwarding file %s: %v %v", path, fi.Mode(), err)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), `http-equiv="refresh"`) || !strings.Contains(string(b), strings.ReplaceAll(link, "&", "&amp;")) {
		t.Fatalf("the file does not forward to %s:\n%s", link, b)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal("removed before use")
	}
	e.get(link)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the forwarding file is still there after the page was opened: %v", err)
	}
	// A question that ends takes its unopened file with it.
	id2, _ := e.ask(question.Question{Kind: question.KindNotice, Message: "Another."})
	path2, err := e.web.OpenFile(id2)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.broker.Answer(id2, question.Response{Action: question.Cancel}); err != nil {
		t.Fatal(err)
	}
	e.result(id2)
	// The broker tells the pages on its event goroutine, a moment later.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path2); os.IsNotExist(err) {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("the forwarding file outlives its question: %v", err)
		}
	}
}
