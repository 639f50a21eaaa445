package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
)

// TestHistory_SaysTheAgentHadAlreadyProceeded (finding 2 of issue 25):
// Claude Code 2.1.332's real PermissionRequest is denied on the command
// line, then the same call's real PostToolUse shows the command ran; 'asktray
// history' shows the decline and that the agent had already proceeded, and
// --json carries it as afterwards.
func TestHistory_SaysTheAgentHadAlreadyProceeded(t *testing.T) {
	t.Parallel()
	h := newHookApp(t)
	real := func(file string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "hook", "testdata", "claude-code", "real", file+".json"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	run := goHook(real("PermissionRequest"), "claude-code", "--data-dir", h.dir)
	q := wait(t, h.asked)
	if err := h.b.Answer(q.ID, question.Response{Action: question.Decline, Via: question.ViaCLI}); err != nil {
		t.Fatal(err)
	}
	if r := wait(t, run); !strings.Contains(r.out, `"behavior":"deny"`) {
		t.Fatalf("hook %+v", r)
	}
	if r := runHook(real("PostToolUse"), string(hook.ClaudeCode), "--data-dir", h.dir); r.code != 0 || r.out != "" {
		t.Fatalf("PostToolUse %+v", r)
	}
	var out, errOut bytes.Buffer
	if code := Main(context.Background(), []string{"history", "--data-dir", h.dir}, IO{In: strings.NewReader(""), Out: &out, Err: &errOut}, nil); code != 0 {
		t.Fatalf("history: %d %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "Denied; agent had already proceeded") || !strings.Contains(out.String(), "cli") {
		t.Fatalf("history:\n%s", out.String())
	}
	out.Reset()
	if code := Main(context.Background(), []string{"history", "--json", "--data-dir", h.dir}, IO{In: strings.NewReader(""), Out: &out, Err: &errOut}, nil); code != 0 ||
		!strings.Contains(out.String(), `"afterwards": "agent_proceeded"`) {
		t.Fatalf("history --json: %d\n%s", code, out.String())
	}
}
