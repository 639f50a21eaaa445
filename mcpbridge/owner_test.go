package mcpbridge

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/question"
)

// TestQuestionsBelongToTheirAsker: get_answer and cancel_question act only
// on the calling session's own questions. Session B, given A's question
// id (ids are listed by 'asktray pending --json', which needs no
// terminal), gets the very isError an unknown id gets, byte for byte with
// the id in it: it cannot collect A's answer, cannot use up A's allow,
// and cannot withdraw A's question. Nor can any session reach a question
// the agent hooks or the CLI asked. A still collects and withdraws its own.
func TestQuestionsBelongToTheirAsker(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newEnv(t, Config{}).at(rev)
		a := e.connect(t, "agent-a", nil)
		b := e.connect(t, "agent-b", nil)
		ctx := t.Context()
		unknown := func(tool, id string) string {
			t.Helper()
			const never = "never-asked-0123456789"
			args := map[string]any{"question_id": never}
			if tool == ToolGetAnswer {
				args["wait_seconds"] = 0
			}
			_, text, isErr := call(t, ctx, b, tool, args)
			if !isErr {
				t.Fatalf("%s of an unknown id is not an error: %s", tool, text)
			}
			return strings.ReplaceAll(text, never, id)
		}
		refused := func(s *mcp.ClientSession, tool, id, who string) {
			t.Helper()
			args := map[string]any{"question_id": id}
			if tool == ToolGetAnswer {
				args["wait_seconds"] = 0
			}
			_, text, isErr := call(t, ctx, s, tool, args)
			if want := unknown(tool, id); !isErr || text != want {
				t.Fatalf("%s of %s: isError=%v %q, want the unknown id's %q", tool, who, isErr, text, want)
			}
		}

		res, _, _ := call(t, ctx, a, ToolApproval, map[string]any{"action": "Deploy", "details": "make deploy", "wait": false})
		id, _ := res["question_id"].(string)
		refused(b, ToolGetAnswer, idOf(id), "A's pending approval")
		refused(b, ToolGetAnswer, idOf(id)+".AAAAAAAAAAAAAAAAAAAAAA", "a forged handle")
		// Without a session, even a client of A's very name gets nowhere with the bare id.
		twin := e.connect(t, "agent-a", nil)
		if rev == modern {
			refused(twin, ToolCancelQuestion, idOf(id), "A's question, by a client of A's name")
		}
		if err := e.broker.Answer(idOf(id), accept(`"allow"`)); err != nil {
			t.Fatal(err)
		}
		refused(b, ToolGetAnswer, idOf(id), "A's allowed approval")
		refused(b, ToolCancelQuestion, idOf(id), "A's allowed approval")
		got, text, isErr := call(t, ctx, a, ToolGetAnswer, map[string]any{"question_id": id, "wait_seconds": 0})
		if isErr || got["status"] != "answered" || got["decision"] != "allow" {
			t.Fatalf("A collects its own allow: %s", text)
		}

		res, _, _ = call(t, ctx, a, ToolAskText, map[string]any{"question": "A's second question", "wait": false})
		id, _ = res["question_id"].(string)
		refused(b, ToolCancelQuestion, idOf(id), "A's pending question")
		if q, _, err := e.broker.Get(idOf(id)); err != nil || q.State != question.StatePending {
			t.Fatalf("B's cancel_question touched A's question: %+v %v", q, err)
		}
		if got, text, isErr = call(t, ctx, a, ToolCancelQuestion, map[string]any{"question_id": id}); isErr || got["status"] != "withdrawn" {
			t.Fatalf("A withdraws its own: %s", text)
		}

		// A question the hooks or the CLI asked belongs to no MCP session.
		hq, err := e.broker.Ask(ctx, question.Question{Kind: question.KindApproval, Client: question.Client{Name: "claude-code", SessionID: "hook-s1"},
			Tool: "permission_request", Origin: question.OriginPermission, Action: "Bash", Message: "rm -rf ~", Risk: question.RiskHigh})
		if err != nil {
			t.Fatal(err)
		}
		refused(a, ToolGetAnswer, hq.ID, "a hook's question")
		refused(a, ToolCancelQuestion, hq.ID, "a hook's question")
	})
}
