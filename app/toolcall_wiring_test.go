package app

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
)

// TestPermissionPromptAndHookAskTheSame: the running app asks the same
// approval for a tool call whether it arrives as permission_prompt over MCP
// or through an agent's permission hook (both build it with
// toolcall.Approval); only who asked differs. The hook's request names no
// working directory and needs no preface (a Codex request in its terminal),
// as permission_prompt's never does.
func TestPermissionPromptAndHookAskTheSame(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "d")
	env := runApp(t, dir, "127.0.0.1:0")
	asked := make(chan question.Question, 2)
	env.Broker.Subscribe(func(ev question.Event) {
		if ev.Type == question.EventAsked {
			asked <- ev.Question
		}
	})
	next := func() question.Question {
		select {
		case q := <-asked:
			return q
		case <-time.After(20 * time.Second):
			t.Fatal("nothing asked")
		}
		return question.Question{}
	}
	ctx := context.Background()
	for _, tc := range []struct{ tool, input string }{
		{"Bash", `{"command":"rm -rf build && make","description":"Rebuild from scratch","timeout":120000}`},
		{"Edit", `{"file_path":"/home/u/app/main.go","old_string":"a := 1","new_string":"a := 2"}`},
		{"mcp__db__query", `{"sql":"DROP TABLE orders","extra":[1,2]}`},
	} {
		byMCP := viaPermissionPrompt(ctx, t, env, tc.tool, tc.input, next)
		c := control.NewClient(filepath.Join(dir, datadir.SocketFile))
		replied := make(chan hook.Reply, 1)
		go func() {
			rep, err := c.Hook(ctx, hook.Request{WaitMS: 30000, Payload: hook.Payload{Agent: hook.Codex, Event: hook.PermissionRequest,
				SessionID: "s1", ToolName: tc.tool, ToolInput: json.RawMessage(tc.input)}})
			if err != nil {
				t.Error(err)
			}
			replied <- rep
		}()
		byHook := next()
		if err := env.Broker.Answer(byHook.ID, question.Response{Action: question.Decline}); err != nil {
			t.Fatal(err)
		}
		<-replied
		if byMCP.Tool != "permission_prompt" || byHook.Tool != hook.Tool || byHook.Client.Name != string(hook.Codex) ||
			byMCP.Origin != question.OriginPermission || byHook.Origin != question.OriginPermission {
			t.Fatalf("%s: asked by %s/%s and %s/%s", tc.tool, byMCP.Client.Name, byMCP.Tool, byHook.Client.Name, byHook.Tool)
		}
		// The input is the same JSON; the control channel's encoding may
		// escape &, < and > in it.
		if !sameJSON(byMCP.Input, byHook.Input) || !sameJSON(byMCP.Input, json.RawMessage(tc.input)) {
			t.Errorf("%s: inputs %s and %s", tc.tool, byMCP.Input, byHook.Input)
		}
		for _, q := range []*question.Question{&byMCP, &byHook} {
			q.ID, q.Client, q.Tool, q.Created, q.Deadline, q.Input = "", question.Client{}, "", time.Time{}, time.Time{}, nil
		}
		if !reflect.DeepEqual(byMCP, byHook) {
			t.Errorf("%s: permission_prompt asked\n%+v\nthe hook asked\n%+v", tc.tool, byMCP, byHook)
		}
		if byMCP.Action != tc.tool || byMCP.Details == "" || byMCP.Risk == "" {
			t.Errorf("%s: asked %+v", tc.tool, byMCP)
		}
	}
}

// viaPermissionPrompt calls permission_prompt for tool with input, returns
// the question it asked and declines it.
func viaPermissionPrompt(ctx context.Context, t *testing.T, env Env, tool, input string, next func() question.Question) question.Question {
	t.Helper()
	mcpURL, tok := env.Endpoint()
	c := mcp.NewClient(&mcp.Implementation{Name: "claude-code", Version: "1.0"}, nil)
	s, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: mcpURL, HTTPClient: &http.Client{Transport: &recorder{token: tok}}, MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	done := make(chan error, 1)
	go func() {
		_, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "permission_prompt", Arguments: map[string]any{
			"tool_name": tool, "input": json.RawMessage(input), "tool_use_id": "toolu_1"}})
		done <- err
	}()
	q := next()
	if err := env.Broker.Answer(q.ID, question.Response{Action: question.Decline}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return q
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}
