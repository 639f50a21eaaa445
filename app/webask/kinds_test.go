package webask

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/question"
)

var suites = []question.Option{
	{Label: "a", Description: "unit tests"},
	{Label: "b", Description: "integration tests"},
	{Label: "c", Description: "end-to-end tests"},
}

const personSchema = `{"type":"object","properties":{
	"name":{"type":"string","title":"Name","minLength":1},
	"age":{"type":"integer","title":"Age","minimum":0,"maximum":150},
	"ratio":{"type":"number","title":"Ratio"},
	"ok":{"type":"boolean","title":"Send the welcome mail"},
	"email":{"type":"string","format":"email","title":"Email"},
	"channel":{"type":"string","title":"Channel","oneOf":[{"const":"stable","title":"Stable"},{"const":"beta","title":"Beta"}],"default":"beta"},
	"region":{"type":"string","title":"Region","enum":["eu-west-1","eu-central-1","us-east-1","us-east-2","us-west-2","ap-south-1"]},
	"targets":{"type":"array","title":"Targets","items":{"anyOf":[{"const":"linux","title":"Linux"},{"const":"mac","title":"macOS"},{"const":"win","title":"Windows"}]},"minItems":1}
},"required":["name","targets"]}`

// TestPost_EveryKind posts each kind's answers and checks what the broker
// recorded, or that a refused answer comes back with its problem next to
// the control, the input kept and the question still pending.
func TestPost_EveryKind(t *testing.T) {
	t.Parallel()
	text := question.Question{Kind: question.KindText, Message: "Name the branch", FreeText: true, MinLength: 3, MaxLength: 12, Placeholder: "feature/…"}
	cases := []struct {
		name    string
		q       question.Question
		form    []string // posted pairs besides k and t
		status  int
		outcome question.Outcome
		value   string
		note    string
		page    []string // in the page shown again (status != 200)
	}{
		{"text", text, []string{"text", "feature/x", "action", "accept"}, 200, question.Answered, `"feature/x"`, "", nil},
		{"text too short", text, []string{"text", "ab", "action", "accept"}, 422, "", "", "",
			[]string{`value="ab"`, "At least 3 characters, 1 more to go", `aria-invalid="true"`}},
		{"text too long", text, []string{"text", "feature/much-too-long", "action", "accept"}, 422, "", "", "", []string{"At most 12 characters, 9 too many"}},
		{"text multiline keeps lines", question.Question{Kind: question.KindText, Message: "Notes?", FreeText: true, Multiline: true},
			[]string{"text", "one\ntwo", "action", "accept"}, 200, question.Answered, `"one\ntwo"`, "", nil},
		{"text suggestions only", question.Question{Kind: question.KindText, Message: "Which remote?", Options: []question.Option{{Label: "origin"}, {Label: "upstream"}}},
			[]string{"pick", "1", "action", "accept"}, 200, question.Answered, `"upstream"`, "", nil},
		{"text suggestions only, none picked", question.Question{Kind: question.KindText, Message: "Which remote?", Options: []question.Option{{Label: "origin"}, {Label: "upstream"}}},
			[]string{"action", "accept"}, 422, "", "", "", []string{"Pick one of the options"}},
		{"text decline", text, []string{"text", "x", "action", "decline"}, 200, question.Declined, "", "", nil},
		{"text cancel", text, []string{"action", "cancel"}, 200, question.Cancelled, "", "", nil},
		{"confirm yes", question.Question{Kind: question.KindConfirm, Message: "Deploy?"}, []string{"action", "yes"}, 200, question.Answered, `"yes"`, "", nil},
		{"confirm no", question.Question{Kind: question.KindConfirm, Message: "Deploy?", Destructive: true}, []string{"action", "no"}, 200, question.Answered, `"no"`, "", nil},
		{"confirm allow is no answer", question.Question{Kind: question.KindConfirm, Message: "Deploy?"}, []string{"action", "allow"}, 422, "", "", "",
			[]string{`&#34;allow&#34; is not an answer to this question`}},
		{"choice with note", question.Question{Kind: question.KindChoice, Message: "Which suite?", Options: suites, FreeText: true},
			[]string{"pick", "1", "note", "only the fast ones", "action", "accept"}, 200, question.Answered, `["b"]`, "only the fast ones", nil},
		{"choice note alone", question.Question{Kind: question.KindChoice, Message: "Which suite?", Options: suites, FreeText: true},
			[]string{"note", "none of these", "action", "accept"}, 200, question.Answered, `[]`, "none of these", nil},
		{"choice nothing picked", question.Question{Kind: question.KindChoice, Message: "Which suite?", Options: suites},
			[]string{"action", "accept"}, 422, "", "", "", []string{"Pick one of the options"}},
		{"choice two picked", question.Question{Kind: question.KindChoice, Message: "Which suite?", Options: suites},
			[]string{"pick", "0", "pick", "1", "action", "accept"}, 422, "", "", "", []string{"Pick one of the options"}},
		{"multi", question.Question{Kind: question.KindMultiChoice, Message: "Which suites?", Options: suites, MinSelect: 1, MaxSelect: 2},
			[]string{"pick", "2", "pick", "0", "action", "accept"}, 200, question.Answered, `["a","c"]`, "", nil},
		{"multi too many", question.Question{Kind: question.KindMultiChoice, Message: "Which suites?", Options: suites, MinSelect: 1, MaxSelect: 2},
			[]string{"pick", "0", "pick", "1", "pick", "2", "action", "accept"}, 422, "", "", "",
			[]string{"Pick at most 2 (3 picked)", `id="o0" name="pick" value="0" checked`, `id="o2" name="pick" value="2" checked`}},
		{"multi unknown option ignored", question.Question{Kind: question.KindMultiChoice, Message: "Which suites?", Options: suites, MinSelect: 1},
			[]string{"pick", "7", "action", "accept"}, 422, "", "", "", []string{"Pick at least 1 (0 picked)"}},
		{"form typed values", question.Question{Kind: question.KindForm, Message: "Who?", Schema: schema(personSchema)},
			[]string{"f0", "Ada", "f1", " 36 ", "f2", "0.25", "f3", "on", "f5", "1", "f6", "2", "f7", "2", "f7", "0", "action", "accept"}, 200, question.Answered,
			`{"name":"Ada","age":36,"ratio":0.25,"ok":true,"channel":"beta","region":"us-east-1","targets":["linux","win"]}`, "", nil},
		{"form errors next to fields", question.Question{Kind: question.KindForm, Message: "Who?", Schema: schema(personSchema)},
			[]string{"f0", "", "f1", "3x", "f4", "ada at example", "action", "accept"}, 422, "", "", "",
			[]string{"Please fix: Name, Age, Email, Targets", `<p class="msg" id="f0-msg">Required</p>`,
				`<p class="msg" id="f1-msg">Enter a whole number, like 42</p>`, `value="3x"`, `value="ada at example"`,
				`<p class="msg" id="f4-msg">Enter an email address, like ada@example.com</p>`, `<p class="msg" id="f7-msg">Pick at least 1</p>`}},
		{"form out of range", question.Question{Kind: question.KindForm, Message: "Who?", Schema: schema(personSchema)},
			[]string{"f0", "Ada", "f1", "200", "f7", "1", "action", "accept"}, 422, "", "", "", []string{"Must be between 0 and 150"}},
		{"form boolean off is false", question.Question{Kind: question.KindForm, Message: "Mail?", Schema: schema(`{"type":"object","properties":{"ok":{"type":"boolean","default":true}}}`)},
			[]string{"action", "accept"}, 200, question.Answered, `{"ok":false}`, "", nil},
		{"form decline", question.Question{Kind: question.KindForm, Message: "Who?", Schema: schema(personSchema)},
			[]string{"action", "decline"}, 200, question.Declined, "", "", nil},
		{"approval allow", question.Question{Kind: question.KindApproval, Message: "Run `npm publish`?", Risk: question.RiskMedium},
			[]string{"action", "allow", "password", testPassword}, 200, question.Answered, `"allow"`, "", nil},
		{"approval allow without password", question.Question{Kind: question.KindApproval, Message: "Run `npm publish`?"},
			[]string{"action", "allow"}, 403, "", "", "", []string{"Your login password is needed", `id="password"`}},
		{"approval allow wrong password", question.Question{Kind: question.KindApproval, Message: "Run `npm publish`?"},
			[]string{"action", "allow", "password", "guess"}, 403, "", "", "", []string{"Wrong password (1 of 3"}},
		{"destructive yes without password", question.Question{Kind: question.KindConfirm, Message: "Drop the table?", Destructive: true},
			[]string{"action", "yes"}, 403, "", "", "", []string{"Your login password is needed"}},
		{"destructive no needs none", question.Question{Kind: question.KindConfirm, Message: "Drop the table?", Destructive: true},
			[]string{"action", "no"}, 200, question.Answered, `"no"`, "", nil},
		{"approval deny with message", question.Question{Kind: question.KindApproval, Message: "Run `git push --force`?", Risk: question.RiskHigh},
			[]string{"action", "decline", "note", "push to a branch instead"}, 200, question.Declined, "", "push to a branch instead", nil},
		{"approval note too long", question.Question{Kind: question.KindApproval, Message: "Run it?"},
			[]string{"action", "decline", "note", strings.Repeat("x", question.MaxNote+1)}, 422, "", "", "", []string{"At most 4096 characters"}},
		{"notice ok", question.Question{Kind: question.KindNotice, Message: "Deploy finished."}, []string{"action", "accept"}, 200, question.Answered, `"ok"`, "", nil},
		{"no button", question.Question{Kind: question.KindNotice, Message: "Deploy finished."}, nil, 422, "", "", "", []string{"No answer button was pressed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			id, link := e.ask(c.q)
			r := e.post(id, with(e.open(link), c.form...), nil)
			if r.status != c.status {
				t.Fatalf("status %d, want %d\n%s", r.status, c.status, r.body)
			}
			if c.status != http.StatusOK {
				e.pending(id)
				for _, want := range c.page {
					if !strings.Contains(r.body, want) {
						t.Errorf("page lacks %q\n%s", want, r.body)
					}
				}
				if !tokenRE.MatchString(r.body) {
					t.Error("page shown again has no fresh form token")
				}
				return
			}
			res := e.result(id)
			if res.Outcome != c.outcome || string(res.Value) != c.value || res.Note != c.note || res.Via != question.ViaWeb || res.DecidedBy != question.ByHuman {
				t.Fatalf("result %+v value %s, want %s %s note %q via web", res, res.Value, c.outcome, c.value, c.note)
			}
			if !strings.Contains(r.body, "You can close this tab") {
				t.Errorf("no result page:\n%s", r.body)
			}
		})
	}
}

// TestPage_MirrorsTheDialog checks the controls each kind's page draws:
// labels, limits, defaults, default buttons and destructive styling.
func TestPage_MirrorsTheDialog(t *testing.T) {
	t.Parallel()
	def, _ := json.Marshal("feat/")
	cases := []struct {
		name string
		q    question.Question
		want []string
		not  []string
	}{
		{"text", question.Question{Kind: question.KindText, Message: "Name the branch", FreeText: true, MinLength: 3, MaxLength: 40, Placeholder: "feature/…", Default: def,
			Options: []question.Option{{Label: "main"}}},
			[]string{`<label for="text">Your answer</label>`, `placeholder="feature/…"`, `value="feat/"`, "3–40 characters", `data-fill="main"`, `data-focus="text"`,
				`value="accept" class="primary" data-default="1" disabled>OK</button>`}, []string{"<textarea"}},
		{"multiline", question.Question{Kind: question.KindText, Message: "Notes?", FreeText: true, Multiline: true, MaxLength: 500},
			[]string{`<textarea id="text" name="text" rows="5"`, "up to 500 characters"}, nil},
		{"confirm destructive", question.Question{Kind: question.KindConfirm, Message: "Delete build/?", Destructive: true, YesLabel: "Delete"},
			[]string{"Destructive: this may not be reversible.", `value="no" class="primary" data-default="1" disabled>No</button>`,
				`value="yes" class="danger" disabled>Delete</button>`, `data-focus=""`}, nil},
		{"confirm that reads destructive", question.Question{Kind: question.KindConfirm, Message: "Overwrite docs/api/openapi.yaml?", YesLabel: "Overwrite"},
			[]string{"This reads as destructive (“Overwrite”), so Enter says no.", `value="no" class="primary" data-default="1" disabled>No</button>`,
				`value="yes" class="danger" disabled>Overwrite</button>`}, nil},
		{"confirm default no", question.Question{Kind: question.KindConfirm, Message: "Deploy?", Default: json.RawMessage(`"no"`)},
			[]string{`value="no" class="primary" data-default="1"`}, []string{"Destructive"}},
		{"confirm plain", question.Question{Kind: question.KindConfirm, Message: "Deploy?"},
			[]string{`value="yes" class="primary" data-default="1"`}, nil},
		{"choice", question.Question{Kind: question.KindChoice, Message: "Which?", Options: suites, FreeText: true, Default: json.RawMessage(`"c"`)},
			[]string{`type="radio" id="o2" name="pick" value="2" checked`, `<span class="desc">integration tests</span>`, `<label for="note">Note (optional)</label>`}, []string{"checkbox"}},
		{"multi", question.Question{Kind: question.KindMultiChoice, Message: "Which?", Options: suites, MinSelect: 1, MaxSelect: 2},
			[]string{`type="checkbox" id="o0" name="pick"`, "Pick 1 to 2"}, []string{`for="note"`}},
		{"form", question.Question{Kind: question.KindForm, Message: "Who?", Schema: schema(personSchema)},
			[]string{`<label for="f0">Name *</label>`, `inputmode="numeric"`, `placeholder="a whole number, 0 to 150"`, `inputmode="decimal"`,
				`type="email"`, `type="radio" id="f5-1" name="f5" value="1" checked`, `<select id="f6" name="f6"`, `<option value="2">us-east-1</option>`,
				`type="checkbox" id="f7-0" name="f7" value="0"`, `>Submit</button>`, `data-focus="f0"`}, nil},
		{"approval high", question.Question{Kind: question.KindApproval, Message: "Run `rm -rf build`?", Risk: question.RiskHigh},
			[]string{"High risk: allow only if you expected this request.", `value="decline" class="primary" data-default="1" disabled>Deny</button>`,
				`value="allow" class="danger" disabled>Allow once</button>`, "Message to the agent (optional)"}, []string{">Decline</button>"}},
		{"approval medium", question.Question{Kind: question.KindApproval, Message: "Run it?", Risk: question.RiskMedium},
			[]string{"Run it?"}, []string{"High risk", "Risk: medium", `class="note"`}},
		{"form with invisible characters", question.Question{Kind: question.KindForm, Message: "Pick",
			Schema: schema(`{"type":"object","description":"intro\u202e","properties":{"a":{"type":"string","title":"name\u200b","description":"d\u2066","enum":["x"],"enumNames":["ok\u202e"]}}}`)},
			[]string{"intro⟨U&#43;202E⟩", "name⟨U&#43;200B⟩", "d⟨U&#43;2066⟩"}, []string{"\u202e", "\u200b", "\u2066"}},
		{"approval low with why", question.Question{Kind: question.KindApproval, Message: "Run it?", Risk: question.RiskLow, RiskWhy: "only reads"},
			[]string{`<p class="note">Low risk: only reads.</p>`}, []string{"High risk"}},
		{"approval with action, details and reason", question.Question{Kind: question.KindApproval, Message: "May I deploy?", Action: "Deploy to production",
			Details: "kubectl apply -f k8s/\n<script>alert(1)</script>", AgentReason: "The fix for #123 is merged."},
			[]string{"<h1>claude-code asks for your approval</h1>", "<h2>Deploy to production</h2>", "<p>kubectl apply -f k8s/</p>\n<p class=\"raw\">&lt;script&gt;alert(1)&lt;/script&gt;</p>",
				`<span class="k">The agent's reason:</span> The fix for #123 is merged.`}, []string{"<script>alert"}},
		{"notice", question.Question{Kind: question.KindNotice, Message: "Deploy finished: <b>v1.4.2</b>"},
			[]string{"claude-code says", "Deploy finished: &lt;b&gt;v1.4.2&lt;/b&gt;", ">OK</button>", ">Decline</button>", ">Cancel</button>"}, []string{"<b>"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			_, link := e.ask(c.q)
			r := e.get(link)
			if r.status != http.StatusOK {
				t.Fatalf("status %d", r.status)
			}
			for _, w := range append(c.want, `name="viewport"`, `data-arm-ms="500"`, "claude-code 2.1.0") {
				if !strings.Contains(r.body, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(r.body, n) {
					t.Errorf("page has %q", n)
				}
			}
			if t.Failed() {
				t.Log(r.body)
			}
		})
	}
}
