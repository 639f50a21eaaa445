package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/toolinput"
)

// recordedCall is one testdata/claude-code file: the arguments Claude Code
// sends to --permission-prompt-tool, in the input shapes of its tools.
type recordedCall struct {
	ToolName  string          `json:"tool_name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
}

func loadRecorded(t *testing.T, name string) (json.RawMessage, recordedCall) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "claude-code", name))
	if err != nil {
		t.Fatal(err)
	}
	var rc recordedCall
	if err := json.Unmarshal(raw, &rc); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSpace(raw), rc
}

// callPermission calls permission_prompt with raw arguments and returns the
// decision Claude Code would parse from the first text content.
func callPermission(t *testing.T, ctx context.Context, s *mcp.ClientSession, raw json.RawMessage) (permissionResult, string) {
	t.Helper()
	r, err := s.CallTool(ctx, &mcp.CallToolParams{Name: ToolPermission, Arguments: raw})
	if err != nil {
		t.Fatal(err)
	}
	if r.IsError || len(r.Content) == 0 {
		t.Fatalf("permission_prompt: isError %v, content %v", r.IsError, r.Content)
	}
	tc, ok := r.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("first content is %T, want text", r.Content[0])
	}
	var pr permissionResult
	dec := json.NewDecoder(strings.NewReader(tc.Text))
	dec.DisallowUnknownFields() // exactly Claude Code's fields, nothing else
	if err := dec.Decode(&pr); err != nil {
		t.Fatalf("text %q is not a permission decision: %v", tc.Text, err)
	}
	return pr, tc.Text
}

// TestPermissionPromptRecordedInputs answers each recorded Claude Code
// request, allowing and denying, and checks the exact text Claude Code gets.
func TestPermissionPromptRecordedInputs(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		cases := []struct {
			file        string
			wantDetails []string
			wantReason  string
			wantRisk    question.Risk
		}{
			{"bash.json", []string{"```sh\nrm -rf build/ && go test ./...\n```"}, "Remove the build directory and run all tests", question.RiskHigh},
			{"bash_background.json", []string{"```sh\nnpm run dev -- --port 5173 | tee `date +%s`.log\n```", "Timeout: 10 min", "Runs in the background."}, "Start the dev server", question.RiskMedium},
			{"edit.json", []string{"**File:** `/home/ada/src/shop/internal/cart/cart.go`", "```diff\n- func (c *Cart) Total() int {\n- \treturn c.sum\n+ func (c *Cart) Total() int {\n+ \tc.mu.Lock()"}, "", question.RiskMedium},
			{"edit_replace_all.json", []string{"`/home/ada/src/shop/README.md` (every occurrence)", "- shopd\n+ shop-server"}, "", question.RiskMedium},
			{"write.json", []string{"**File:** `/home/ada/src/shop/.github/workflows/ci.yml` (8 lines, 133 bytes, replaces the file if it exists)", "```\nname: ci\non: [push]"}, "", question.RiskMedium},
			{"multi_edit.json", []string{"**File:** `/home/ada/src/shop/go.mod`, 2 edits", "```diff\n- go 1.22\n+ go 1.24\n```", "+ github.com/stretchr/testify v1.10.0"}, "", question.RiskMedium},
			{"web_fetch.json", []string{"**URL:** `https://pkg.go.dev/log/slog`", "How do I add a version attribute"}, "", question.RiskMedium},
			{"mcp_tool.json", []string{"```json\n{\n  \"owner\": \"ada\",", "\"title\": \"Cart total races\""}, "", question.RiskMedium},
		}
		e := newPolicyEnv(t, Config{}).at(rev)
		s := e.connect(t, "claude-code", nil)
		ctx := context.Background()
		for _, c := range cases {
			raw, rc := loadRecorded(t, c.file)
			for _, allow := range []bool{true, false} {
				resp := accept(`"allow"`)
				if !allow {
					resp = question.Response{Action: question.Decline, Note: "not on this branch", Via: question.ViaDialog}
				}
				asked := e.person(t, resp)
				pr, text := callPermission(t, ctx, s, raw)
				id := <-asked
				if allow {
					var want bytes.Buffer
					_ = json.Compact(&want, rc.Input)
					if wantText := `{"behavior":"allow","updatedInput":` + want.String() + `}`; text != wantText {
						t.Errorf("%s allow: text\n%s\nwant\n%s", c.file, text, wantText)
					}
				} else if pr.Behavior != "deny" || pr.UpdatedInput != nil || !strings.Contains(pr.Message, "not on this branch") || !strings.Contains(pr.Message, id) {
					t.Errorf("%s deny: %s", c.file, text)
				}
				q, _, err := e.broker.Get(idOf(id))
				if err != nil {
					t.Fatal(err)
				}
				if q.Kind != question.KindApproval || q.Tool != ToolPermission || q.Origin != question.OriginPermission || q.Action != rc.ToolName || q.Message != rc.ToolName || q.Risk != c.wantRisk || q.AgentReason != c.wantReason {
					t.Errorf("%s: question %+v", c.file, q)
				}
				if q.Risk == question.RiskHigh && q.RiskWhy == "" {
					t.Errorf("%s: high with no reason", c.file)
				}
				if !bytes.Equal(q.Input, mustCompact(rc.Input)) {
					t.Errorf("%s: the question carries input %s", c.file, q.Input)
				}
				for _, d := range c.wantDetails {
					if !strings.Contains(q.Details, d) {
						t.Errorf("%s: details lack %q:\n%s", c.file, d, q.Details)
					}
				}
			}
		}
	})
}

func TestPermissionPromptRuleDecidesWithoutDialog(t *testing.T) {
	t.Parallel()
	e := newPolicyEnv(t, Config{})
	// The recorded command (rm -rf build/ && go test ./...) is high risk:
	// only an exact rule made with the high-risk tick allows it.
	rule := addRule(t, e.pol, policy.Rule{Client: "claude-code", Action: "permission_prompt:Bash", Decision: policy.Allow,
		Match: policy.MatchCommand, Pattern: "rm -rf build/ && go test ./...", HighRisk: true})
	addRule(t, e.pol, policy.Rule{Client: "claude-code", Action: "permission_prompt:Write", Decision: policy.Deny, Note: "CI files are reviewed by hand"})
	s := e.connect(t, "claude-code", nil)
	ctx := context.Background()
	raw, rc := loadRecorded(t, "bash.json")
	pr, _ := callPermission(t, ctx, s, raw)
	if pr.Behavior != "allow" || string(pr.UpdatedInput) != string(mustCompact(rc.Input)) {
		t.Fatalf("rule allow: %s", pr.UpdatedInput)
	}
	raw, _ = loadRecorded(t, "write.json")
	pr, _ = callPermission(t, ctx, s, raw)
	if pr.Behavior != "deny" || !strings.Contains(pr.Message, "CI files are reviewed by hand") || !strings.Contains(pr.Message, "rule") {
		t.Fatalf("rule deny: %+v", pr)
	}
	if n := e.asked.Load(); n != 0 {
		t.Fatalf("%d rule-decided prompts were shown", n)
	}
	_ = rule
}

// With no answer inside the blocking window, the prompt is denied with a
// message naming the open question; the retry re-attaches and collects the answer.
func TestPermissionPromptPendingThenRetry(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newPolicyEnv(t, Config{Windows: []WindowRule{{Match: "claude-code", Window: 300 * time.Millisecond}}}).at(rev)
		s := e.connect(t, "claude-code", nil)
		ctx := context.Background()
		raw, rc := loadRecorded(t, "edit.json")
		pr, text := callPermission(t, ctx, s, raw)
		p := e.waitPending(t, 1)
		id := p[0].ID
		if pr.Behavior != "deny" || !strings.Contains(pr.Message, id) || !strings.Contains(pr.Message, "stays open") || !strings.Contains(pr.Message, "retry") {
			t.Fatalf("pending: %s", text)
		}
		if err := e.broker.Answer(idOf(id), accept(`"allow"`)); err != nil {
			t.Fatal(err)
		}
		pr, _ = callPermission(t, ctx, s, raw)
		if pr.Behavior != "allow" || string(pr.UpdatedInput) != string(mustCompact(rc.Input)) {
			t.Fatalf("retry: %+v", pr)
		}
		if n := e.asked.Load(); n != 1 {
			t.Fatalf("%d questions asked; the retry must re-attach to the first", n)
		}
	})
}

func TestPermissionPromptAwayRejects(t *testing.T) {
	t.Parallel()
	e := newPolicyEnv(t, Config{})
	e.pol.SetAwayMode(policy.AwayReject)
	if err := e.pol.SetAway(true); err != nil {
		t.Fatal(err)
	}
	s := e.connect(t, "claude-code", nil)
	raw, _ := loadRecorded(t, "bash.json")
	pr, text := callPermission(t, context.Background(), s, raw)
	if pr.Behavior != "deny" || !strings.Contains(pr.Message, "away") {
		t.Fatalf("away: %s", text)
	}
}

func TestPermissionPromptBadInputIsDenied(t *testing.T) {
	t.Parallel()
	e := newPolicyEnv(t, Config{})
	s := e.connect(t, "claude-code", nil)
	for raw, want := range map[string]string{
		`{"input":{}}`: "tool_name: required",
		`{"tool_name":"Bash","input":"rm -rf /"}`:                     "input: must be a JSON object",
		`{"tool_name":"Bash","tool_name":"Read"}`:                     "tool_name: given twice",
		`{"tool_name":"` + strings.Repeat("T", 201) + `","input":{}}`: "tool_name: at most 200 characters",
	} {
		pr, text := callPermission(t, context.Background(), s, json.RawMessage(raw))
		if pr.Behavior != "deny" || !strings.Contains(pr.Message, want) {
			t.Errorf("%s: %s, want a deny naming %q", raw, text, want)
		}
	}
	// Keys Claude Code may add later are ignored, not refused.
	asked := e.person(t, accept(`"allow"`))
	pr, _ := callPermission(t, context.Background(), s, json.RawMessage(`{"tool_name":"Read","input":{"file_path":"/etc/hosts"},"tool_use_id":"toolu_1","permission_suggestions":[]}`))
	<-asked
	if pr.Behavior != "allow" || string(pr.UpdatedInput) != `{"file_path":"/etc/hosts"}` {
		t.Fatalf("extra key: %+v", pr)
	}
	if n := e.asked.Load(); n != 1 {
		t.Fatalf("%d asked; bad requests must ask nothing", n)
	}
}

func mustCompact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	_ = json.Compact(&b, raw)
	return b.Bytes()
}

// A key the renderer does not know is shown in the dialog, and only the
// very same input collects an earlier answer: a retry that differs in a
// hidden key, or beyond the part of a long file the dialog shows, asks anew.
func TestPermissionPromptShowsAndFingerprintsWholeInput(t *testing.T) {
	t.Parallel()
	e := newPolicyEnv(t, Config{Windows: []WindowRule{{Match: "claude-code", Window: 200 * time.Millisecond}}})
	s := e.connect(t, "claude-code", nil)
	ctx := context.Background()
	long := strings.Repeat("x", 3*toolinput.MaxShown)
	for i, pair := range [][2]string{
		{`{"tool_name":"Bash","input":{"command":"ls","dangerouslyDisableSandbox":false}}`,
			`{"tool_name":"Bash","input":{"command":"ls","dangerouslyDisableSandbox":true}}`},
		{`{"tool_name":"Write","input":{"file_path":"a.txt","content":"` + long + `a"}}`,
			`{"tool_name":"Write","input":{"file_path":"a.txt","content":"` + long + `b"}}`},
	} {
		pr, _ := callPermission(t, ctx, s, json.RawMessage(pair[0]))
		p := e.waitPending(t, 1)
		if pr.Behavior != "deny" {
			t.Fatalf("%d: first call %+v, want a pending deny", i, pr)
		}
		if i == 0 && !strings.Contains(p[0].Details, "- `dangerouslyDisableSandbox`: `false`") {
			t.Errorf("hidden key not shown:\n%s", p[0].Details)
		}
		if err := e.broker.Answer(p[0].ID, accept(`"allow"`)); err != nil {
			t.Fatal(err)
		}
		asked := e.person(t, question.Response{Action: question.Decline, Via: question.ViaDialog})
		pr, _ = callPermission(t, ctx, s, json.RawMessage(pair[1]))
		id := <-asked
		if id == p[0].ID || pr.Behavior != "deny" {
			t.Fatalf("%d: a retry with a different input collected the earlier allow: %+v", i, pr)
		}
		q, _, _ := e.broker.Get(idOf(id))
		if i == 0 && !strings.Contains(q.Details, "- **⚠ `dangerouslyDisableSandbox`: `true`** (changes what runs)") {
			t.Errorf("hidden key not shown:\n%s", q.Details)
		}
	}
}

// The renderer's limits are the question model's, so its output always validates.
func TestToolInputLimitsMatchQuestion(t *testing.T) {
	t.Parallel()
	if toolinput.MaxDetails != question.MaxDetails || toolinput.MaxReason != question.MaxAgentReason {
		t.Fatalf("toolinput limits %d/%d, question limits %d/%d", toolinput.MaxDetails, toolinput.MaxReason, question.MaxDetails, question.MaxAgentReason)
	}
}
