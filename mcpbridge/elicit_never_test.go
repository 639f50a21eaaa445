package mcpbridge

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/question"
)

// TestClientFormNeverApproves: an MCP session that declares form
// elicitation and accepts every form with a yes (allow, confirm) after a
// person's pause gets no approval, destructive confirmation or
// confirmation that reads as destructive on its form, in client mode (with
// and without a desktop) and in auto mode without one. Each waits, not
// handed to the client, until the person answers on the CLI, and the
// result and the history say the person answered via cli. The same
// session's ordinary question does go to its form, recorded via
// elicitation.
func TestClientFormNeverApproves(t *testing.T) {
	t.Parallel()
	perm, _ := loadRecorded(t, "bash.json")
	for _, mode := range []struct {
		name string
		cfg  Config
	}{
		{"client", Config{AskMode: question.AskClient, Desktop: true}},
		{"client without desktop", Config{AskMode: question.AskClient}},
		{"auto without desktop", Config{AskMode: question.AskAuto}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			eachRevision(t, func(t *testing.T, rev string) { neverApproves(t, mode.cfg, rev, perm) })
		})
	}
}

func neverApproves(t *testing.T, cfg Config, rev string, perm any) {
	e := newEnv(t, cfg).at(rev)
	f := newFakeForm(accepting(map[string]any{"decision": "allow", "confirm": true, "answer": "main"}, MinHumanDecline+500*time.Millisecond))
	s := e.connectForm(t, "eager-client", f)
	for _, c := range []struct {
		name string
		tool string
		args any
	}{
		{"approval", ToolApproval, deployArgs},
		{"permission prompt", ToolPermission, perm},
		{"destructive confirm", ToolAskConfirm, map[string]any{"question": "Delete build/?", "destructive": true}},
		{"confirm that reads destructive", ToolAskConfirm, map[string]any{"question": "Drop the users table?", "yes_label": "Drop it"}},
	} {
		done := make(chan *mcp.CallToolResult, 1)
		go func() {
			r, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			done <- r
		}()
		q := e.waitPending(t, 1)[0]
		if q.DeliverTo != "" {
			t.Fatalf("%s: delivered to %q, want the desktop, page and CLI", c.name, q.DeliverTo)
		}
		time.Sleep(300 * time.Millisecond) // a form would be on its way by now
		if n := f.count(); n != 0 {
			t.Fatalf("%s: %d forms sent", c.name, n)
		}
		if q2, _, _ := e.broker.Get(q.ID); q2.State != question.StatePending {
			t.Fatalf("%s: no longer pending before the person answered: %+v", c.name, q2)
		}
		resp := question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`), Via: question.ViaCLI}
		if q.Kind == question.KindConfirm {
			resp.Value = json.RawMessage(`"yes"`)
		}
		if err := e.broker.Answer(q.ID, resp); err != nil {
			t.Fatal(err)
		}
		r := <-done
		if c.tool != ToolPermission {
			got, text, _ := decodeResult(t, r)
			if got["via"] != "cli" || got["answered_by"] != "human" {
				t.Errorf("%s: result %s, want via cli, answered_by human", c.name, text)
			}
		}
		rec, err := e.store.Get(context.Background(), q.ID)
		if err != nil || rec.Result == nil || rec.Result.Via != question.ViaCLI || rec.Result.DecidedBy != question.ByHuman {
			t.Errorf("%s: history %+v %v, want via cli by human", c.name, rec.Result, err)
		}
	}
	got, text, _ := call(t, context.Background(), s, ToolAskText, map[string]any{"question": "Branch name?"})
	if n := f.count(); n != 1 || got["via"] != "elicitation" {
		t.Fatalf("an ordinary question: %d forms, result %s", n, text)
	}
}
