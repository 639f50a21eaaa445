package hookservice

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
)

// askReal sends Claude Code 2.1.332's PermissionRequest and returns the
// question the tray shows and where the hook's reply arrives.
func (e *hookEnv) askReal(t *testing.T) (question.Question, <-chan hook.Reply) {
	t.Helper()
	got := e.call(realPayload(t, hook.ClaudeCode, "PermissionRequest"), time.Minute)
	return e.nextAsked(t), got
}

func (e *hookEnv) record(t *testing.T, id string) question.Result {
	t.Helper()
	rec, err := e.store.Get(context.Background(), id)
	if err != nil || rec.Result == nil {
		t.Fatalf("history %s: %+v, %v", id, rec, err)
	}
	return *rec.Result
}

// TestHook_DeniedInTrayThenTheToolRan (finding 2 of issue 25): Claude Code
// was answered Yes in its terminal, then the person denied in the tray; the
// hook printed the deny to a Claude Code that no longer read it, and the
// tool's PostToolUse (the payload Claude Code 2.1.332 sent for that call)
// shows the command ran. The history row keeps the person's decline and
// says the agent had already proceeded.
func TestHook_DeniedInTrayThenTheToolRan(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	annotated := make(chan question.Event, 4)
	e.b.Subscribe(func(ev question.Event) {
		if ev.Type == question.EventAnnotated {
			annotated <- ev
		}
	})
	q, got := e.askReal(t)
	if err := e.b.Answer(q.ID, question.Response{Action: question.Decline, Note: "not now", Via: question.ViaCLI}); err != nil {
		t.Fatal(err)
	}
	if rep := recv(t, got); rep.Behavior != hook.Deny {
		t.Fatalf("reply %+v", rep)
	}
	if r := e.record(t, q.ID); r.Afterwards != "" {
		t.Fatalf("marked before the tool ran: %+v", r)
	}
	post := realPayload(t, hook.ClaudeCode, "PostToolUse")
	if rep := recv(t, e.call(post, 0)); rep.Behavior != "" {
		t.Fatalf("PostToolUse decided %+v", rep)
	}
	r := e.record(t, q.ID)
	if r.Outcome != question.Declined || r.Via != question.ViaCLI || r.Note != "not now" || r.Afterwards != question.ReasonAgentProceeded {
		t.Fatalf("history %+v", r)
	}
	if ev := recv(t, annotated); ev.Question.ID != q.ID || ev.Result.Afterwards != question.ReasonAgentProceeded {
		t.Fatalf("event %+v", ev)
	}
	// One PostToolUse is one call: the same event again marks nothing more.
	recv(t, e.call(post, 0))
	select {
	case ev := <-annotated:
		t.Fatalf("annotated twice: %+v", ev)
	default:
	}
}

// TestHook_AllowedInTrayThenTheToolRan: after a tray allow the tool's
// PostToolUse is the normal course; the row stays as it was.
func TestHook_AllowedInTrayThenTheToolRan(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	q, got := e.askReal(t)
	if err := e.b.Answer(q.ID, question.Response{Action: question.Accept, Value: []byte(`"allow"`), Via: question.ViaDialog}); err != nil {
		t.Fatal(err)
	}
	if rep := recv(t, got); rep.Behavior != hook.Allow {
		t.Fatalf("reply %+v", rep)
	}
	recv(t, e.call(realPayload(t, hook.ClaudeCode, "PostToolUse"), 0))
	if r := e.record(t, q.ID); r.Outcome != question.Answered || r.Afterwards != "" {
		t.Fatalf("history %+v", r)
	}
}

// TestHook_OpenQuestionEndsAtItsPostToolUse: Claude Code was answered Yes
// in its terminal and the tray question is still open when the command's
// PostToolUse comes; it ends as withdrawn, answered in the agent, and the
// hook prints nothing.
func TestHook_OpenQuestionEndsAtItsPostToolUse(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	q, got := e.askReal(t)
	e.waitOpen(t, realPayload(t, hook.ClaudeCode, "PermissionRequest"), 1)
	recv(t, e.call(realPayload(t, hook.ClaudeCode, "PostToolUse"), 0))
	if rep := recv(t, got); rep.Behavior != "" {
		t.Fatalf("reply %+v", rep)
	}
	if r := e.record(t, q.ID); r.Outcome != question.Withdrawn || r.Reason != question.ReasonAnsweredInAgent || r.Afterwards != "" {
		t.Fatalf("history %+v", r)
	}
}

// TestHook_AnotherCallsPostToolUseTouchesNothing: the PostToolUse of
// another session, or of another call of the same tool in the same session
// (another command), neither ends an open question nor marks a denied one.
func TestHook_AnotherCallsPostToolUseTouchesNothing(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	post := realPayload(t, hook.ClaudeCode, "PostToolUse")
	otherSession := post
	otherSession.SessionID = "another-session"
	otherCall := post
	otherCall.ToolInput = []byte(`{"command":"echo other","description":"Another command"}`)
	perm := realPayload(t, hook.ClaudeCode, "PermissionRequest")

	open, openGot := e.askReal(t)
	e.waitOpen(t, perm, 1)
	for _, p := range []hook.Payload{otherSession, otherCall} {
		recv(t, e.call(p, 0))
	}
	if _, res, _ := e.b.Get(open.ID); res != nil {
		t.Fatalf("another call's PostToolUse ended the open question: %+v", res)
	}
	_ = e.b.Answer(open.ID, question.Response{Action: question.Decline, Via: question.ViaDialog})
	if rep := recv(t, openGot); rep.Behavior != hook.Deny {
		t.Fatalf("reply %+v", rep)
	}
	for _, p := range []hook.Payload{otherSession, otherCall} {
		recv(t, e.call(p, 0))
	}
	if r := e.record(t, open.ID); r.Afterwards != "" {
		t.Fatalf("another call's PostToolUse marked the denied question: %+v", r)
	}
	// A new request for the same call supersedes the denied one: its
	// PostToolUse is the new question's.
	again, againGot := e.askReal(t)
	e.waitOpen(t, perm, 1)
	recv(t, e.call(post, 0))
	recv(t, againGot)
	if r := e.record(t, again.ID); r.Outcome != question.Withdrawn || r.Reason != question.ReasonAnsweredInAgent {
		t.Fatalf("the new question %+v", r)
	}
	if r := e.record(t, open.ID); r.Afterwards != "" {
		t.Fatalf("the superseded question was marked: %+v", r)
	}
	// The session's turn ending forgets a denied question: a later
	// PostToolUse is of another call.
	last, lastGot := e.askReal(t)
	_ = e.b.Answer(last.ID, question.Response{Action: question.Decline, Via: question.ViaDialog})
	recv(t, lastGot)
	recv(t, e.call(realPayload(t, hook.ClaudeCode, "Stop"), 0))
	recv(t, e.call(post, 0))
	if r := e.record(t, last.ID); r.Afterwards != "" {
		t.Fatalf("marked after the turn ended: %+v", r)
	}
}

// TestHook_DeniedWhileItsPostToolUseArrives: the deny and the PostToolUse
// cross, the question still tracked as open when its PostToolUse is
// handled; the row is marked all the same.
func TestHook_DeniedWhileItsPostToolUseArrives(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	perm := realPayload(t, hook.ClaudeCode, "PermissionRequest")
	q, err := e.b.Ask(context.Background(), approval(hook.Request{Payload: perm}, nil))
	if err != nil {
		t.Fatal(err)
	}
	e.h.track(q.ID, openHook{agent: perm.Agent, session: perm.SessionID, toolKey: perm.ToolName, input: inputKey(perm.ToolInput)}, time.Now())
	if err := e.b.Answer(q.ID, question.Response{Action: question.Decline, Via: question.ViaDialog}); err != nil {
		t.Fatal(err)
	}
	e.h.movedOn(hook.Request{Payload: realPayload(t, hook.ClaudeCode, "PostToolUse")})
	e.h.untrack(q.ID)
	if r := e.record(t, q.ID); r.Outcome != question.Declined || r.Afterwards != question.ReasonAgentProceeded {
		t.Fatalf("history %+v", r)
	}
	if e.h.openCount(perm.Agent, perm.SessionID) != 0 || len(e.h.ended) != 0 {
		t.Fatalf("still remembered: %d open, %d ended", e.h.openCount(perm.Agent, perm.SessionID), len(e.h.ended))
	}
}

func TestInputCovers(t *testing.T) {
	t.Parallel()
	asked := inputKey([]byte(`{"command":"ls","description":"list"}`))
	for _, tc := range []struct {
		ran  string
		want bool
	}{
		{`{"description":"list","command":"ls"}`, true},             // another key order
		{`{"command":"ls","description":"list","timeout":5}`, true}, // more reported
		{`{"command":"ls -la","description":"list"}`, false},
		{`{"command":"ls"}`, false},
		{`[]`, false},
	} {
		if got := inputCovers(asked, []byte(tc.ran)); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.ran, got, tc.want)
		}
	}
}

// TestHook_ClaudeCodeApprovalSaysItAsksToo: a Claude Code approval says
// that Claude Code may already have been answered in its terminal (it
// sends nothing on its Yes until the tool ran); Codex and Copilot CLI ask
// their own prompt only after the hook, so theirs do not.
func TestHook_ClaudeCodeApprovalSaysItAsksToo(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	q, got := e.askReal(t)
	if !strings.HasPrefix(q.Details, "_Claude Code asks in its terminal too") || !strings.Contains(q.Details, "**Working directory:** `/tmp/realagents/work`") {
		t.Fatalf("details %q", q.Details)
	}
	_ = e.b.Answer(q.ID, question.Response{Action: question.Cancel})
	recv(t, got)
	for _, p := range []hook.Payload{realPayload(t, hook.Codex, "PermissionRequest"), realPayload(t, hook.CopilotCLI, "permissionRequest")} {
		got := e.call(p, time.Minute)
		q := e.nextAsked(t)
		if strings.Contains(q.Details, "asks in its terminal too") {
			t.Errorf("%s: %q", p.Agent, q.Details)
		}
		_ = e.b.Answer(q.ID, question.Response{Action: question.Cancel})
		recv(t, got)
	}
}

// TestHook_AskedAsAnotherCallRanIsNotWithdrawn: an approval asked just
// before its session's PostToolUse but tracked just after learns of it only
// when that PostToolUse is of its own call.
func TestHook_AskedAsAnotherCallRanIsNotWithdrawn(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	perm := realPayload(t, hook.ClaudeCode, "PermissionRequest")
	o := openHook{agent: perm.Agent, session: perm.SessionID, toolKey: perm.ToolName, input: inputKey(perm.ToolInput)}
	start := time.Now()
	other := realPayload(t, hook.ClaudeCode, "PostToolUse")
	other.ToolInput = []byte(`{"command":"echo other"}`)
	e.h.movedOn(hook.Request{Payload: other})
	if e.h.track("q1", o, start) {
		t.Fatal("another command's PostToolUse counted as this call's")
	}
	e.h.movedOn(hook.Request{Payload: realPayload(t, hook.ClaudeCode, "PostToolUse")})
	if !e.h.track("q2", o, start) {
		t.Fatal("its own PostToolUse did not count")
	}
}
