package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/question"
)

// TestCLI_NamesWhatItWouldDo (issue 38 item 3): Claude Code's real
// permission request is named by what it would do in 'asktray pending' and
// 'asktray history' (its command in its directory, not "Bash"), and the
// CSV export carries its tool, command, directory, agent and mode.
func TestCLI_NamesWhatItWouldDo(t *testing.T) {
	t.Parallel()
	h := newHookApp(t)
	payload, err := os.ReadFile(filepath.Join("..", "hook", "testdata", "claude-code", "real", "PermissionRequest.json"))
	if err != nil {
		t.Fatal(err)
	}
	const doing = "echo ran-allow > /tmp/realagents/work/allow && echo ran-allow in /tmp/realagents/work"
	main := func(args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := Main(context.Background(), append(args, "--data-dir", h.dir), IO{In: strings.NewReader(""), Out: &out, Err: &errOut}, nil); code != 0 {
			t.Fatalf("%v: %d %s", args, code, errOut.String())
		}
		return out.String()
	}
	run := goHook(payload, "claude-code", "--data-dir", h.dir)
	q := wait(t, h.asked)
	named := func(out string) bool {
		return strings.Contains(out, "echo ran-allow > /tmp/") && strings.Contains(out, " in /tmp/realagents/work") && !strings.Contains(out, "Bash")
	}
	if out := main("pending"); !named(out) {
		t.Fatalf("pending names it:\n%s", out)
	}
	if err := h.b.Answer(q.ID, question.Response{Action: question.Decline, Via: question.ViaCLI}); err != nil {
		t.Fatal(err)
	}
	wait(t, run)
	if out := main("history"); !named(out) {
		t.Fatalf("history names it:\n%s", out)
	}
	rows, err := csv.NewReader(strings.NewReader(main("history", "--export", "csv"))).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("csv: %v %q", err, rows)
	}
	got := map[string]string{}
	for i, name := range rows[0] {
		got[name] = rows[1][i]
	}
	for col, want := range map[string]string{
		"summary": doing, "tool": "Bash", "command": "echo ran-allow > /tmp/realagents/work/allow && echo ran-allow",
		"cwd": "/tmp/realagents/work", "client": "claude-code", "agent_mode": "default",
	} {
		if got[col] != want {
			t.Errorf("%s = %q, want %q", col, got[col], want)
		}
	}
}
