package hookservice

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// clinePayload is Cline's recorded PreToolUse running cmd.
func clinePayload(t *testing.T, cmd string) hook.Payload {
	t.Helper()
	p := payload(t, hook.Cline, "PreToolUse")
	p.ToolInput, _ = json.Marshal(map[string]string{"command": cmd})
	return p
}

// TestCline_CancelOnly: Cline's PreToolUse can only stop its task, and
// runs a call the hook leaves undecided under its own setting (with
// auto-approve, unasked). A low-risk call gets nothing at once; a high-risk
// one is asked, the dialog saying what the answers do there: the tray's
// allow prints nothing (Cline runs it), its deny cancels the task, a
// dismissal prints nothing, and a question left unanswered until the hook's
// wait ends, or held while the person is away, cancels the task rather
// than letting Cline run the call.
func TestCline_CancelOnly(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	low := clinePayload(t, "ls -la")
	if rep := recv(t, e.call(low, time.Minute)); rep.Behavior != "" || hook.Format(low, rep) != nil {
		t.Fatalf("low risk: %+v", rep)
	}
	e.noneAsked(t, "low risk")

	high := clinePayload(t, "rm -rf /tmp/victim")
	got := e.call(high, time.Minute)
	q := e.nextAsked(t)
	if q.Risk != question.RiskHigh || q.Client.Name != "cline" || !strings.Contains(q.Details, "rm -rf /tmp/victim") ||
		!strings.Contains(q.Details, "Deny stops Cline's whole task") {
		t.Fatalf("question %+v", q)
	}
	_ = e.b.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`), Via: question.ViaDialog})
	if rep := recv(t, got); rep.Behavior != hook.Allow || hook.Format(high, rep) != nil {
		t.Fatalf("allowed: %+v printed %s, want nothing", rep, hook.Format(high, rep))
	}

	got = e.call(high, time.Minute)
	q = e.nextAsked(t)
	_ = e.b.Answer(q.ID, question.Response{Action: question.Decline, Note: "not that folder", Via: question.ViaDialog})
	var out struct {
		Cancel       bool
		ErrorMessage string
	}
	rep := recv(t, got)
	if json.Unmarshal(hook.Format(high, rep), &out) != nil || !out.Cancel || !strings.Contains(out.ErrorMessage, "not that folder") {
		t.Fatalf("denied: %+v printed %s", rep, hook.Format(high, rep))
	}

	got = e.call(high, time.Minute)
	q = e.nextAsked(t)
	_ = e.b.Answer(q.ID, question.Response{Action: question.Cancel, Via: question.ViaDialog})
	if rep := recv(t, got); hook.Format(high, rep) != nil {
		t.Fatalf("dismissed: %+v printed %s, want nothing (left to Cline)", rep, hook.Format(high, rep))
	}

	got = e.call(high, 2*time.Second)
	e.nextAsked(t)
	out.Cancel, out.ErrorMessage = false, ""
	select {
	case rep = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("no reply after the hook's wait")
	}
	if json.Unmarshal(hook.Format(high, rep), &out) != nil || !out.Cancel || !strings.Contains(out.ErrorMessage, "no answer in the tray") {
		t.Fatalf("unanswered: %+v printed %s, want a cancel", rep, hook.Format(high, rep))
	}

	// Away (holding), nothing is asked and the call is stopped: printed
	// nothing, Cline would run it unasked.
	_ = e.pol.SetAway(true)
	out.Cancel = false
	if rep := recv(t, e.call(high, time.Minute)); json.Unmarshal(hook.Format(high, rep), &out) != nil || !out.Cancel {
		t.Fatalf("away: %+v printed %s, want a cancel", rep, hook.Format(high, rep))
	}
	e.noneAsked(t, "away")
	_ = e.pol.SetAway(false)

	// Asktray's own MCP tools (Cline names them asktray__TOOL) ask the
	// person themselves: never asked about, even under an ask rule for
	// every tool, which brings another tool's call to the tray.
	if _, err := e.pol.Add(policy.Rule{Client: "cline", Action: hook.Tool + ":*", Decision: policy.Ask, Scope: policy.ScopeAlways}); err != nil {
		t.Fatal(err)
	}
	own := clinePayload(t, "ls")
	own.ToolName = "asktray__ask_user"
	if rep := recv(t, e.call(own, time.Minute)); hook.Format(own, rep) != nil {
		t.Fatalf("Asktray's own tool: %+v", rep)
	}
	e.noneAsked(t, "Asktray's own tool")
	other := clinePayload(t, "ls")
	other.ToolName = "other__ask_user"
	got = e.call(other, time.Minute)
	q = e.nextAsked(t)
	if q.Client.Name != "cline" {
		t.Fatalf("another server's tool under the ask rule: %+v", q)
	}
	_ = e.b.Answer(q.ID, question.Response{Action: question.Cancel, Via: question.ViaDialog})
	recv(t, got)
}
