package hookservice

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// TestHook_CodexTurnEndsItsApprovals is finding 6 of issue 25: Codex runs
// the hook from its app-server daemon, which outlives the terminal, so what
// bounds a Codex approval is what Codex reports of its turn (the payloads
// Codex 0.171.0 sent, one turn: testdata/codex/real). The turn's Stop ends
// its open approval (withdrawn, answered in the agent; no decision printed),
// as does a prompt that begins a new turn; a prompt sent into the same
// running turn, and another session's Stop, leave it open.
func TestHook_CodexTurnEndsItsApprovals(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	perm := payload(t, hook.Codex, "real/PermissionRequest")
	stop := payload(t, hook.Codex, "real/Stop")
	prompt := payload(t, hook.Codex, "real/UserPromptSubmit")
	if perm.TurnID == "" || stop.TurnID != perm.TurnID || prompt.TurnID != perm.TurnID || stop.SessionID != perm.SessionID {
		t.Fatalf("the recorded turn: permission %q, stop %q, prompt %q", perm.TurnID, stop.TurnID, prompt.TurnID)
	}
	newTurn := prompt
	newTurn.TurnID = "01a2422b-1c9e-70c3-884f-182a9a01f090"
	for _, c := range []struct {
		name string
		ends hook.Payload
	}{{"its turn stopped", stop}, {"a new turn began", newTurn}} {
		got := e.call(perm, time.Minute)
		q := e.nextAsked(t)
		e.waitOpen(t, perm, 1)
		recv(t, e.call(withEvent(stop, "another-session"), 0))
		recv(t, e.call(prompt, 0)) // input into the running turn
		if _, res, _ := e.b.Get(q.ID); res != nil {
			t.Fatalf("%s: another session's Stop or a prompt into the same turn ended it: %+v", c.name, res)
		}
		recv(t, e.call(c.ends, 0))
		if rep := recv(t, got); rep.Behavior != "" {
			t.Fatalf("%s: the hook decided %+v", c.name, rep)
		}
		ended := recv(t, e.ended)
		if ended.Question.ID != q.ID || ended.Result.Outcome != question.Withdrawn || ended.Result.Reason != question.ReasonAnsweredInAgent {
			t.Fatalf("%s: ended %s %+v", c.name, ended.Question.ID, ended.Result)
		}
	}
}

// TestHook_CodexPromptIntoTheTurnAskedMeanwhile: an event that arrives
// while an approval is being asked (before it is tracked) counts for it the
// same way: a new turn's prompt ends it, a prompt into its own turn does
// not.
func TestHook_CodexPromptIntoTheTurnAskedMeanwhile(t *testing.T) {
	t.Parallel()
	h := &Service{}
	perm := payload(t, hook.Codex, "real/PermissionRequest")
	o := openHook{agent: perm.Agent, session: perm.SessionID, toolKey: perm.ToolName, turn: perm.TurnID}
	start := time.Now()
	same := payload(t, hook.Codex, "real/UserPromptSubmit")
	h.movedOn(hook.Request{Payload: same})
	if h.track("a", o, start) {
		t.Error("a prompt into the approval's own turn counted as moved on")
	}
	h.untrack("a")
	other := same
	other.TurnID = "another-turn"
	h.movedOn(hook.Request{Payload: other})
	if !h.track("b", o, start) {
		t.Error("a new turn's prompt did not count as moved on")
	}
}

// TestHook_DetachedCodexSaysItMayNotWait: a Codex request the hook marks
// detached (it runs under Codex's app server and found no terminal to
// watch) leads its details with the line saying Codex may no longer be
// waiting, in italics, before the working directory; an unmarked one does
// not say it.
func TestHook_DetachedCodexSaysItMayNotWait(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	perm := payload(t, hook.Codex, "real/PermissionRequest")
	line := "_" + present.AsksFromBackground("Codex") + "_\n\n**Working directory:** `/tmp/realagents/work`"
	for _, detached := range []bool{true, false} {
		got := make(chan hook.Reply, 1)
		go func() {
			rep, _ := e.c.Hook(context.Background(), hook.Request{Payload: perm, WaitMS: time.Minute.Milliseconds(), Detached: detached})
			got <- rep
		}()
		q := e.nextAsked(t)
		if strings.HasPrefix(q.Details, line) != detached || strings.Contains(q.Details, "asks in its terminal too") {
			t.Errorf("detached %v: details\n%s", detached, q.Details)
		}
		if err := e.b.Answer(q.ID, question.Response{Action: question.Cancel}); err != nil {
			t.Fatal(err)
		}
		recv(t, got)
	}
}
