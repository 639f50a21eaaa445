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

	"github.com/asktray/asktray/app/question"
)

// TestAgent_OwnPTYAndCurlCannotAllow walks routes 1 and 2 as an agent's
// shell would, against the real binary: inside script(1), a pseudo-terminal
// of its own, 'asktray pending' gives it the question's page link; curl
// fetches the page and, after the arming delay, POSTs allow, with no
// password and then with a guess; 'asktray answer ID --accept' inside
// script(1) types a guess at the armed prompt. Every one is refused and the
// approval stays pending; the person's terminal with the login password
// then allows it.
func TestAgent_OwnPTYAndCurlCannotAllow(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("curl is missing; make deps installs it")
	}
	dir := shortTempDir(t)
	p := startApp(t, dir, question.Question{Kind: question.KindApproval, Client: question.Client{Name: "claude-code", SessionID: "s1"},
		Tool: "request_approval", Origin: question.OriginApproval, Action: "Deploy to production", Message: "Deploy to production", Risk: question.RiskHigh})
	id := p.askedIDs(t, 1)[0]
	pending := func(how string) {
		t.Helper()
		if r := run(t, dir, "pending", "--json"); !strings.Contains(r.stdout, id) {
			t.Fatalf("after %s the approval is no longer pending: %+v", how, r)
		}
	}

	shown := inScript(t, "", "pending", "--data-dir", dir)
	link := regexp.MustCompile(`http://127\.0\.0\.1:\d+/q/` + regexp.QuoteMeta(id) + `\?k=[A-Za-z0-9_-]+`).FindString(shown)
	if link == "" {
		t.Fatalf("asktray pending in script(1) showed no link (the route needs one):\n%s", shown)
	}
	jar := filepath.Join(t.TempDir(), "cookies")
	curl := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("curl", append([]string{"-s", "-b", jar, "-c", jar}, args...)...) //nolint:gosec // the test's own arguments
		cmd.Env = os.Environ()
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("curl %v: %v", args, err)
		}
		return string(out)
	}
	for _, pw := range []string{"", "guess"} {
		page := curl(link)
		m := regexp.MustCompile(`name="t" value="([^"]+)"`).FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("no form token on the page:\n%s", page)
		}
		time.Sleep(1500 * time.Millisecond) // past the arming delay
		u, _ := url.Parse(link)
		form := url.Values{"k": {u.Query().Get("k")}, "t": {m[1]}, "action": {"allow"}}
		if pw != "" {
			form.Set("password", pw)
		}
		got := curl("--data", form.Encode(), u.Scheme+"://"+u.Host+u.Path)
		if want := map[string]string{"": "login password is needed", "guess": "Wrong password"}[pw]; !strings.Contains(got, want) {
			t.Fatalf("curl POST allow with password %q: the page does not say %q:\n%s", pw, want, got)
		}
		pending("curl POST allow with password " + pw)
	}

	if got := inScript(t, "make deploy\r", "answer", id, "--accept", `"allow"`, "--data-dir", dir); !strings.Contains(got, "refused: wrong password") {
		t.Fatalf("answer --accept allow in script(1) with a guess:\n%s", got)
	}
	pending("answer in script(1) with a guess")

	approveOnPTY(t, dir, id, `"allow"`)
	if res := p.next(t, "result "+id); !strings.Contains(res, `"outcome":"answered"`) || !strings.Contains(res, `"via":"terminal"`) {
		t.Fatalf("the person's allow: %s", res)
	}
}
