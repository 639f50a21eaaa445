package policy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/question"
)

// toolAsk is a hook approval of agent tool with input, run in cwd.
func toolAsk(tool, input, cwd string, risk question.Risk) question.Question {
	return question.Question{Kind: question.KindApproval, Client: question.Client{Name: "claude-code", SessionID: "s1"},
		Message: tool, Tool: "permission_request", Origin: question.OriginPermission, Action: tool, Input: json.RawMessage(input), Cwd: cwd, Risk: risk}
}

func bash(cmd string) question.Question {
	in, _ := json.Marshal(map[string]string{"command": cmd})
	return toolAsk("Bash", string(in), "/home/u/app", question.RiskMedium)
}

func contentRule(id string, d Decision, m MatchKind, pattern string) Rule {
	r := rule(id, "claude-code", "permission_request:Bash", d)
	r.Match, r.Pattern = m, pattern
	return r
}

func decide(rules []Rule, q question.Question) string {
	p := &Policy{rules: rules}
	r, ok := p.Match(q, t0)
	if !ok {
		return ""
	}
	return r.ID
}

func TestShellRules(t *testing.T) {
	t.Parallel()
	npm := contentRule("npm", Allow, MatchPrefix, "npm test")
	ls := contentRule("ls", Allow, MatchPrefix, "ls")
	exact := contentRule("exact", Allow, MatchCommand, "npm test && rm -rf build")
	rm := contentRule("rm", Deny, MatchPrefix, "rm")
	whole := rule("whole", "claude-code", "permission_request:Bash", Allow)
	cd := contentRule("cd", Allow, MatchPrefix, "cd")
	cases := []struct {
		name  string
		rules []Rule
		cmd   string
		want  string
	}{
		{"prefix", []Rule{npm}, "npm test", "npm"},
		{"prefix_args", []Rule{npm}, "npm test -- --watch", "npm"},
		{"prefix_word_boundary", []Rule{npm}, "npm testing", ""},
		{"prefix_and", []Rule{npm}, "npm test && rm -rf ~", ""},
		{"prefix_or", []Rule{npm}, "npm test || rm -rf ~", ""},
		{"prefix_semicolon", []Rule{npm}, "npm test; rm -rf ~", ""},
		{"prefix_pipe", []Rule{npm}, "npm test | sh", ""},
		{"prefix_newline", []Rule{npm}, "npm test\nrm -rf ~", ""},
		{"prefix_subst", []Rule{npm}, "npm test $(rm -rf ~)", ""},
		{"prefix_backticks", []Rule{npm}, "npm test `rm -rf ~`", ""},
		{"prefix_subshell", []Rule{npm}, "(npm test; rm -rf ~)", ""},
		{"prefix_bash_c", []Rule{npm}, "bash -c 'npm test && rm -rf ~'", ""},
		{"prefix_sh_c", []Rule{npm}, "sh -c 'npm test; rm -rf ~'", ""},
		{"prefix_bash_c_alone", []Rule{npm}, "bash -c 'npm test'", "npm"},
		{"prefix_redirect_inside", []Rule{npm}, "npm test > out.log 2>&1", "npm"},
		{"prefix_redirect_outside", []Rule{npm}, "npm test > ~/.bashrc", ""},
		{"prefix_redirect_abs_outside", []Rule{npm}, "npm test > /etc/profile", ""},
		{"prefix_env_assign", []Rule{npm}, "PATH=/tmp/x npm test", ""},
		{"prefix_carriage_return", []Rule{npm}, "npm test \\\r\nrm -rf ~", ""},
		{"prefix_every_part", []Rule{npm, ls}, "ls && npm test", "ls"},
		{"prefix_deny_part", []Rule{npm, ls, rm}, "ls && rm x", "rm"},
		{"prefix_deny_beats_whole_allow", []Rule{whole, rm}, "ls; rm -rf x", "rm"},
		{"whole_tool_still_works", []Rule{whole}, "anything && at all", "whole"},
		{"exact", []Rule{exact}, "npm test && rm -rf build", "exact"},
		{"exact_spaces", []Rule{exact}, "  npm test && rm -rf build\n", "exact"},
		{"exact_other", []Rule{exact}, "npm test && rm -rf ~", ""},
		{"exact_beats_prefix_deny", []Rule{exact, rm}, "npm test && rm -rf build", "exact"},
		{"unparsable", []Rule{npm}, "npm test ((", ""},
		{"cd_then_relative_redirect", []Rule{cd, npm}, "cd / && npm test > etc/profile", ""},
		{"cd_then_no_redirect", []Rule{cd, npm}, "cd sub && npm test", "cd"},
	}
	for _, c := range cases {
		if got := decide(c.rules, bash(c.cmd)); got != c.want {
			t.Errorf("%s: %q decided by %q, want %q", c.name, c.cmd, got, c.want)
		}
	}
}

// TestCoverIsAsWeakAsItsWeakestPart: a deny for every Bash command of
// claude-code beats an allow for any client's ls, so "npm test && ls" is
// denied even though the npm test rule alone would beat the deny.
func TestCoverIsAsWeakAsItsWeakestPart(t *testing.T) {
	t.Parallel()
	deny := rule("deny", "claude-code", "permission_request:Bash", Deny)
	npm := contentRule("npm", Allow, MatchPrefix, "npm test")
	ls := contentRule("ls", Allow, MatchPrefix, "ls")
	ls.Client = "*"
	if got := decide([]Rule{deny, npm, ls}, bash("npm test")); got != "npm" {
		t.Fatalf("npm test: %q", got)
	}
	if got := decide([]Rule{deny, npm, ls}, bash("npm test && ls")); got != "deny" {
		t.Fatalf("npm test && ls: %q, want deny", got)
	}
}

func TestHighRiskNeedsAnExactTickedRule(t *testing.T) {
	t.Parallel()
	q := bash("rm -rf build")
	q.Risk = question.RiskHigh
	prefix := contentRule("prefix", Allow, MatchPrefix, "rm")
	prefix.HighRisk = true // refused by Add; a hand-edited file must still not allow
	exactNoTick := contentRule("exact", Allow, MatchCommand, "rm -rf build")
	exactTick := exactNoTick
	exactTick.ID, exactTick.HighRisk = "ticked", true
	whole := rule("whole", "claude-code", "permission_request:Bash", Allow)
	whole.HighRisk = true
	cases := []struct {
		rules []Rule
		want  string
	}{
		{[]Rule{prefix}, ""}, {[]Rule{exactNoTick}, ""}, {[]Rule{whole}, ""}, {[]Rule{exactTick}, "ticked"},
		{[]Rule{exactTick, contentRule("d", Deny, MatchPrefix, "rm")}, "ticked"},
	}
	for i, c := range cases {
		if got := decide(c.rules, q); got != c.want {
			t.Errorf("case %d: %q, want %q", i, got, c.want)
		}
	}
}

func TestFileAndOtherRules(t *testing.T) {
	t.Parallel()
	edit := func(p string) question.Question {
		return toolAsk("Edit", `{"file_path":"`+p+`","old_string":"a","new_string":"b"}`, "/home/u/app", question.RiskMedium)
	}
	src := rule("src", "claude-code", "permission_request:Edit", Allow)
	src.Match, src.Pattern = MatchPath, "/home/u/app/src/*"
	one := rule("one", "claude-code", "permission_request:Edit", Allow)
	one.Match, one.Pattern = MatchPath, "/home/u/app/README.md"
	mcp := rule("mcp", "claude-code", "permission_request:mcp__db__query", Allow)
	mcp.Match, mcp.Pattern = MatchInput, `{"limit":10,"sql":"select 1"}`
	read := rule("read", "claude-code", "permission_request:Read", Allow)
	cases := []struct {
		name string
		q    question.Question
		want string
	}{
		{"glob", edit("/home/u/app/src/a/b.go"), "src"},
		{"glob_relative", edit("src/main.go"), "src"},
		{"glob_escape", edit("/home/u/app/src/../../.ssh/config"), ""},
		{"glob_outside", edit("/home/u/app/srcx/a.go"), ""},
		{"exact_path", edit("/home/u/app/README.md"), "one"},
		{"exact_path_other", edit("/home/u/app/README.md.bak"), ""},
		{"input_same", toolAsk("mcp__db__query", `{ "sql": "select 1", "limit": 10 }`, "", question.RiskMedium), "mcp"},
		{"input_other", toolAsk("mcp__db__query", `{"sql":"select 1; drop table x","limit":10}`, "", question.RiskMedium), ""},
		{"read_only_whole_tool", toolAsk("Read", `{"file_path":"/x"}`, "", question.RiskLow), "read"},
	}
	for _, c := range cases {
		if got := decide([]Rule{src, one, mcp, read}, c.q); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestCwdScope(t *testing.T) {
	t.Parallel()
	r := contentRule("r", Allow, MatchCommand, "npm test")
	r.Cwd = "/home/u/app"
	for cwd, want := range map[string]string{"/home/u/app": "r", "/home/u/app/sub": "r", "/home/u/app/": "r",
		"/home/u/application": "", "/home/u": "", "": ""} {
		q := bash("npm test")
		q.Cwd = cwd
		if got := decide([]Rule{r}, q); got != want {
			t.Errorf("cwd %q: %q, want %q", cwd, got, want)
		}
	}
}

func TestSuggestRuleIsNarrowest(t *testing.T) {
	t.Parallel()
	r := SuggestRule(bash(" npm test "), Allow)
	if r.Match != MatchCommand || r.Pattern != "npm test" || r.Cwd != "/home/u/app" || r.Scope != ScopeSession || r.SessionID != "s1" {
		t.Fatalf("Bash: %+v", r)
	}
	r = SuggestRule(toolAsk("Write", `{"file_path":"/home/u/app/a*.txt","content":"x"}`, "/home/u/app", ""), Allow)
	if r.Match != MatchPath || r.Pattern != `/home/u/app/a\*.txt` {
		t.Fatalf("Write: %+v", r)
	}
	r = SuggestRule(toolAsk("mcp__x__y", `{"b":1,"a":"z"}`, "", ""), Deny)
	if r.Match != MatchInput || r.Pattern != `{"a":"z","b":1}` || r.Cwd != "" {
		t.Fatalf("other: %+v", r)
	}
	p, _ := openTemp(t)
	for _, q := range []question.Question{bash("npm test"), toolAsk("Write", `{"file_path":"/home/u/app/a*.txt","content":"x"}`, "/home/u/app", "")} {
		sr := SuggestRule(q, Allow)
		added, err := p.Add(sr)
		if err != nil {
			t.Fatalf("Add(%+v): %v", sr, err)
		}
		if got, ok := p.Match(q, t0); !ok || got.ID != added.ID {
			t.Fatalf("the suggestion does not decide its own question: %+v", got)
		}
	}
}

func TestContentValidation(t *testing.T) {
	t.Parallel()
	p, _ := openTemp(t)
	cases := []struct {
		m       MatchKind
		pattern string
		high    bool
		want    string
	}{
		{"regex", "x", false, `match: "regex" is not one of`},
		{MatchCommand, " ", false, "pattern: the command must not be empty"},
		{MatchPrefix, "npm test && rm", false, "pattern: a command prefix must be one simple command"},
		{MatchPrefix, "npm $X", false, "would expand"},
		{MatchPath, "src/*", false, "pattern: a path must be absolute"},
		{MatchPath, "*.go", false, "must start with a directory"},
		{MatchPath, "/home/u/../x", false, "absolute and clean"},
		{MatchPrefix, "npm test", true, "match: a high-risk rule matches one exact prefix, not a pattern"},
		{MatchPath, "/a/*", true, "a high-risk rule matches one exact path"},
		{MatchTool, "x", false, "pattern: a rule without match kind has no pattern"},
	}
	for _, c := range cases {
		r := Rule{Client: "claude-code", Action: "permission_request:Bash", Decision: Allow, Scope: ScopeAlways, Match: c.m, Pattern: c.pattern, HighRisk: c.high}
		if _, err := p.Add(r); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: %v, want %q", c.m, c.pattern, err, c.want)
		}
	}
	r := Rule{Client: "*", Action: "*", Decision: Allow, Scope: ScopeAlways, Cwd: "/home/u/app/"}
	if _, err := p.Add(r); err == nil || !strings.Contains(err.Error(), "cwd: must be a clean directory path") {
		t.Errorf("cwd: %v", err)
	}
}

// TestMigration: a policy.json written before rules matched content loads,
// its rules decide as before, and the whole-tool ones are flagged.
func TestMigration(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), File)
	old := `{"away":false,"rules":[
{"id":"bash","client":"claude-code","action":"permission_prompt:Bash","decision":"allow","scope":"always","created":"2026-12-02T10:00:00Z"},
{"id":"deploy","client":"*","action":"request_approval:Deploy*","decision":"deny","scope":"always","created":"2026-12-02T10:05:00Z"},
{"id":"read","client":"*","action":"permission_prompt:Read","decision":"allow","scope":"always","created":"2026-12-02T10:05:00Z"},
{"id":"edit","client":"*","action":"permission_request:Edit","decision":"allow","scope":"always","created":"2026-12-02T10:05:00Z"},
{"id":"title","client":"*","action":"request_approval:Run the tests","decision":"allow","scope":"always","created":"2026-12-02T10:05:00Z"},
{"id":"any","client":"*","action":"*","decision":"deny","scope":"always","created":"2026-12-02T10:05:00Z"}]}`
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	q := bash("curl x | sh")
	q.Tool = "permission_prompt"
	if r, ok := p.Match(q, t0); !ok || r.ID != "bash" {
		t.Fatalf("the old whole-tool rule no longer decides: %+v %v", r, ok)
	}
	want := map[string]string{
		"bash": "matches every Bash command", "deploy": "matches every approval request titled Deploy*, whatever its details",
		"read": "", "edit": "matches every Edit of any file", "title": "matches every “Run the tests” request, whatever its details",
		"any": "matches every request of every tool",
	}
	for _, r := range p.Rules() {
		if got := r.Wide(); got != want[r.ID] {
			t.Errorf("%s: Wide() = %q, want %q", r.ID, got, want[r.ID])
		}
	}
	if w := contentRule("c", Allow, MatchPrefix, "npm test").Wide(); w != "" {
		t.Errorf("a prefix rule is flagged: %q", w)
	}
}

func TestMatchText(t *testing.T) {
	t.Parallel()
	scoped := contentRule("a", Allow, MatchPrefix, "npm test")
	scoped.Cwd = "/home/u/app"
	details := rule("d", "*", "request_approval:Deploy", Allow)
	details.Match, details.Pattern = MatchInput, "to staging"
	for _, c := range []struct {
		r    Rule
		want string
	}{
		{scoped, "commands starting `npm test` in /home/u/app"},
		{contentRule("b", Allow, MatchCommand, "ls -la"), "command `ls -la`"},
		{rule("c", "*", "permission_prompt:Bash", Allow), "⚠ every Bash command"},
		{rule("c", "*", "ask_confirm", Allow), "every request"},
		{details, "these details exactly"},
	} {
		if got := c.r.MatchText(); got != c.want {
			t.Errorf("%s: %q, want %q", c.r.ID, got, c.want)
		}
	}
}

func TestCounterexample(t *testing.T) {
	t.Parallel()
	r := contentRule("a", Allow, MatchCommand, "npm test")
	if got := r.Counterexample(); got != "Not `npm test --other-flag`, nor `npm test && rm -rf ~`." {
		t.Fatalf("%q", got)
	}
	// Each counterexample is really not matched by its rule.
	for _, cmd := range []string{"npm test --other-flag", "npm test && rm -rf ~"} {
		if decide([]Rule{r}, bash(cmd)) != "" {
			t.Errorf("%q is matched", cmd)
		}
	}
	p := contentRule("p", Allow, MatchPrefix, "npm test")
	for _, cmd := range []string{"npm testx", "npm test && rm -rf ~", "npm test > ~/.bashrc"} {
		if decide([]Rule{p}, bash(cmd)) != "" {
			t.Errorf("prefix: %q is matched", cmd)
		}
	}
	if rule("w", "*", "permission_prompt:Bash", Allow).Counterexample() != "" {
		t.Error("a whole-tool rule has a counterexample")
	}
}

// TestSubjectOfReadsTheOrigin: what content rules see of a question
// follows its origin, not the name of the tool that asked: a permission's
// input whatever its tool, a request_approval's details, nothing of an
// agent's own question nor of a question without an origin.
func TestSubjectOfReadsTheOrigin(t *testing.T) {
	t.Parallel()
	perm := bash("npm test")
	perm.Tool = "some_door"
	if s := SubjectOf(perm); !s.HasCmd || s.Command != "npm test" || s.Tool != "Bash" {
		t.Errorf("a permission by another tool: %+v", s)
	}
	appr := question.Question{Kind: question.KindApproval, Tool: "request_approval", Origin: question.OriginApproval, Action: "Deploy", Details: "prod"}
	if s := SubjectOf(appr); !s.HasIn || s.Input != "prod" {
		t.Errorf("a request_approval: %+v", s)
	}
	for _, o := range []question.Origin{"", question.OriginAgentQuestion, question.OriginAsk} {
		q := bash("npm test")
		q.Origin = o
		if s := SubjectOf(q); s.HasCmd || s.HasIn || s.Tool != "" {
			t.Errorf("origin %q named by its tool permission_request: %+v", o, s)
		}
	}
}
