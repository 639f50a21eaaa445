//go:build linux

package webask

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

// TestPage_RefusesAnotherUser: another local user who has a question's
// link (it used to be on xdg-open's command line, readable by everyone)
// gets 403 from the page, found by the uid that owns its loopback socket;
// the same curl run as the app's own user gets the page.
func TestPage_RefusesAnotherUser(t *testing.T) {
	testkit.NeedRoot(t, "to run curl as a second user")
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("curl is missing; make deps installs it")
	}
	e := newEnv(t)
	_, link := e.ask(question.Question{Kind: question.KindApproval, Message: "Run `make deploy`?"})
	curl := func(cred *testkit.User) string {
		cmd := exec.Command("curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", link)
		if cred != nil {
			cmd.SysProcAttr = cred.Credential()
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("curl: %v", err)
		}
		return strings.TrimSpace(string(out))
	}
	if got := curl(nil); got != "200" {
		t.Fatalf("the app's own user got %s", got)
	}
	other := testkit.NewUser(t, "")
	if got := curl(&other); got != "403" {
		t.Fatalf("another user (uid %d) got %s, want 403", other.UID, got)
	}
	if !strings.Contains(e.logText(), "question page refused: another user") {
		t.Errorf("the refusal is not logged:\n%s", e.logText())
	}
}
