package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/question"
)

var update = flag.Bool("update", false, "rewrite the golden tool schemas in testdata/tools")

// TestToolSchemasGolden keeps every tool's definition, as tools/list sends
// it, under review: it is our public API to agents.
func TestToolSchemasGolden(t *testing.T) {
	e := newEnv(t, Config{})
	s := e.connect(t, "golden", nil)
	res, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		got, err := json.MarshalIndent(tool, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join("testdata", "tools", tool.Name+".json")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("missing golden %s (run go test ./mcpbridge -run Golden -update): %v", path, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s changed; review and run with -update:\n%s", tool.Name, got)
		}
		if tool.Title == "" || tool.Annotations == nil || tool.Annotations.DestructiveHint == nil || tool.Annotations.OpenWorldHint == nil || tool.OutputSchema == nil {
			t.Errorf("%s lacks a title, annotations or an output schema", tool.Name)
		}
	}
	if !slices.Equal(names, sorted(ToolNames)) && !slices.Equal(names, ToolNames) {
		t.Fatalf("tools %v, want %v", names, ToolNames)
	}
}

func sorted(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

// TestNoToolLetsAnAgentAnswer guards the safety rule: the tool list holds
// nothing that answers, lists or reads questions.
func TestNoToolLetsAnAgentAnswer(t *testing.T) {
	t.Parallel()
	for _, tool := range Tools() {
		for _, bad := range []string{"answer_question", "approve", "list_questions", "history", "pending"} {
			if strings.Contains(tool.Name, bad) {
				t.Errorf("tool %s looks like it lets the agent decide or read questions", tool.Name)
			}
		}
		var schema struct {
			Properties map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(tool.RawInputSchema, &schema); err != nil {
			t.Fatalf("tool %s: input schema is not JSON: %v", tool.Name, err)
		}
		if len(schema.Properties) == 0 {
			t.Errorf("tool %s: input schema has no properties, so nothing here was checked", tool.Name)
		}
		for p := range schema.Properties {
			if p == "action" && tool.Name == ToolApproval {
				continue // the title of the action to approve, not an answer
			}
			if p == "action" || p == "content" || p == "approved" || p == "answer" || p == "decision" || p == "behavior" {
				t.Errorf("tool %s takes %q: an agent could answer its own question", tool.Name, p)
			}
		}
	}
}

func TestBadArgumentsAreToolErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	s := e.connect(t, "bad-args", nil)
	ctx := context.Background()
	long := strings.Repeat("x", question.MaxMessage+1)
	opts := func(n int) []map[string]string {
		o := make([]map[string]string, n)
		for i := range o {
			o[i] = map[string]string{"label": strings.Repeat("o", i+1)}
		}
		return o
	}
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{ToolAskUser, map[string]any{}, "question: must not be empty"},
		{ToolAskUser, map[string]any{"question": long}, "question: at most 4096 characters, got 4097"},
		{ToolAskUser, map[string]any{"question": "q", "options": opts(4)}, "options: at most 3 suggested answers, got 4"},
		{ToolAskUser, map[string]any{"question": "q", "header": strings.Repeat("h", 65)}, "header: at most 64 characters, got 65"},
		{ToolAskChoice, map[string]any{"question": "q", "options": opts(1)}, "options: between 2 and 20 options, got 1"},
		{ToolAskChoice, map[string]any{"question": "q", "options": opts(21)}, "options: between 2 and 20 options, got 21"},
		{ToolAskChoice, map[string]any{"question": "q", "options": []map[string]string{{"label": "a"}, {"label": "a"}}}, `options[1].label: "a" repeats options[0].label`},
		{ToolAskMultiSelect, map[string]any{"question": "q", "options": opts(3), "min_selections": 3, "max_selections": 2}, "min_selections: 3 is above max_selections 2"},
		{ToolAskConfirm, map[string]any{"question": "q", "default": "maybe"}, `default: must be "yes" or "no"`},
		{ToolAskText, map[string]any{"question": "q", "min_length": 5, "max_length": 2}, "min_length: 5 is above max_length 2"},
		{ToolAskForm, map[string]any{"message": "m", "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"pw": map[string]any{"type": "string", "pattern": ".*"}}}}, `keyword "pattern" is not supported`},
		{ToolAskForm, map[string]any{"message": "m"}, "requestedSchema: a form needs a requestedSchema"},
		{ToolAskUser, map[string]any{"question": 42}, "question: must be a string"},
		{ToolAskUser, map[string]any{"question": "q", "Question": "other"}, `Question: unknown argument; names are case-sensitive, did you mean "question"?`},
		{ToolAskUser, map[string]any{"question": "q", "approved": true}, "approved: unknown argument"},
		{ToolGetAnswer, map[string]any{"question_id": "nope"}, `question_id: no question "nope"`},
		{ToolGetAnswer, map[string]any{}, "question_id: required"},
		{ToolGetAnswer, map[string]any{"question_id": "x", "wait_seconds": -1}, "wait_seconds: must be between 0 and 3600"},
		{ToolCancelQuestion, map[string]any{"question_id": "nope"}, `question_id: no question "nope"`},
	}
	for _, tc := range cases {
		_, text, isErr := call(t, ctx, s, tc.tool, tc.args)
		if !isErr || !strings.Contains(text, tc.want) {
			t.Errorf("%s %v: isError=%v text %q, want %q", tc.tool, tc.args, isErr, text, tc.want)
		}
	}
	if n := len(e.broker.Pending()); n != 0 {
		t.Fatalf("bad calls left %d questions pending", n)
	}
}

// TestDuplicateKeys sends raw JSON that a map cannot express: the same
// argument twice. It is refused rather than letting the last one win.
func TestDuplicateKeys(t *testing.T) {
	t.Parallel()
	var v struct{ Question string }
	err := decodeArgs(json.RawMessage(`{"question":"rm -rf /tmp/x?","question":"ok?"}`), []string{"question"}, &v)
	if err == nil || !strings.Contains(err.Error(), "question: given twice") {
		t.Fatalf("got %v", err)
	}
}

func FuzzToolArguments(f *testing.F) {
	seeds := []string{`{}`, `{"question":"q"}`, `{"question":"q","Question":"r"}`, `{"question":"q","question":"r"}`,
		`{"question":"q","options":[{"label":"a"},{"label":"b"}],"timeout_seconds":5}`, `{"message":"m","requestedSchema":{"type":"object","properties":{}}}`,
		`[]`, `null`, `{"question":"\u017fq"}`, `{"question_id":"x","wait_seconds":1e99}`,
		`{"tool_name":"Bash","input":{"command":"ls"},"tool_use_id":"t"}`, `{"tool_name":"Edit","input":{"file_path":"a","old_string":"x","new_string":"y"}}`,
		`{"tool_name":"Write","input":{"file_path":"a","content":"` + "```" + `"}}`}
	for _, s := range seeds {
		for _, tool := range ToolNames {
			f.Add(tool, []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, tool string, raw []byte) {
		if !slices.Contains(ToolNames, tool) || tool == ToolGetAnswer || tool == ToolCancelQuestion {
			return
		}
		if tool == ToolPermission {
			p, err := parsePermission(raw)
			if err != nil {
				return
			}
			q := permissionQuestion(p)
			q.Tool = ToolPermission
			if len(p.ToolName) <= question.MaxAction && utf8.ValidString(p.ToolName) {
				if err := q.Validate(); err != nil {
					t.Fatalf("a permission request %s made an invalid question: %v", raw, err)
				}
			}
			return
		}
		a, err := specNamed(t, tool).parseAsk(raw)
		if err != nil {
			return
		}
		a.q.Deadline = a.common.deadline(time.Now(), time.Minute)
		if d := time.Until(a.q.Deadline); d < 9*time.Second || d > question.MaxTimeout+time.Second {
			t.Fatalf("deadline %v out of bounds", d)
		}
		_ = a.q.Validate()
	})
}

var _ = mcp.CallToolParams{}

// TestEverySpecIsComplete: each tool is defined, named, served, and an ask
// tool has an arguments type whose fields' errors can be named, so that a
// tool added to toolSpecs is whole or fails here, not on its first call.
func TestEverySpecIsComplete(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, s := range toolSpecs {
		if s.name == "" || s.define == nil || s.serve == nil || seen[s.name] {
			t.Fatalf("incomplete or repeated spec %+v", s)
		}
		seen[s.name] = true
		if got := s.define(s.name).Name; got != s.name {
			t.Errorf("%s defines a tool named %q", s.name, got)
		}
		asks := s.name != ToolGetAnswer && s.name != ToolCancelQuestion && s.name != ToolPermission
		if asks != (s.args != nil) {
			t.Errorf("%s: ask tool %v but arguments type %v", s.name, asks, s.args != nil)
		}
	}
	if len(ToolNames) != len(toolSpecs) || len(ToolNames) != 11 {
		t.Fatalf("ToolNames %v for %d specs, want the 11 tools", ToolNames, len(toolSpecs))
	}
	for i, name := range ToolNames {
		if toolSpecs[i].name != name {
			t.Errorf("ToolNames[%d] = %s, spec %s", i, name, toolSpecs[i].name)
		}
	}
}
