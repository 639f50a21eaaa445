package mcpbridge

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// Away mode handback: a question comes back at once as needs_user_input,
// formatted for the agent to ask in its own chat; approvals and
// destructive confirmations are never handed back, they wait for the person.
func TestAwayHandback(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		// A handed-back question ends at once; one that waited for the person
		// would end only after the window. The bound between them is wide, so
		// that a loaded machine cannot make a handback look like a wait.
		const window = 5 * time.Second
		e := newPolicyEnv(t, Config{Windows: []WindowRule{{Match: "chatty", Window: window}}}).at(rev)
		e.pol.SetAwayMode(policy.AwayHandback)
		if err := e.pol.SetAway(true); err != nil {
			t.Fatal(err)
		}
		s := e.connect(t, "chatty", nil)
		ctx := context.Background()
		form := map[string]any{"type": "object", "properties": map[string]any{
			"name": map[string]any{"type": "string", "title": "Name"},
			"size": map[string]any{"type": "string", "enum": []any{"S", "M"}}}, "required": []any{"name"}}
		for _, tc := range []struct {
			tool string
			args map[string]any
			want []string
		}{
			{ToolAskChoice, map[string]any{"question": "Which region?", "header": "Deploy", "options": []map[string]string{{"label": "eu", "description": "Frankfurt"}, {"label": "us"}}},
				[]string{"**Deploy**\n\nWhich region?", "Pick one:\n1. eu — Frankfurt\n2. us"}},
			{ToolAskMultiSelect, map[string]any{"question": "Which checks?", "options": []map[string]string{{"label": "lint"}, {"label": "test"}}, "min_selections": 1},
				[]string{"Pick 1 to 2:\n1. lint\n2. test"}},
			{ToolAskConfirm, map[string]any{"question": "Tag v1.2?", "yes_label": "Tag it"}, []string{"Tag v1.2?\n\nAnswer: Tag it or no."}},
			{ToolAskText, map[string]any{"question": "Commit message?", "max_length": 72}, []string{"Length: at most 72 characters."}},
			{ToolAskUser, map[string]any{"question": "Which DB?", "options": []map[string]string{{"label": "Postgres"}}}, []string{"Suggested answers:\n1. Postgres\nOr any answer in their own words."}},
			{ToolAskForm, map[string]any{"message": "Who?", "requestedSchema": form}, []string{"Fields:\n- name (Name): string, required\n- size: enum, one of: S, M"}},
		} {
			start := time.Now()
			got, text, isErr := call(t, ctx, s, tc.tool, tc.args)
			if isErr || got["status"] != StatusNeedsUserInput || time.Since(start) >= window*4/5 {
				t.Fatalf("%s: isError %v after %v: %s", tc.tool, isErr, time.Since(start), text)
			}
			if got["tool"] != tc.tool || got["reason"] != "handed_back" || got["answered_by"] != "app" || !strings.Contains(got["next_step"].(string), "your own chat") {
				t.Errorf("%s: %s", tc.tool, text)
			}
			q, _ := tc.args["question"].(string)
			if q == "" {
				q = tc.args["message"].(string)
			}
			if got["question"] != q {
				t.Errorf("%s: question %v, want %q", tc.tool, got["question"], q)
			}
			for _, w := range tc.want {
				if !strings.Contains(got["message"].(string), w) {
					t.Errorf("%s: message lacks %q:\n%s", tc.tool, w, got["message"])
				}
			}
			if _, ok := got["action"]; ok {
				t.Errorf("%s: a handed-back form has an action: %s", tc.tool, text)
			}
		}
		// Never handed back: they wait for the person, held while away.
		for _, tc := range []struct {
			tool string
			args map[string]any
		}{
			{ToolApproval, map[string]any{"action": "Deploy to production", "risk": "high"}},
			{ToolAskConfirm, map[string]any{"question": "Delete build/?", "destructive": true}},
		} {
			got, text, _ := call(t, ctx, s, tc.tool, tc.args)
			if got["status"] != "pending" {
				t.Fatalf("%s while away (handback): %s", tc.tool, text)
			}
			if _, res, _ := e.broker.Get(got["question_id"].(string)); res != nil {
				t.Fatalf("%s ended: %+v", tc.tool, res)
			}
		}
	})
}

// Every result names the tool that asked and echoes the question: pending,
// answered, and through get_answer.
func TestResultNamesToolAndQuestion(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	s := e.connect(t, "agent", nil)
	ctx := context.Background()
	got, text, _ := call(t, ctx, s, ToolApproval, map[string]any{"action": "Restart the shop", "wait": false})
	if got["tool"] != ToolApproval || got["question"] != "Restart the shop" || got["status"] != "pending" {
		t.Fatalf("pending: %s", text)
	}
	id := got["question_id"].(string)
	if err := e.broker.Answer(idOf(id), question.Response{Action: question.Decline, Via: question.ViaCLI}); err != nil {
		t.Fatal(err)
	}
	got, text, _ = call(t, ctx, s, ToolGetAnswer, map[string]any{"question_id": id})
	if got["tool"] != ToolApproval || got["question"] != "Restart the shop" || got["decision"] != "deny" {
		t.Fatalf("get_answer: %s", text)
	}
	got, text, _ = call(t, ctx, s, ToolNotify, map[string]any{"message": "Shop restarted"})
	if got["tool"] != ToolNotify || got["question"] != "Shop restarted" {
		t.Fatalf("notify: %s", text)
	}
}
