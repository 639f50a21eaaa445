package mcpbridge

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// policyEnv is an env whose broker consults a policy, as the app wires it;
// asked counts EventAsked, i.e. questions the UI would have shown.
type policyEnv struct {
	*env
	pol   *policy.Policy
	asked *atomic.Int32
}

// at makes p's clients negotiate rev.
func (p policyEnv) at(rev string) policyEnv { p.env.at(rev); return p }

func newPolicyEnv(t *testing.T, cfg Config) policyEnv {
	t.Helper()
	pol, err := policy.Open(filepath.Join(t.TempDir(), policy.File))
	if err != nil {
		t.Fatal(err)
	}
	store := historytest.New(t)
	b := question.NewBroker(question.Config{Journal: store, Gate: pol.Gate})
	var asked atomic.Int32
	b.Subscribe(func(ev question.Event) {
		if ev.Type == question.EventAsked {
			asked.Add(1)
		}
	})
	cfg.Broker, cfg.Version = b, "test"
	br := New(cfg)
	mux := http.NewServeMux()
	mux.Handle("/mcp", br.HTTPHandler(HTTPOptions{Token: testToken}))
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		_ = b.Close()
	})
	return policyEnv{env: &env{url: srv.URL + "/mcp", broker: b, store: store, bridge: br}, pol: pol, asked: &asked}
}

func addRule(t *testing.T, pol *policy.Policy, r policy.Rule) policy.Rule {
	t.Helper()
	if r.Scope == "" {
		r.Scope = policy.ScopeAlways
	}
	r, err := pol.Add(r)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func wantFields(t *testing.T, what string, got map[string]any, want map[string]any) {
	t.Helper()
	for k, v := range want {
		if v == nil {
			if _, ok := got[k]; ok {
				t.Errorf("%s: %s = %v, want it absent", what, k, got[k])
			}
			continue
		}
		if g := string(mustJSON(got[k])); g != string(mustJSON(v)) {
			t.Errorf("%s: %s = %s, want %s (result %s)", what, k, g, mustJSON(v), mustJSON(got))
		}
	}
}

var deployArgs = map[string]any{
	"action":  "Deploy shop to staging",
	"details": "```sh\nkubectl -n staging rollout restart deploy/shop\n```",
	"risk":    "medium",
	"reason":  "The fix for the cart race is merged and needs a smoke test.",
}

func TestApprovalAllowedOnce(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newPolicyEnv(t, Config{}).at(rev)
		s := e.connect(t, "claude-code", nil)
		asked := e.person(t, accept(`"allow"`))
		got, text, isErr := call(t, context.Background(), s, ToolApproval, deployArgs)
		if isErr {
			t.Fatal(text)
		}
		id := <-asked
		got["question_id"] = idOf(got["question_id"]) // the handle, without a session
		wantFields(t, "allow once", got, map[string]any{"question_id": id, "status": "answered", "decision": "allow", "scope": "once",
			"answered_by": "human", "via": "dialog", "rule_id": nil, "answer": nil})
		if !strings.Contains(got["next_step"].(string), "allowed this action once") {
			t.Errorf("next_step %q", got["next_step"])
		}
		rec, err := e.store.Get(context.Background(), id)
		q := rec.Question
		if err != nil || q.Kind != question.KindApproval || q.Tool != ToolApproval || q.Origin != question.OriginApproval || q.Action != "Deploy shop to staging" || q.Message != q.Action ||
			!strings.Contains(q.Details, "rollout restart") || q.AgentReason != deployArgs["reason"] || q.Risk != question.RiskMedium {
			t.Fatalf("history: %+v %v", q, err)
		}
	})
}

func TestApprovalDeniedWithMessage(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newPolicyEnv(t, Config{}).at(rev)
		s := e.connect(t, "claude-code", nil)
		e.person(t, question.Response{Action: question.Decline, Note: "wait for the release freeze to end", Via: question.ViaDialog})
		got, text, _ := call(t, context.Background(), s, ToolApproval, deployArgs)
		wantFields(t, "deny", got, map[string]any{"status": "declined", "decision": "deny", "scope": "once", "message": "wait for the release freeze to end"})
		if !strings.Contains(got["next_step"].(string), "denied this action") || !strings.Contains(got["next_step"].(string), "release freeze") {
			t.Errorf("next_step %q (%s)", got["next_step"], text)
		}
	})
}

// "Always allow…" answers as the person and names the rule it made.
func TestApprovalAlwaysAllowFromDialog(t *testing.T) {
	t.Parallel()
	e := newPolicyEnv(t, Config{})
	s := e.connect(t, "claude-code", nil)
	asked := make(chan question.Question, 1)
	cancel := e.broker.Subscribe(func(ev question.Event) {
		if ev.Type == question.EventAsked {
			asked <- ev.Question
		}
	})
	defer cancel()
	go func() {
		q := <-asked
		r := policy.SuggestRule(q, policy.Allow)
		r.Scope = policy.ScopeSession
		r, err := e.pol.Add(r)
		if err != nil {
			t.Error(err)
			return
		}
		if err := e.broker.Answer(q.ID, question.Response{Action: question.Accept, Value: []byte(`"allow"`), Via: question.ViaDialog, RuleID: r.ID, RuleScope: string(r.Scope)}); err != nil {
			t.Error(err)
		}
	}()
	got, _, _ := call(t, context.Background(), s, ToolApproval, deployArgs)
	wantFields(t, "always allow", got, map[string]any{"status": "answered", "decision": "allow", "scope": "session", "answered_by": "human"})
	if got["rule_id"] == "" || got["rule_id"] == nil {
		t.Fatalf("no rule_id: %v", got)
	}
	// The next identical request in the same session is decided by the rule, with no dialog.
	before := e.asked.Load()
	got, _, _ = call(t, context.Background(), s, ToolApproval, deployArgs)
	wantFields(t, "by the session rule", got, map[string]any{"status": "auto_approved", "decision": "allow", "scope": "session", "answered_by": "rule", "via": "rule"})
	if e.asked.Load() != before {
		t.Fatal("a rule-decided approval was shown")
	}
	// Another session of the same client is not covered.
	s2 := e.connect(t, "claude-code", nil)
	got, _, _ = call(t, context.Background(), s2, ToolApproval, map[string]any{"action": "Deploy shop to staging", "wait": false})
	if got["status"] != "pending" {
		t.Fatalf("another session: %v", got)
	}
}

func TestApprovalDecidedByRule(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newPolicyEnv(t, Config{}).at(rev)
		allow := addRule(t, e.pol, policy.Rule{Client: "claude-code", Action: "request_approval:Run *", Decision: policy.Allow})
		deny := addRule(t, e.pol, policy.Rule{Client: "*", Action: "request_approval:Deploy*", Decision: policy.Deny, Note: "deploys go through CI"})
		s := e.connect(t, "claude-code", nil)
		ctx := context.Background()

		got, _, _ := call(t, ctx, s, ToolApproval, map[string]any{"action": "Run the unit tests", "details": "`go test ./...`", "risk": "low"})
		wantFields(t, "rule allow", got, map[string]any{"status": "auto_approved", "decision": "allow", "scope": "always", "rule_id": allow.ID,
			"answered_by": "rule", "reason": "rule", "via": "rule"})
		got, _, _ = call(t, ctx, s, ToolApproval, deployArgs)
		wantFields(t, "rule deny", got, map[string]any{"status": "auto_rejected", "decision": "deny", "scope": "always", "rule_id": deny.ID, "message": "deploys go through CI"})
		if !strings.Contains(got["next_step"].(string), deny.ID) {
			t.Errorf("next_step %q does not name the rule", got["next_step"])
		}
		if n := e.asked.Load(); n != 0 {
			t.Fatalf("%d rule-decided approvals were shown (EventAsked); want none", n)
		}
		rec, err := e.store.Get(ctx, idOf(got["question_id"]))
		if err != nil || rec.Result == nil || rec.Result.Outcome != question.AutoRejected || rec.Result.RuleID != deny.ID || rec.Result.Reason != question.ReasonRule {
			t.Fatalf("history: %+v %v", rec.Result, err)
		}
	})
}

func TestHighRiskNotApprovedByGenericRule(t *testing.T) {
	t.Parallel()
	e := newPolicyEnv(t, Config{})
	addRule(t, e.pol, policy.Rule{Client: "*", Action: "*", Decision: policy.Allow})
	addRule(t, e.pol, policy.Rule{Client: "claude-code", Action: "request_approval:Drop the orders table", Decision: policy.Allow})
	s := e.connect(t, "claude-code", nil)
	ctx := context.Background()
	drop := map[string]any{"action": "Drop the orders table", "details": "`DROP TABLE orders;`", "risk": "high", "wait": false}
	got, _, _ := call(t, ctx, s, ToolApproval, drop)
	wantFields(t, "high risk", got, map[string]any{"status": "pending", "decision": nil})
	// The broker's events arrive on its own goroutine: wait for the Asked
	// event that shows the dialog rather than reading the counter at once.
	for deadline := time.Now().Add(10 * time.Second); e.asked.Load() < 1 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if e.asked.Load() != 1 {
		t.Fatalf("the high-risk approval was not shown: %d asked", e.asked.Load())
	}
	if q, res, err := e.broker.Get(got["question_id"].(string)); err != nil || res != nil || q.State != question.StatePending {
		t.Fatalf("the high-risk approval is not pending: %+v %+v %v", q, res, err)
	}
	// A rule made for exactly this action and these details, with the
	// extra confirmation, decides it; other details are asked again.
	hr := addRule(t, e.pol, policy.Rule{Client: "claude-code", Action: "request_approval:Drop the orders table", Decision: policy.Allow, HighRisk: true,
		Match: policy.MatchInput, Pattern: "`DROP TABLE orders; -- again`"})
	delete(drop, "wait")
	drop["details"] = "`DROP TABLE orders; -- again`" // the same details would re-attach to the pending question
	got, _, _ = call(t, ctx, s, ToolApproval, drop)
	wantFields(t, "high-risk rule", got, map[string]any{"status": "auto_approved", "rule_id": hr.ID})
	drop["details"], drop["wait"] = "`DROP TABLE orders CASCADE; DROP TABLE customers;`", false
	got, _, _ = call(t, ctx, s, ToolApproval, drop)
	wantFields(t, "other details", got, map[string]any{"status": "pending", "decision": nil})
}

// request_approval works with wait false, get_answer and cancel_question.
func TestApprovalGetAnswerAndCancel(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newPolicyEnv(t, Config{}).at(rev)
		s := e.connect(t, "claude-code", nil)
		ctx := context.Background()
		got, _, _ := call(t, ctx, s, ToolApproval, map[string]any{"action": "Merge PR 42", "wait": false, "timeout_seconds": 600})
		id := got["question_id"].(string)
		wantFields(t, "pending", got, map[string]any{"status": "pending", "decision": nil})
		if err := e.broker.Answer(idOf(id), accept(`"allow"`)); err != nil {
			t.Fatal(err)
		}
		got, _, _ = call(t, ctx, s, ToolGetAnswer, map[string]any{"question_id": id})
		wantFields(t, "get_answer", got, map[string]any{"status": "answered", "decision": "allow", "scope": "once"})

		got, _, _ = call(t, ctx, s, ToolApproval, map[string]any{"action": "Close issue 7", "wait": false})
		id = got["question_id"].(string)
		got, _, _ = call(t, ctx, s, ToolCancelQuestion, map[string]any{"question_id": id})
		wantFields(t, "cancel", got, map[string]any{"status": "withdrawn", "decision": "deny", "scope": nil})
	})
}

func TestApprovalBadArguments(t *testing.T) {
	t.Parallel()
	e := newPolicyEnv(t, Config{})
	s := e.connect(t, "claude-code", nil)
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "action: must not be empty"},
		{map[string]any{"action": strings.Repeat("a", 201)}, "action: at most 200 characters, got 201"},
		{map[string]any{"action": "x", "risk": "extreme"}, `risk: "extreme" is not one of low, medium, high`},
		{map[string]any{"action": "x", "details": strings.Repeat("d", question.MaxDetails+1)}, "details: at most 65536 characters, got 65537"},
		{map[string]any{"action": "x", "reason": strings.Repeat("r", question.MaxAgentReason+1)}, "reason: at most 2048 characters, got 2049"},
		{map[string]any{"action": "x", "decision": "allow"}, "decision: unknown argument"},
	} {
		_, text, isErr := call(t, context.Background(), s, ToolApproval, c.args)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("%v: isError %v, %q; want %q", c.args, isErr, text, c.want)
		}
	}
	if n := e.asked.Load(); n != 0 {
		t.Fatalf("bad calls asked %d questions", n)
	}
}

// TestScopeIsTheDecidingRules: an approval's scope is what its result
// carries from the rule that decided it (policy.Gate) or was made with the
// answer, whatever the rules say afterwards; the person alone is "once".
func TestScopeIsTheDecidingRules(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		r    question.Result
		want string
	}{
		{question.Result{Outcome: question.AutoApproved, DecidedBy: question.ByRule, RuleID: "r1", RuleScope: "session"}, "session"},
		{question.Result{Outcome: question.AutoRejected, DecidedBy: question.ByRule, RuleID: "r2", RuleScope: "always"}, "always"},
		{question.Result{Outcome: question.Answered, DecidedBy: question.ByHuman, RuleID: "r3", RuleScope: "session"}, "session"},
		{question.Result{Outcome: question.Declined, DecidedBy: question.ByHuman}, "once"},
		{question.Result{Outcome: question.AutoRejected, DecidedBy: question.ByTimeout, Reason: question.ReasonTimeout}, ""},
		{question.Result{Outcome: question.AutoRejected, DecidedBy: question.ByApp, Reason: question.ReasonAway}, ""},
	} {
		if got := scope(&tc.r); got != tc.want {
			t.Errorf("%+v: scope %q, want %q", tc.r, got, tc.want)
		}
	}
}
