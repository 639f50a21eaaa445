package mcpbridge

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

// deployQuestion is the approval deployArgs asks.
var deployQuestion = question.Question{Kind: question.KindApproval, Message: "Deploy shop to staging", Action: "Deploy shop to staging",
	Details: "```sh\nkubectl -n staging rollout restart deploy/shop\n```", Risk: question.RiskMedium,
	AgentReason: "The fix for the cart race is merged and needs a smoke test."}

// A destructive confirmation is refused with default yes on the MCP path
// (validation, which every question passes through the broker), and its
// client form is never pre-checked even if such a question got through.
func TestDestructiveDefaultYesRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	s := e.connect(t, "claude-code", nil)
	for _, d := range []any{"yes"} {
		_, text, isErr := call(t, context.Background(), s, ToolAskConfirm, map[string]any{"question": "Delete build/?", "destructive": true, "default": d})
		if !isErr || !strings.Contains(text, `default: "yes" is not allowed with destructive`) {
			t.Errorf("default %v: isError %v, %s", d, isErr, text)
		}
	}
	for _, def := range []string{`"yes"`, `true`, ` "yes"`} {
		props, _ := confirmProps(question.Question{Kind: question.KindConfirm, Message: "m", Destructive: true, Default: []byte(def)})
		if got := props[propConfirm].(map[string]any)["default"]; got != false {
			t.Errorf("destructive with default %s: form default %v, want false", def, got)
		}
	}
	props, _ := confirmProps(question.Question{Kind: question.KindConfirm, Message: "m", Default: []byte(`"yes"`)})
	if got := props[propConfirm].(map[string]any)["default"]; got != true {
		t.Errorf("non-destructive default yes: form default %v", got)
	}
}

// An allow sooner than a person could read the approval's whole request
// (its details and reason too, not only its title) is not recorded, and in
// client mode that session's next questions skip its form.
func TestClientModeGrantNeedsTimeToReadDetails(t *testing.T) {
	t.Parallel()
	details := "```sh\n" + strings.Repeat("kubectl -n staging delete pod shop-", 40) + "\n```\n" + strings.Repeat("This removes every pod of the shop in staging. ", 20)
	q := question.Question{Kind: question.KindApproval, Message: "Delete pods", Action: "Delete pods", Details: details, Risk: question.RiskMedium}
	pause := MinHumanDecline + 300*time.Millisecond // long enough for the title alone
	if humanGrant(q) < pause+time.Second {
		t.Fatalf("reading time %v: the details do not count", humanGrant(q))
	}
	e := newEnv(t, Config{AskMode: AskClient})
	f := newFakeForm(accepting(map[string]any{"decision": "allow"}, pause))
	s := e.connectForm(t, "eager-client", f)
	resurfaced := make(chan question.Question, 4)
	defer e.broker.Subscribe(func(ev question.Event) {
		if ev.Type == question.EventResurfaced {
			resurfaced <- ev.Question
		}
	})()
	done := make(chan map[string]any, 1)
	go func() {
		r, _, _ := call(t, context.Background(), s, ToolApproval, map[string]any{"action": "Delete pods", "details": details})
		done <- r
	}()
	got := <-resurfaced
	if err := e.broker.Answer(got.ID, question.Response{Action: question.Decline, Via: question.ViaCLI}); err != nil {
		t.Fatal(err)
	}
	if r := <-done; r["decision"] != "deny" || r["via"] != "cli" {
		t.Fatalf("fast allow was recorded: %v", r)
	}
	// The next question of this session does not go to its form at all.
	asked := e.person(t, accept(`"no"`))
	r, text, _ := call(t, context.Background(), s, ToolAskConfirm, map[string]any{"question": "Ship?"})
	<-asked
	if n := f.count(); n != 1 || r["via"] != "dialog" {
		t.Fatalf("%d forms sent; want the second question kept off the form: %s", n, text)
	}
}
