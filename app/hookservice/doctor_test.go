package hookservice

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// TestDoctorIsANotice: the doctor's test request, even with an allow rule
// for everything of that agent, becomes a notice naming the hook file and
// returns at once with its id and no decision.
func TestDoctorIsANotice(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	if _, err := e.pol.Add(policy.Rule{Client: "codex", Action: "*", Decision: policy.Allow, Scope: policy.ScopeAlways}); err != nil {
		t.Fatal(err)
	}
	req := hook.Request{Payload: hook.Payload{Agent: hook.Codex, Event: hook.Doctor, SessionID: "asktray-doctor", ToolName: "Bash",
		Message: "/home/u/.codex/hooks.json"}, WaitMS: 60_000}
	start := time.Now()
	rep, err := e.c.Hook(context.Background(), req)
	if err != nil || rep.Behavior != "" || rep.QuestionID == "" || time.Since(start) > 5*time.Second {
		t.Fatalf("reply %+v, %v", rep, err)
	}
	q := <-e.asked
	if q.ID != rep.QuestionID || q.Kind != question.KindNotice || q.Client.Name != "codex" ||
		!strings.Contains(q.Message, "Codex hook in /home/u/.codex/hooks.json") || !strings.Contains(q.Message, "nothing was allowed") {
		t.Fatalf("shown %+v", q)
	}
}
