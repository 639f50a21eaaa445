package webask

import (
	"encoding/json"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// TestPage_LeadsWithTheHeadline: the page's <h1> and <title> say what the
// question wants, who asks and where, as the dialog's headline does; an
// approval's action is named once (its title, or the headline for an agent
// tool's), never again as a label or a message repeating it; the result page
// keeps the headline.
func TestPage_LeadsWithTheHeadline(t *testing.T) {
	t.Parallel()
	bash := json.RawMessage(`{"command":"make deploy"}`)
	cases := []struct {
		name, h1, action string
		q                question.Question
		want             []string
	}{
		{"agent tool", "claude-code wants to run a shell command in ~/src/shop", "run a shell command",
			question.Question{Kind: question.KindApproval, Origin: question.OriginPermission, Message: "Bash", Action: "Bash", Input: bash, Details: "make deploy", Cwd: "/home/ada/src/shop"},
			[]string{"make deploy"}},
		{"approval repeating its action", "claude-code asks for your approval in /srv/app", "Deploy to production",
			question.Question{Kind: question.KindApproval, Message: "Deploy to production", Action: "Deploy to production", Cwd: "/srv/app"},
			[]string{"<h2>Deploy to production</h2>", "No details given."}},
		{"approval with details", "claude-code asks for your approval", "Force-push main",
			question.Question{Kind: question.KindApproval, Message: "Force-push main", Action: "Force-push main", Details: "git push --force origin main"},
			[]string{"<h2>Force-push main</h2>", "git push --force origin main"}},
		{"text", "claude-code asks", "Name the branch",
			question.Question{Kind: question.KindText, Header: "Branch", Message: "Name the branch", FreeText: true}, []string{"<h2>Branch</h2>"}},
		{"notice", "claude-code says", "Deploy finished.", question.Question{Kind: question.KindNotice, Message: "Deploy finished."}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			id, link := e.ask(c.q)
			r := e.get(link)
			if r.status != http.StatusOK {
				t.Fatalf("status %d", r.status)
			}
			checkHeadline(t, r.body, c.h1)
			for _, w := range c.want {
				if !strings.Contains(r.body, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			if n := strings.Count(visibleText(r.body), c.action); n != 1 {
				t.Errorf("%q is shown %d times, want once:\n%s", c.action, n, visibleText(r.body))
			}
			if strings.Contains(r.body, "Action:") {
				t.Error("the page labels the action again")
			}
			res := e.post(id, with(e.open(link), "action", "decline"), nil)
			if res.status != http.StatusOK {
				t.Fatalf("answer: status %d\n%s", res.status, res.body)
			}
			checkHeadline(t, res.body, c.h1)
		})
	}
}

// checkHeadline fails unless page's only <h1> and its <title> are h1.
func checkHeadline(t *testing.T, page, h1 string) {
	t.Helper()
	if got := regexp.MustCompile(`<h1[^>]*>(.*?)</h1>`).FindAllStringSubmatch(page, -1); len(got) != 1 || html.UnescapeString(got[0][1]) != h1 {
		t.Errorf("h1: %q, want one %q", got, h1)
	}
	if m := regexp.MustCompile(`<title>(.*?)</title>`).FindStringSubmatch(page); m == nil || html.UnescapeString(m[1]) != h1+" · Asktray" {
		t.Errorf("title: %q, want %q", m, h1+" · Asktray")
	}
}

var (
	hiddenElements = regexp.MustCompile(`(?s)<(style|script|title|noscript)[^>]*>.*?</(style|script|title|noscript)>`)
	tags           = regexp.MustCompile(`(?s)<[^>]*>`)
)

// visibleText is the text page shows: no tags, style, script or title.
func visibleText(page string) string {
	return html.UnescapeString(tags.ReplaceAllString(hiddenElements.ReplaceAllString(page, ""), ""))
}

// TestPage_NamesTheSessionAsTheDialogDoes: the client line names the
// session by its project and when it was first seen asking (the broker's
// SessionStart, which the dialog uses too), not by its id, on the question
// page and on the result page.
func TestPage_NamesTheSessionAsTheDialogDoes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := question.Client{Name: "claude-code", Version: "2.1.3", SessionID: "4f2a9c1e-77b0-4d55-9a1c-0c5e7d2f1b3a"}
	firstID, _ := e.ask(question.Question{Kind: question.KindConfirm, Message: "Run the tests?", Client: c})
	first, _, err := e.broker.Get(firstID)
	if err != nil {
		t.Fatal(err)
	}
	id, link := e.ask(question.Question{Kind: question.KindApproval, Message: "Bash", Action: "Bash", Details: "make deploy",
		Input: json.RawMessage(`{"command":"make deploy"}`), Cwd: "/home/ada/src/payments-service", Client: c})
	started := e.broker.SessionStart(c)
	if !started.Equal(first.Created) {
		t.Fatalf("the session started %v, want its first question's %v", started, first.Created)
	}
	want := html.EscapeString(present.SessionLine(c, "/home/ada/src/payments-service", started, time.Local))
	if !strings.Contains(want, "session in payments-service since "+started.Local().Format("15:04")) {
		t.Fatalf("present.SessionLine says %q", want)
	}
	page := e.get(link)
	if !strings.Contains(page.body, want) || strings.Contains(visibleText(page.body), "4f2a9c1e") {
		t.Fatalf("page's client line, want %q:\n%s", want, visibleText(page.body))
	}
	res := e.post(id, with(e.open(link), "action", "decline"), nil)
	if !strings.Contains(res.body, want) {
		t.Fatalf("result page's client line, want %q:\n%s", want, visibleText(res.body))
	}
}
