package mcpbridge

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// rpcReply is a JSON-RPC response read out of a Streamable HTTP body.
type rpcReply struct {
	Result map[string]any `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func replyOf(t *testing.T, body string) rpcReply {
	t.Helper()
	if i := strings.LastIndex(body, "data: "); i >= 0 {
		body = body[i+len("data: "):]
	}
	var r rpcReply
	if err := json.Unmarshal([]byte(strings.TrimSpace(body)), &r); err != nil {
		t.Fatalf("not a JSON-RPC response: %q: %v", body, err)
	}
	return r
}

// TestTasksNotOffered pins what a client that wants tasks gets, at both
// revisions, since Asktray offers none (mcp-go v1.2.1's 2025-11-25 tasks
// end their context when the task is created,
// https://github.com/mark3labs/mcp-go/issues/897; the 2026-07-28 extension
// io.modelcontextprotocol/tasks is the open
// https://github.com/mark3labs/mcp-go/pull/987): no tasks capability or
// extension is declared; a tools/call that asks for a task anyway (task:
// {ttl}) is served as a plain call, with the plain result (here pending,
// with the question_id for get_answer), never a CreateTaskResult; and
// tasks/get, tasks/list, tasks/result and tasks/cancel are unknown methods
// (-32601).
func TestTasksNotOffered(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{DefaultWindow: time.Second})
	ctx := context.Background()
	const task = `,"task":{"ttl":60000}`
	args := `{"question":"Ship it?","wait":false}`

	// 2025-11-25: initialize declares no tasks.
	init, err := rawPost(ctx, e.url, "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",`+
		`"capabilities":{"tasks":{"requests":{"elicitation":{"create":{}}}}},"clientInfo":{"name":"task-client","version":"1"}}}`)
	if err != nil {
		t.Fatal(err)
	}
	if caps, _ := replyOf(t, init).Result["capabilities"].(map[string]any); caps == nil || caps["tasks"] != nil || caps["tools"] == nil {
		t.Fatalf("initialize capabilities: %s", init)
	}
	sid := rawInit(t, e.url, "task-client")
	out, err := rawPost(ctx, e.url, sid, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+ToolAskConfirm+`","arguments":`+args+task+`}}`)
	if err != nil {
		t.Fatal(err)
	}
	plainResult(t, "2025-11-25", out)
	for i, m := range []string{"tasks/get", "tasks/list", "tasks/result", "tasks/cancel"} {
		out, err := rawPost(ctx, e.url, sid, `{"jsonrpc":"2.0","id":`+string(rune('2'+i))+`,"method":"`+m+`","params":{"taskId":"t1"}}`)
		if r := replyOf(t, out); err != nil || r.Error == nil || r.Error.Code != -32601 {
			t.Errorf("2025-11-25 %s: %s %v, want error -32601", m, out, err)
		}
	}

	// 2026-07-28: a client that names the tasks extension gets the same.
	body := strings.Replace(modernCall(1, ToolAskConfirm, args, "k-0123456789abcdef-tasks"), `"io.modelcontextprotocol/clientCapabilities":{}`,
		`"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}`, 1)
	body = strings.Replace(body, `,"_meta":`, task+`,"_meta":`, 1)
	out, err = postModern(ctx, e.url, ToolAskConfirm, body)
	if err != nil {
		t.Fatal(err)
	}
	plainResult(t, "2026-07-28", out)
	get := `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"t1","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientInfo":{"name":"raw-modern","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.url, strings.NewReader(get))
	for k, v := range map[string]string{"Authorization": "Bearer " + testToken, "Content-Type": "application/json",
		"Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": modern, "Mcp-Method": "tasks/get"} {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if r := replyOf(t, string(b)); r.Error == nil || r.Error.Code != -32601 {
		t.Errorf("2026-07-28 tasks/get: %s, want error -32601", b)
	}
}

// plainResult checks that out is a plain tool result (pending, with a
// question_id), not a task.
func plainResult(t *testing.T, rev, out string) {
	t.Helper()
	r := replyOf(t, out)
	sc, _ := r.Result["structuredContent"].(map[string]any)
	if r.Error != nil || r.Result["task"] != nil || sc["status"] != "pending" || sc["question_id"] == "" {
		t.Fatalf("%s tools/call with task: %s, want the plain pending result", rev, out)
	}
}
