package webask

import (
	"html"
	"net/http"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// TestPage_NoAllowForWhatCannotBeSeen (issue 33 item 8): the page of an
// approval whose details leave part of what it runs out (Cut) offers Deny
// alone and says why, and a posted allow is refused with the reason even
// with the right password; the question stays pending and a deny is taken.
// On f02af39 the page offered Allow once and took the allow.
func TestPage_NoAllowForWhatCannotBeSeen(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, link := e.ask(question.Question{Kind: question.KindApproval, Message: "Bash", Action: "Bash",
		Details: "```sh\necho start; xxxx\n… (129 more characters not shown)\n```", Cut: true})
	page := e.get(link)
	if strings.Contains(page.body, `value="allow"`) || !strings.Contains(html.UnescapeString(page.body), present.UnseenReason) {
		t.Fatalf("the page offers an allow or does not say why not:\n%s", page.body)
	}
	r := e.post(id, with(e.open(link), "action", "allow", "password", testPassword), nil)
	if r.status != http.StatusForbidden || !strings.Contains(html.UnescapeString(r.body), present.UnseenReason) {
		t.Fatalf("allow of what cannot be seen: %d\n%s", r.status, r.body)
	}
	e.pending(id)
	if r := e.post(id, with(e.open(link), "action", "decline"), nil); r.status != http.StatusOK || e.result(id).Outcome != question.Declined {
		t.Fatalf("deny: %d\n%s", r.status, r.body)
	}
}
