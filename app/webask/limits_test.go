package webask

import (
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// TestPage_ShowsLimitsUpFront: each form field's limits are on the page
// before anything is submitted, in present.FieldRule's words (the dialog's),
// between the control and its message, and the control names them; after
// a refused submit they stay, with the problem under them.
func TestPage_ShowsLimitsUpFront(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, link := e.ask(question.Question{Kind: question.KindForm, Message: "Who?", Schema: schema(personSchema)})
	page := e.get(link)
	if page.status != http.StatusOK {
		t.Fatalf("status %d", page.status)
	}
	s, err := question.ParseSchema(schema(personSchema))
	must(t, err)
	shown := 0
	for i, f := range s.Fields {
		rule, fid := present.FieldRule(f), fmt.Sprintf("f%d", i)
		line := regexp.MustCompile(`<p class="limit" id="` + fid + `-rule">([^<]*)</p>\n<p class="msg" id="` + fid + `-msg">`).FindStringSubmatch(page.body)
		switch {
		case rule == "" && line != nil:
			t.Errorf("%s: a limit line %q where FieldRule has nothing to say", f.Name, line[1])
		case rule == "":
		case line == nil || html.UnescapeString(line[1]) != rule:
			t.Errorf("%s: limit line %q, want %q before its message", f.Name, line, rule)
		case !strings.Contains(page.body, `aria-describedby="`+fid+`-rule `+fid+`-msg"`):
			t.Errorf("%s: the control does not name its limit", f.Name)
		default:
			shown++
		}
	}
	if shown != 5 { // name, age, ratio, email, targets
		t.Errorf("%d fields show a limit, want 5", shown)
	}
	r := e.post(id, with(e.open(link), "action", "accept", "f0", "Ada", "f1", "200", "f7", "0"), nil)
	if r.status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422", r.status)
	}
	if !strings.Contains(r.body, `<p class="limit" id="f1-rule">Whole number, 0–150</p>`+"\n"+`<p class="msg" id="f1-msg">`) {
		t.Errorf("the age's limit is gone after the refused submit:\n%s", r.body)
	}
}

// TestPage_TextLimitStaysWithTheProblem: a text answer's length rule is
// shown from the start and stays when a too-short answer comes back.
func TestPage_TextLimitStaysWithTheProblem(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	q := question.Question{Kind: question.KindText, Message: "Branch?", FreeText: true, MinLength: 3, MaxLength: 40}
	id, link := e.ask(q)
	limit := `<p class="limit" id="text-rule">` + present.LengthRule(&q) + `</p>`
	if page := e.get(link); !strings.Contains(page.body, limit) || !strings.Contains(page.body, `aria-describedby="text-rule text-msg"`) {
		t.Errorf("page lacks %q:\n%s", limit, page.body)
	}
	r := e.post(id, with(e.open(link), "action", "accept", "text", "ab"), nil)
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, limit) ||
		!regexp.MustCompile(`<p class="msg" id="text-msg">[^<]+</p>`).MatchString(r.body) {
		t.Errorf("status %d; want the limit and the problem:\n%s", r.status, r.body)
	}
}
