//go:build linux

package cli

import (
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/question"
)

// TestGuessing_CountsEveryChannel is issue 33 item 4 against the real
// binary: an agent guesses the login password over fresh pseudo-terminals
// (script(1), a new terminal each) and over the question page without its
// cookie (a new browser session each), both free to make, then gives the
// right one. The wrong guesses count for the user across every channel, so
// the right password is refused while the lock lasts and the approval stays
// pending. On f02af39, which counted per terminal and per cookie, the right
// password was accepted after them.
func TestGuessing_CountsEveryChannel(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("curl is missing; make deps installs it")
	}
	dir := shortTempDir(t)
	p := startApp(t, dir, question.Question{Kind: question.KindApproval, Client: question.Client{Name: "claude-code", SessionID: "s1"},
		Tool: "request_approval", Origin: question.OriginApproval, Action: "Drop the production database", Message: "Drop the production database", Risk: question.RiskHigh})
	id := p.askedIDs(t, 1)[0]
	link := regexp.MustCompile(`http://127\.0\.0\.1:\d+/q/` + regexp.QuoteMeta(id) + `\?k=[A-Za-z0-9_-]+`).
		FindString(inScript(t, "", "pending", "--data-dir", dir))
	if link == "" {
		t.Fatal("asktray pending in script(1) showed no link")
	}

	if got := inScript(t, "guess one\r", "answer", id, "--accept", `"allow"`, "--data-dir", dir); !strings.Contains(got, "wrong password (1 of 3") {
		t.Fatalf("a guess on a fresh terminal:\n%s", got)
	}
	if got := pageGuess(t, link, "guess two"); !strings.Contains(got, "Wrong password (2 of 3") {
		t.Fatalf("a guess on the page without a cookie:\n%s", got)
	}
	if got := pageGuess(t, link, "guess three"); !strings.Contains(got, "locked for 30s") {
		t.Fatalf("a third guess on the page without a cookie:\n%s", got)
	}
	// A fresh terminal is not even asked for the password while locked.
	if got := inScript(t, "", "answer", id, "--accept", `"allow"`, "--data-dir", dir); !strings.Contains(got, "locked for") {
		t.Fatalf("a fresh terminal while locked:\n%s", got)
	}
	if got := pageGuess(t, link, testPassword); !strings.Contains(got, "locked for") {
		t.Fatalf("the right password on the page while locked:\n%s", got)
	}
	if r := run(t, dir, "pending", "--json"); !strings.Contains(r.stdout, id) {
		t.Fatalf("the approval is no longer pending: %+v", r)
	}
	log, err := os.ReadFile(filepath.Join(dir, datadir.LogDir, datadir.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "wrong passwords locked approving outside the dialog") {
		t.Errorf("the lock is not in the log:\n%s", log)
	}
}

// pageGuess fetches the page at link with curl as a new browser session (no
// cookie) and posts allow with password after the arming delay, returning
// the page the app answers with.
func pageGuess(t *testing.T, link, password string) string {
	t.Helper()
	curl := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("curl", append([]string{"-s"}, args...)...).Output() //nolint:gosec // the test's own arguments
		if err != nil {
			t.Fatalf("curl %v: %v", args, err)
		}
		return string(out)
	}
	page := curl(link)
	m := regexp.MustCompile(`name="t" value="([^"]+)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no form token on the page:\n%s", page)
	}
	time.Sleep(1500 * time.Millisecond) // past the arming delay: the page's own rule, not a wait for a condition
	u, _ := url.Parse(link)
	form := url.Values{"k": {u.Query().Get("k")}, "t": {m[1]}, "action": {"allow"}, "password": {password}}
	return curl("--data", form.Encode(), u.Scheme+"://"+u.Host+u.Path)
}
