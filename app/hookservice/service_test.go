package hookservice

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/risk"
)

type hookEnv struct {
	c     *control.Client
	h     *Service
	b     *question.Broker
	pol   *policy.Policy
	store history.Store
	set   Settings
	asked chan question.Question
	ended chan question.Event
}

func newHookServer(t *testing.T) *hookEnv {
	t.Helper()
	dir := t.TempDir()
	pol, err := policy.Open(filepath.Join(dir, policy.File))
	if err != nil {
		t.Fatal(err)
	}
	e := &hookEnv{pol: pol, store: historytest.New(t), set: Settings{Deadline: time.Minute},
		asked: make(chan question.Question, 256), ended: make(chan question.Event, 256)}
	e.b = question.NewBroker(question.Config{Journal: e.store, Gate: pol.Gate})
	e.b.Subscribe(func(ev question.Event) {
		switch ev.Type {
		case question.EventAsked:
			e.asked <- ev.Question
		case question.EventEnded:
			e.ended <- ev
		}
	})
	h := &Service{Broker: e.b, Policy: pol, Settings: func() Settings { return e.set }, Home: "/home/u"}
	e.h = h
	s := &control.Server{Broker: e.b, Store: e.store, Policy: pol, Hooks: h, Status: func() control.Status { return control.Status{} }}
	sock := filepath.Join(dir, "c.sock")
	if err := s.Listen(sock); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = s.Shutdown(context.Background())
		_ = e.b.Close()
	})
	e.c = control.NewClient(sock)
	return e
}

func payload(t *testing.T, a hook.Agent, file string) hook.Payload {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "hook", "testdata", string(a), file+".json"))
	if err != nil {
		t.Fatal(err)
	}
	ev := ""
	if a == hook.CopilotCLI {
		ev = file
	}
	p, err := hook.Parse(a, ev, b)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// call sends p in the background and returns where its reply arrives.
func (e *hookEnv) call(p hook.Payload, wait time.Duration) <-chan hook.Reply {
	out := make(chan hook.Reply, 1)
	go func() {
		rep, err := e.c.Hook(context.Background(), hook.Request{Payload: p, WaitMS: wait.Milliseconds()})
		if err != nil {
			rep = hook.Reply{Message: "error: " + err.Error()}
		}
		out <- rep
	}()
	return out
}

func (e *hookEnv) nextAsked(t *testing.T) question.Question {
	t.Helper()
	select {
	case q := <-e.asked:
		return q
	case <-time.After(5 * time.Second):
		t.Fatal("no question asked")
	}
	return question.Question{}
}

func recv[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		t.Fatal("timed out")
	}
	var zero T
	return zero
}

func TestHook_PermissionAnsweredInTray(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	for _, a := range hook.Agents() {
		sp, _ := hook.Lookup(a)
		if hook.NormalizeEvent(sp.PermissionEvent()) != hook.PermissionRequest {
			continue // Gemini CLI asks at BeforeTool (gemini_test.go)
		}
		p := payload(t, a, sp.PermissionEvent())
		got := e.call(p, time.Minute)
		q := e.nextAsked(t)
		// Rendered as permission_prompt renders it: the command in a code
		// block, the model's description as the reason.
		cmd, ok := risk.Command(p.ToolInput)
		if q.Kind != question.KindApproval || q.Client.Name != string(a) || q.Client.SessionID != p.SessionID || q.Tool != hook.Tool ||
			q.Action != p.ToolName || !strings.Contains(q.Details, "**Working directory:** `"+p.Cwd+"`") || !ok || !strings.Contains(q.Details, "```") ||
			!strings.Contains(q.Details, cmd) || !sameJSON(q.Input, p.ToolInput) {
			t.Fatalf("%s: question %+v", a, q)
		}
		if err := e.b.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`), Via: question.ViaDialog}); err != nil {
			t.Fatal(err)
		}
		if rep := recv(t, got); rep.Behavior != hook.Allow || rep.QuestionID != q.ID {
			t.Fatalf("%s: reply %+v", a, rep)
		}
		got = e.call(p, time.Minute)
		q = e.nextAsked(t)
		_ = e.b.Answer(q.ID, question.Response{Action: question.Decline, Note: "use npm ci instead", Via: question.ViaDialog})
		if rep := recv(t, got); rep.Behavior != hook.Deny || rep.Message != `The user denied this action in Asktray. Their note: "use npm ci instead". `+
			"Do not do it, and do not try to reach the same result another way; ask the user or continue without it." {
			t.Fatalf("%s: deny reply %+v", a, rep)
		}
		got = e.call(p, time.Minute)
		q = e.nextAsked(t)
		_ = e.b.Answer(q.ID, question.Response{Action: question.Decline, Via: question.ViaDialog})
		if rep := recv(t, got); rep.Behavior != hook.Deny || rep.Message != "The user denied this action in Asktray. "+
			"Do not do it, and do not try to reach the same result another way; ask the user or continue without it." {
			t.Fatalf("%s: default deny %+v", a, rep)
		}
		got = e.call(p, time.Minute)
		q = e.nextAsked(t)
		_ = e.b.Answer(q.ID, question.Response{Action: question.Cancel, Via: question.ViaDialog})
		if rep := recv(t, got); rep.Behavior != "" {
			t.Fatalf("%s: a dismissal decided %+v", a, rep)
		}
	}
	// Everything is in the history with the session and the working directory.
	page, err := e.store.List(context.Background(), history.Filter{Client: "codex"})
	if err != nil || len(page.Records) != 4 || page.Records[0].Question.Client.SessionID == "" || !strings.Contains(page.Records[0].Question.Details, "/Users/a/code/codex") {
		t.Fatalf("history %+v %v", page.Records, err)
	}
}

func TestHook_SessionMovedOnWithdraws(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	perm := payload(t, hook.ClaudeCode, "PermissionRequest")
	for _, ev := range []string{"PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop", "SessionEnd"} {
		got := e.call(perm, time.Minute)
		q := e.nextAsked(t)
		other := perm
		other.SessionID = "another-session"
		if rep := recv(t, e.call(withEvent(payload(t, hook.ClaudeCode, ev), "another-session"), 0)); rep.Behavior != "" {
			t.Fatalf("%s: %+v", ev, rep)
		}
		if ev == "PostToolUse" {
			read := withEvent(payload(t, hook.ClaudeCode, ev), perm.SessionID)
			read.ToolName = "Read" // another tool of the same session ran meanwhile
			recv(t, e.call(read, 0))
		}
		if _, res, _ := e.b.Get(q.ID); res != nil {
			t.Fatalf("%s: another session's or tool's event ended the question: %+v", ev, res)
		}
		recv(t, e.call(payload(t, hook.ClaudeCode, ev), 0))
		if rep := recv(t, got); rep.Behavior != "" {
			t.Fatalf("%s: the hook decided %+v", ev, rep)
		}
		ended := recv(t, e.ended)
		if ended.Question.ID != q.ID || ended.Result.Outcome != question.Withdrawn || ended.Result.Reason != question.ReasonAnsweredInAgent {
			t.Fatalf("%s: ended %+v %+v", ev, ended.Question.ID, ended.Result)
		}
	}
}

// waitOpen waits until n hook approvals of p's session are tracked: the
// broker announces a question a moment before the hook server tracks it.
func (e *hookEnv) waitOpen(t *testing.T, p hook.Payload, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); e.h.openCount(p.Agent, p.SessionID) != n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d open, want %d", e.h.openCount(p.Agent, p.SessionID), n)
		}
	}
}

func withEvent(p hook.Payload, session string) hook.Payload {
	p.SessionID = session
	return p
}

func TestHook_WindowEndsWithdrawnAndHookGoneWithdraws(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	p := payload(t, hook.Codex, "PermissionRequest")
	start := time.Now()
	got := e.call(p, 300*time.Millisecond)
	q := e.nextAsked(t)
	if rep := recv(t, got); rep.Behavior != "" || time.Since(start) > 3*time.Second {
		t.Fatalf("reply %+v after %v", rep, time.Since(start))
	}
	if ev := recv(t, e.ended); ev.Question.ID != q.ID || ev.Result.Outcome != question.Withdrawn || ev.Result.Reason != question.ReasonTimeout {
		t.Fatalf("ended %+v", ev.Result)
	}
	// The person's deadline bounds the wait too.
	e2 := newHookServer(t)
	e2.set.Deadline = 200 * time.Millisecond
	if rep := recv(t, e2.call(p, time.Minute)); rep.Behavior != "" {
		t.Fatalf("reply %+v", rep)
	}
	// A hook that goes away (killed by the agent, or its agent exited) withdraws.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := e.c.Hook(ctx, hook.Request{Payload: p, WaitMS: time.Minute.Milliseconds()})
		done <- err
	}()
	q = e.nextAsked(t)
	cancel()
	if err := recv(t, done); err == nil {
		t.Fatal("a cancelled hook call returned no error")
	}
	if ev := recv(t, e.ended); ev.Question.ID != q.ID || ev.Result.Outcome != question.Withdrawn || ev.Result.Reason != "" {
		t.Fatalf("ended %+v", ev.Result)
	}
}

func TestHook_AwayRulesAndGuard(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	p := payload(t, hook.ClaudeCode, "PermissionRequest")
	if err := e.pol.SetAway(true); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if rep := recv(t, e.call(p, time.Minute)); rep.Behavior != "" || time.Since(start) > time.Second {
		t.Fatalf("away hold: %+v after %v", rep, time.Since(start))
	}
	select {
	case q := <-e.asked:
		t.Fatalf("away hold asked %+v", q)
	default:
	}
	// Handback never hands an approval back: it is held, as with hold.
	e.pol.SetAwayMode(policy.AwayHandback)
	start = time.Now()
	if rep := recv(t, e.call(p, time.Minute)); rep.Behavior != "" || time.Since(start) > time.Second {
		t.Fatalf("away handback: %+v after %v", rep, time.Since(start))
	}
	select {
	case q := <-e.asked:
		t.Fatalf("away handback asked %+v", q)
	default:
	}
	e.pol.SetAwayMode(policy.AwayHold)
	// The payload's rm -rf is graded high: a rule for every Bash command
	// does not allow it (it is held, as without a rule) ...
	whole, err := e.pol.Add(policy.Rule{Client: "claude-code", Action: hook.Tool + ":Bash", Decision: policy.Allow, Scope: policy.ScopeAlways})
	if err != nil {
		t.Fatal(err)
	}
	if rep := recv(t, e.call(p, time.Minute)); rep.Behavior != "" {
		t.Fatalf("a whole-tool rule allowed rm -rf: %+v", rep)
	}
	_ = e.pol.Remove(whole.ID)
	// ... while an exact rule made with the high-risk tick still decides it
	// while away: client + tool:action + the command.
	r, err := e.pol.Add(policy.Rule{Client: "claude-code", Action: hook.Tool + ":Bash", Decision: policy.Allow, Scope: policy.ScopeAlways,
		Match: policy.MatchCommand, Pattern: "rm -rf node_modules", HighRisk: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep := recv(t, e.call(p, time.Minute)); rep.Behavior != hook.Allow {
		t.Fatalf("allow rule: %+v", rep)
	}
	_ = e.pol.Remove(r.ID)
	if _, err := e.pol.Add(policy.Rule{Client: "*", Action: hook.Tool + ":*", Decision: policy.Deny, Scope: policy.ScopeAlways, Note: "not today"}); err != nil {
		t.Fatal(err)
	}
	if rep := recv(t, e.call(p, time.Minute)); rep.Behavior != hook.Deny || !strings.Contains(rep.Message, "A rule the user made in Asktray") || !strings.Contains(rep.Message, "not today") {
		t.Fatalf("deny rule: %+v", rep)
	}
	// Away with reject: the person's choice, a deny.
	g := newHookServer(t)
	_ = g.pol.SetAway(true)
	g.pol.SetAwayMode(policy.AwayReject)
	if rep := recv(t, g.call(p, time.Minute)); rep.Behavior != hook.Deny || !strings.Contains(rep.Message, "away") {
		t.Fatalf("away reject: %+v", rep)
	}
	_ = g.pol.SetAway(false)
	// The high-risk guard: a broad allow rule does not decide a high-risk request.
	if _, err := g.pol.Add(policy.Rule{Client: "*", Action: "*", Decision: policy.Allow, Scope: policy.ScopeAlways}); err != nil {
		t.Fatal(err)
	}
	got := g.call(p, time.Minute)
	q := g.nextAsked(t)
	if q.Risk != question.RiskHigh {
		t.Fatalf("risk %q", q.Risk)
	}
	_ = g.b.Answer(q.ID, question.Response{Action: question.Decline, Via: question.ViaDialog})
	if rep := recv(t, got); rep.Behavior != hook.Deny {
		t.Fatalf("guarded: %+v", rep)
	}
}

// TestHook_BoundedPerSession: past max_pending_per_session open approvals
// of one session (20 by default, the MCP tools' bound), a hook returns no
// decision at once; another session still asks.
func TestHook_BoundedPerSession(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ setting, bound int }{{0, question.DefaultMaxPending}, {3, 3}} {
		e := newHookServer(t)
		e.set.MaxPending = tc.setting
		boundedPerSession(t, e, tc.bound)
	}
}

func boundedPerSession(t *testing.T, e *hookEnv, bound int) {
	t.Helper()
	p := payload(t, hook.Codex, "PermissionRequest")
	var replies []<-chan hook.Reply
	for range bound {
		replies = append(replies, e.call(p, time.Minute))
		e.nextAsked(t)
	}
	e.waitOpen(t, p, bound)
	start := time.Now()
	if rep := recv(t, e.call(p, time.Minute)); rep.Behavior != "" || time.Since(start) > time.Second {
		t.Fatalf("bound %d: over the bound: %+v after %v", bound, rep, time.Since(start))
	}
	select {
	case q := <-e.asked:
		t.Fatalf("bound %d: asked past the bound: %+v", bound, q)
	default:
	}
	other := p
	other.SessionID = "another"
	got := e.call(other, time.Minute)
	q := e.nextAsked(t)
	_ = e.b.Answer(q.ID, question.Response{Action: question.Cancel})
	recv(t, got)
	// The session moves on (a new turn): every open approval ends, and the
	// bound frees.
	end := p
	end.Event, end.TurnID = hook.UserPromptSubmit, "a-new-turn"
	recv(t, e.call(end, 0))
	for _, ch := range replies {
		if rep := recv(t, ch); rep.Behavior != "" {
			t.Fatalf("reply %+v", rep)
		}
	}
	got = e.call(p, time.Minute)
	q = e.nextAsked(t)
	_ = e.b.Answer(q.ID, question.Response{Action: question.Cancel})
	recv(t, got)
}

// sameJSON reports whether a and b are the same JSON value: an input kept
// for the question may escape what the agent sent raw (">" as \u003e in
// Qwen Code's "echo x > FILE && …").
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}
