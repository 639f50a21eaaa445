package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/question"
)

// TestStdio_EveryTool runs every tool through 'asktray stdio' against a real
// app, with the control socket playing the person (on a pseudo-terminal for
// the answers that approve).
func TestStdio_EveryTool(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	startApp(t, dir)
	cs, stderr, err := stdioClient(t, dir)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	ctl := control.NewClient(filepath.Join(dir, datadir.SocketFile))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	opts := []map[string]string{{"label": "a"}, {"label": "b"}, {"label": "c"}}
	schema := map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer"}, "ok": map[string]any{"type": "boolean"}}}
	cases := []struct {
		tool   string
		args   map[string]any
		action question.Action
		value  string
		field  string
		want   string
	}{
		{"ask_user", map[string]any{"question": "q1", "options": opts}, question.Accept, `"b"`, "source", `"choice"`},
		{"ask_confirm", map[string]any{"question": "q2", "destructive": true}, question.Accept, `"yes"`, "confirmed", `true`},
		{"ask_choice", map[string]any{"question": "q3", "options": opts}, question.Accept, `"c"`, "selected", `["c"]`},
		{"ask_multi_select", map[string]any{"question": "q4", "options": opts}, question.Accept, `["c","a"]`, "selected", `["c","a"]`},
		{"ask_text", map[string]any{"question": "q5", "multiline": true}, question.Accept, `"two\nlines"`, "answer", `"two\nlines"`},
		{"ask_form", map[string]any{"message": "q6", "requestedSchema": schema}, question.Accept, `{"n":3,"ok":false}`, "content", `{"n":3,"ok":false}`},
		{"ask_form", map[string]any{"message": "q7", "requestedSchema": schema}, question.Decline, ``, "action", `"decline"`},
		{"request_approval", map[string]any{"action": "q8", "details": "`make deploy`", "risk": "low"}, question.Accept, `"allow"`, "decision", `"allow"`},
		{"request_approval", map[string]any{"action": "q9"}, question.Decline, ``, "decision", `"deny"`},
		{"permission_prompt", map[string]any{"tool_name": "Bash", "input": map[string]any{"command": "ls"}, "tool_use_id": "toolu_1"}, question.Accept, `"allow"`, "updatedInput", `{"command":"ls"}`},
	}
	for _, tc := range cases {
		done := make(chan map[string]any, 1)
		go func() {
			r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tc.tool, Arguments: tc.args})
			if err != nil {
				t.Errorf("%s: %v", tc.tool, err)
				done <- nil
				return
			}
			var m map[string]any
			b, _ := json.Marshal(r.StructuredContent)
			_ = json.Unmarshal(b, &m)
			done <- m
		}()
		var pend []question.Question
		for len(pend) == 0 {
			time.Sleep(20 * time.Millisecond)
			pend, _ = ctl.Pending(ctx)
		}
		req := control.AnswerRequest{Action: tc.action}
		if tc.value != "" {
			req.Value = json.RawMessage(tc.value)
		}
		if pend[0].Approves(question.Response{Action: req.Action, Value: req.Value}) {
			// Only the person approves: on a terminal, typing the word.
			approveOnPTY(t, dir, pend[0].ID, tc.value)
		} else if _, err := ctl.Answer(ctx, pend[0].ID, req); err != nil {
			t.Fatalf("%s: answer: %v", tc.tool, err)
		}
		got := <-done
		if b, _ := json.Marshal(got[tc.field]); string(b) != tc.want {
			t.Errorf("%s: %s = %s, want %s (%v)", tc.tool, tc.field, b, tc.want, got)
		}
	}

	// notify returns at once; get_answer and cancel_question act on its id.
	call := func(tool string, args map[string]any) map[string]any {
		r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
		if err != nil || r.IsError {
			t.Fatalf("%s: %v %+v", tool, err, r)
		}
		var m map[string]any
		b, _ := json.Marshal(r.StructuredContent)
		_ = json.Unmarshal(b, &m)
		return m
	}
	n := call("notify", map[string]any{"message": "Build finished"})
	id, _ := n["question_id"].(string)
	if n["status"] != "pending" || id == "" {
		t.Fatalf("notify: %v", n)
	}
	if g := call("get_answer", map[string]any{"question_id": id, "wait_seconds": 0}); g["status"] != "pending" {
		t.Fatalf("get_answer: %v", g)
	}
	if c := call("cancel_question", map[string]any{"question_id": id}); c["status"] != "withdrawn" {
		t.Fatalf("cancel_question: %v", c)
	}
}
