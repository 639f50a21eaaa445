package toolcall

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

// TestImports: the approval an agent's tool call becomes is built from the
// question model, the rendering of a tool's input and its grade, and
// nothing else, so that the MCP bridge and the hook service can share it.
func TestImports(t *testing.T) {
	t.Parallel()
	const m = "github.com/asktray/asktray/"
	testkit.ImportsOnly(t, ".", m+"app/question", m+"app/risk", m+"app/toolinput", m+"app/shellcmd", m+"app/ellipsis", "mvdan.cc/sh/v3")
}

func TestApproval(t *testing.T) {
	t.Parallel()
	in := json.RawMessage(`{"command":"rm -rf build","description":"Clean"}`)
	q := Approval(Call{Tool: "bash", RenderAs: "Bash", Input: in, Cwd: "/home/u/a`b", Preface: "_asks too_\n\n", AgentRules: []string{"Allow rm"}})
	if q.Kind != question.KindApproval || q.Action != "bash" || q.Message != "bash" || q.Cwd != "/home/u/a`b" || string(q.Input) != string(in) ||
		q.AgentReason != "Clean" || q.Risk != question.RiskHigh || !strings.Contains(q.RiskWhy, "deletes files recursively") ||
		len(q.AgentRules) != 1 || q.AgentRules[0].Label != "Allow rm" {
		t.Fatalf("approval %+v", q)
	}
	if !strings.HasPrefix(q.Details, "_asks too_\n\n**Working directory:** `/home/u/a'b`\n\n```sh\nrm -rf build\n```") {
		t.Fatalf("details %q", q.Details)
	}
	q.Client, q.Tool = question.Client{Name: "codex"}, "hook"
	if err := q.Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestApprovalBounds: whatever the agent sends, the question is within the
// model's limits, and only an object within question.MaxInput goes with it.
func TestApprovalBounds(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", question.MaxDetails+10)
	huge := json.RawMessage(`{"command":"rm -rf /tmp/` + strings.Repeat("x", question.MaxInput) + `"}`)
	for _, tc := range []struct {
		name  string
		c     Call
		input bool
		why   int // 0: no reason, 1: maybe one, 2: a reason
	}{
		{"long tool name", Call{Tool: strings.Repeat("T", question.MaxAction+5), Input: json.RawMessage(`{}`)}, true, 1},
		{"long details", Call{Tool: "Write", Input: json.RawMessage(`{"file_path":"a","content":"x"}`), Preface: long}, true, 1},
		{"input over the limit", Call{Tool: "Bash", Input: huge}, false, 2},
		{"not an object", Call{Tool: "Bash", Input: json.RawMessage(`["rm -rf /"]`)}, false, 0},
		{"not JSON", Call{Tool: "Bash", Input: json.RawMessage(`{"command":`)}, false, 0},
		{"long cwd", Call{Tool: "Bash", Input: json.RawMessage(`{"command":"ls"}`), Cwd: "/" + strings.Repeat("d", question.MaxCwd)}, true, 1},
	} {
		q := Approval(tc.c)
		q.Client, q.Tool = question.Client{Name: "claude-code"}, "permission_prompt"
		if err := q.Validate(); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		if (q.Input != nil) != tc.input || (tc.why == 0 && q.RiskWhy != "") || (tc.why == 2 && q.RiskWhy == "") {
			t.Errorf("%s: input %d bytes, why %q (risk %s)", tc.name, len(q.Input), q.RiskWhy, q.Risk)
		}
		if n := utf8.RuneCountInString(q.Action); n > question.MaxAction {
			t.Errorf("%s: action of %d runes", tc.name, n)
		}
		if utf8.RuneCountInString(q.Details) > question.MaxDetails || (tc.c.Preface == long) != strings.HasSuffix(q.Details, cutNote) {
			t.Errorf("%s: details of %d runes, cut %v", tc.name, utf8.RuneCountInString(q.Details), strings.HasSuffix(q.Details, cutNote))
		}
		if len(tc.c.Cwd) > question.MaxCwd && q.Cwd != "" {
			t.Errorf("%s: a cwd past the limit was kept", tc.name)
		}
	}
}

// TestApprovalCut: an approval whose details leave part of the input out
// says so (issue 33 item 8); one shown in full does not.
func TestApprovalCut(t *testing.T) {
	t.Parallel()
	long := json.RawMessage(`{"command":"` + strings.Repeat("x", 20129) + `"}`)
	if q := Approval(Call{Tool: "Bash", Input: long}); !q.Cut {
		t.Error("a 20,129-character command is not marked cut")
	}
	if q := Approval(Call{Tool: "Bash", Input: json.RawMessage(`{"command":"ls"}`)}); q.Cut {
		t.Error("a short command is marked cut")
	}
	if q := Approval(Call{Tool: "Write", Input: json.RawMessage(`{"file_path":"a","content":"x"}`), Preface: strings.Repeat("é", question.MaxDetails+10)}); !q.Cut {
		t.Error("details cut to the model's limit are not marked cut")
	}
}
