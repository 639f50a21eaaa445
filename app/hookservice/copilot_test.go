package hookservice

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
)

// TestHook_CopilotNoticeWithdrawnWhenTheSessionMovesOn (finding 8 of issue
// 25): Copilot CLI's notice, from the payload Copilot CLI 1.0.102 sent, is
// withdrawn by that session's next tool event, read from hookName with no
// --event, as setup installs it.
func TestHook_CopilotNoticeWithdrawnWhenTheSessionMovesOn(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	b, err := os.ReadFile(filepath.Join("..", "hook", "testdata", "copilot-cli", "real", "Notification.json"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := hook.Parse(hook.CopilotCLI, "", b)
	if err != nil || n.Event != hook.Notification || n.SessionID == "" {
		t.Fatalf("%+v, %v", n, err)
	}
	recv(t, e.call(n, 0))
	notice := e.nextAsked(t)
	if notice.Kind != question.KindNotice || notice.Client.Name != "copilot-cli" {
		t.Fatalf("notice %+v", notice)
	}
	moved, err := hook.Parse(hook.CopilotCLI, "", []byte(`{"hookName":"postToolUse","sessionId":"`+n.SessionID+`","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`))
	if err != nil {
		t.Fatal(err)
	}
	recv(t, e.call(moved, time.Minute))
	if ev := recv(t, e.ended); ev.Question.ID != notice.ID || ev.Result.Outcome != question.Withdrawn || ev.Result.Reason != question.ReasonAnsweredInAgent {
		t.Fatalf("ended %+v %+v", ev.Question, ev.Result)
	}
}

// TestHook_CopilotEventsWithoutName (issue 32 item 8): Copilot CLI's
// userPromptSubmitted, postToolUse and agentStop payloads name no event, so
// without --event the hook refuses them ("hook_event_name: required") and a
// notice stays pending; each entry setup writes passes its event, and with
// it the next prompt withdraws the session's notice.
func TestHook_CopilotEventsWithoutName(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	b, err := os.ReadFile(filepath.Join("..", "hook", "testdata", "copilot-cli", "real", "Notification.json"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := hook.Parse(hook.CopilotCLI, "", b)
	if err != nil {
		t.Fatal(err)
	}
	recv(t, e.call(n, 0))
	notice := e.nextAsked(t)
	prompt := []byte(`{"sessionId":"` + n.SessionID + `","timestamp":1796325219000,"cwd":"/tmp/realagents/work","prompt":"next"}`)
	if _, err := hook.Parse(hook.CopilotCLI, "", prompt); err == nil {
		t.Fatal("a payload naming no event parsed without --event")
	}
	var event string
	for _, en := range hook.Entries(hook.CopilotCLI, "/usr/bin/asktray", "") {
		for i, a := range en.Args {
			if a == "--event" && en.Event == "userPromptSubmitted" {
				event = en.Args[i+1]
			}
		}
	}
	p, err := hook.Parse(hook.CopilotCLI, event, prompt)
	if err != nil || p.Event != hook.UserPromptSubmit {
		t.Fatalf("with the entry's --event %q: %+v, %v", event, p, err)
	}
	recv(t, e.call(p, time.Minute))
	if ev := recv(t, e.ended); ev.Question.ID != notice.ID || ev.Result.Outcome != question.Withdrawn {
		t.Fatalf("ended %+v %+v", ev.Question, ev.Result)
	}
}
