package mcpbridge

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestJSONRPCKeyVariants pins what happens to duplicate and case-variant
// keys. The JSON-RPC envelope is mcp-go's: it decodes with encoding/json, so
// the last of two duplicates wins and keys match case-insensitively
// ("Method" is method). That only picks which request an authenticated
// client makes; our guard's call tracker decodes the same way, so it sees
// the same method and id as mcp-go. Tool arguments are ours and strict: a
// duplicate or case-variant argument is refused by name and asks nothing.
func TestJSONRPCKeyVariants(t *testing.T) {
	t.Parallel()
	e := newFuzzEnv(t)
	cases := []struct {
		name, body string
		calls      int64  // tool handler invocations
		asked      int64  // questions that reached the journal
		want       string // a substring of the response
	}{
		{"duplicate_method_last_wins", `{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/call","params":{"name":"notify","arguments":{"message":"m"}}}`, 1, 1, `"status":"pending"`},
		{"duplicate_id_last_wins", `{"jsonrpc":"2.0","id":2,"id":3,"method":"ping"}`, 0, 0, `"id":3,"result":{}`},
		{"case_variant_method_matches", `{"jsonrpc":"2.0","id":4,"Method":"tools/call","params":{"name":"notify","arguments":{"message":"m"}}}`, 1, 1, `"status":"pending"`},
		{"duplicate_tool_name_last_wins", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"ask_text","name":"notify","arguments":{"message":"m2"}}}`, 1, 1, `"status":"pending"`},
		{"duplicate_argument_refused", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"ask_confirm","arguments":{"question":"Delete /tmp/x?","question":"OK?"}}}`, 1, 0, `question: given twice`},
		{"case_variant_argument_refused", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"ask_confirm","arguments":{"question":"Delete /tmp/x?","Question":"OK?"}}}`, 1, 0, `Question: unknown argument; names are case-sensitive, did you mean \"question\"?`},
		{"escaped_duplicate_argument_refused", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"ask_text","arguments":{"question":"a","\u0071uestion":"b"}}}`, 1, 0, `question: given twice`},
		{"folded_s_argument_refused", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"ask_confirm","arguments":{"question":"q","de\u017ftructive":true}}}`, 1, 0, `unknown argument`},
	}
	for _, tc := range cases {
		calls, asked := e.calls.Load(), e.begins.Load()
		w := e.post(tc.body, nil)
		if w.Code != 200 || !strings.Contains(w.Body.String(), tc.want) {
			t.Errorf("%s: %d %s, want %s", tc.name, w.Code, w.Body, tc.want)
		}
		if n := e.calls.Load() - calls; n != tc.calls {
			t.Errorf("%s: %d tool calls, want %d", tc.name, n, tc.calls)
		}
		if n := e.begins.Load() - asked; n != tc.asked {
			t.Errorf("%s: %d questions asked, want %d", tc.name, n, tc.asked)
		}
	}
	// The guard's tracker reads the envelope as mcp-go does.
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	_ = json.Unmarshal([]byte(`{"id":1,"id":2,"Method":"ping","method":"tools/call"}`), &msg)
	if string(msg.ID) != "2" || msg.Method != "tools/call" {
		t.Fatalf("encoding/json no longer takes the last key: %s %s", msg.ID, msg.Method)
	}
}
