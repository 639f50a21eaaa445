package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// TestCLI_RulesAndAway drives 'asktray rules' and 'asktray away' against a
// real app whose policy.json already holds two rules, and checks that the
// rules decide seeded questions while others wait for an answer.
func TestCLI_RulesAndAway(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	pre := `{"away": false, "rules": [
	  {"id": "allowbash", "client": "claude-code", "action": "permission_prompt:Bash", "decision": "allow", "scope": "always", "created": "2026-12-01T10:00:00Z", "note": "tests are fine"},
	  {"id": "denydeploy", "client": "*", "action": "request_approval:Deploy*", "decision": "deny", "scope": "always", "created": "2026-12-01T10:00:00Z", "note": "no deploys from agents"}]}`
	if err := os.WriteFile(filepath.Join(dir, policy.File), []byte(pre), 0o600); err != nil {
		t.Fatal(err)
	}
	cc := question.Client{Name: "claude-code", SessionID: "s1"}
	approval := func(tool, action string) question.Question {
		return question.Question{Kind: question.KindApproval, Client: cc, Message: action, Tool: tool, Action: action, Risk: question.RiskMedium}
	}
	p := startApp(t, dir, approval("permission_prompt", "Bash"), approval("request_approval", "Deploy to production"),
		approval("permission_prompt", "Edit"), approval("permission_prompt", "Write"))
	ids := p.askedIDs(t, 4)

	// The rule-decided ones ended at once (their "result" lines went by
	// among the "asked" ones); the history says how.
	var items []struct {
		Question question.Question `json:"question"`
		Result   *question.Result  `json:"result"`
	}
	hist := run(t, dir, "history", "--json")
	if err := json.Unmarshal([]byte(hist.stdout), &items); err != nil {
		t.Fatalf("history --json: %v %+v", err, hist)
	}
	results := map[string]question.Result{}
	for _, it := range items {
		if it.Result != nil {
			results[it.Question.ID] = *it.Result
		}
	}
	if r := results[ids[0]]; r.Outcome != question.AutoApproved || r.RuleID != "allowbash" || r.Via != question.ViaRule {
		t.Errorf("Bash: %+v, want auto_approved by allowbash", r)
	}
	if r := results[ids[1]]; r.Outcome != question.AutoRejected || r.RuleID != "denydeploy" || r.Note != "no deploys from agents" {
		t.Errorf("Deploy: %+v, want auto_rejected by denydeploy", r)
	}
	r := run(t, dir, "pending", "--json")
	if !strings.Contains(r.stdout, ids[2]) || !strings.Contains(r.stdout, ids[3]) || strings.Contains(r.stdout, ids[0]) {
		t.Fatalf("pending after the rules decided: %s", r.stdout)
	}

	// An approval is allowed once with --accept '"allow"' typed on a
	// terminal, and denied with --decline from anywhere.
	approveOnPTY(t, dir, ids[2], `"allow"`)
	if r = run(t, dir, "answer", ids[3], "--decline", "--note", "not that file"); r.code != 0 || !strings.Contains(r.stdout, "declined") {
		t.Fatalf("deny: %+v", r)
	}
	for range 2 {
		id, js, _ := strings.Cut(p.next(t, "result "), " ")
		var res question.Result
		_ = json.Unmarshal([]byte(js), &res)
		if (id == ids[2] && (res.Outcome != question.Answered || string(res.Value) != `"allow"`)) ||
			(id == ids[3] && (res.Outcome != question.Declined || res.Note != "not that file")) {
			t.Errorf("%s: %s", id, js)
		}
	}

	// rules lists both, in both formats.
	r = run(t, dir, "rules")
	// The rule made before rules matched content is flagged for what it covers.
	for _, want := range []string{"ID", "DECISION", "MATCHES", "allowbash", "denydeploy", "permission_prompt:Bash", "request_approval:Deploy*", "never", "no deploys from agents",
		"⚠ every Bash command"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("rules output lacks %q:\n%s", want, r.stdout)
		}
	}
	r = run(t, dir, "rules", "--json")
	var rs []policy.Rule
	if err := json.Unmarshal([]byte(r.stdout), &rs); err != nil || len(rs) != 2 || rs[0].ID != "allowbash" || rs[1].Decision != policy.Deny {
		t.Fatalf("rules --json: %v %+v", err, r)
	}

	// rules rm removes one, for good; a second rm is an error; a missing id is usage.
	if r = run(t, dir, "rules", "rm", "allowbash"); r.code != 0 || !strings.Contains(r.stdout, "Removed rule allowbash") {
		t.Fatalf("rules rm: %+v", r)
	}
	if r = run(t, dir, "rules", "rm", "allowbash"); r.code != ExitError || !strings.Contains(r.stderr, `no rule with id "allowbash"`) {
		t.Fatalf("rules rm twice: %+v", r)
	}
	if r = run(t, dir, "rules", "rm"); r.code != ExitUsage {
		t.Fatalf("rules rm without id: %+v", r)
	}
	b, _ := os.ReadFile(filepath.Join(dir, policy.File))
	if strings.Contains(string(b), "allowbash") || !strings.Contains(string(b), "denydeploy") {
		t.Fatalf("policy.json after rm:\n%s", b)
	}

	// away on|off|status, kept in policy.json.
	if r = run(t, dir, "away", "status"); r.code != 0 || !strings.Contains(r.stdout, "Away: off") {
		t.Fatalf("away status: %+v", r)
	}
	if r = run(t, dir, "away", "on"); r.code != 0 || !strings.Contains(r.stdout, "Away: on. New questions wait silently") {
		t.Fatalf("away on: %+v", r)
	}
	b, _ = os.ReadFile(filepath.Join(dir, policy.File))
	if !strings.Contains(string(b), `"away": true`) {
		t.Fatalf("policy.json after away on:\n%s", b)
	}
	if r = run(t, dir, "away", "status"); !strings.Contains(r.stdout, "Away: on") {
		t.Fatalf("away status while away: %+v", r)
	}
	if r = run(t, dir, "away", "off"); r.code != 0 || !strings.Contains(r.stdout, "Away: off") {
		t.Fatalf("away off: %+v", r)
	}
	if r = run(t, dir, "away", "maybe"); r.code != ExitUsage {
		t.Fatalf("away maybe: %+v", r)
	}
}

func TestCLI_AwayWithoutApp(t *testing.T) {
	t.Parallel()
	if r := run(t, shortTempDir(t), "away", "status"); r.code != ExitNoApp {
		t.Fatalf("away with no app: %+v", r)
	}
	if r := run(t, shortTempDir(t), "rules"); r.code != ExitNoApp {
		t.Fatalf("rules with no app: %+v", r)
	}
}

// TestDescribeAway names what each away mode does with new questions.
func TestDescribeAway(t *testing.T) {
	t.Parallel()
	for mode, want := range map[policy.AwayMode]string{
		policy.AwayHold:     "wait silently",
		policy.AwayReject:   "rejected automatically",
		policy.AwayHandback: "go back to the agent, to ask you in its own chat (needs_user_input); approvals and destructive confirmations wait",
	} {
		if got := describeAway(control.AwayStatus{Away: true, Mode: mode}); !strings.Contains(got, want) {
			t.Errorf("%s: %q lacks %q", mode, got, want)
		}
	}
	until := time.Date(2026, 12, 11, 18, 30, 0, 0, time.Local)
	got := describeAway(control.AwayStatus{Away: true, Until: until, Schedule: "Mon–Fri 18:00–24:00"})
	if !strings.HasSuffix(got, " Until Fri 18:30. Every week (Settings › Away every week): Mon–Fri 18:00–24:00.") {
		t.Errorf("away until and a schedule: %q", got)
	}
}

// TestWriteRules_Host: 'asktray rules' names a rule's host under HOST (issue
// 36: rules can be scoped to a host), "any" for a rule of every host, and
// MATCHES leaves the host out, so a long pattern cannot cut it off.
func TestWriteRules_Host(t *testing.T) {
	now := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	rs := []policy.Rule{
		{ID: "onbuild", Client: "*", Action: "*:Bash", Decision: policy.Allow, Scope: policy.ScopeAlways, Match: policy.MatchPrefix,
			Pattern: "npm " + strings.Repeat("x", 70), Host: "build-01"},
		{ID: "anyhost", Client: "codex", Action: "*:Edit", Decision: policy.Deny, Scope: policy.ScopeAlways},
	}
	var b strings.Builder
	if err := writeRules(&b, rs, now); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "HOST") {
		t.Fatalf("table:\n%s", b.String())
	}
	head := strings.Fields(lines[0])
	for i, want := range map[int]string{1: "build-01", 2: "any"} {
		f := strings.Fields(lines[i])
		if !strings.HasPrefix(lines[i], rs[i-1].ID) || !slices.Contains(f, want) {
			t.Errorf("row %d lacks host %q:\n%s", i, want, lines[i])
		}
	}
	if strings.Contains(lines[1], "on build-01") {
		t.Errorf("MATCHES repeats the host:\n%s", lines[1])
	}
	col := strings.Index(lines[0], "HOST") // the header is ASCII: bytes are runes
	for i, want := range []string{"build-01", "any"} {
		if row := []rune(lines[i+1]); len(row) < col || !strings.HasPrefix(string(row[col:]), want) {
			t.Errorf("HOST column (%v) misaligned:\n%s", head, b.String())
		}
	}
}
