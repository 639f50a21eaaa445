package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConnect lists the agents found in a scratch home and connects one:
// 'asktray connect' says Claude Code is found by its folder and not
// connected, 'asktray connect claude-code' writes its MCP entry and hooks,
// and the list then says it is connected; an unknown agent is a usage
// error naming the agents.
func TestConnect(t *testing.T) {
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	fakeConfig(t, home, map[string]string{"PATH": t.TempDir()}, false)
	run := func(args ...string) (string, string, error) {
		var out, errb bytes.Buffer
		err := cmdConnect(t.Context(), append(args, "--data-dir", testDataDir), IO{Out: &out, Err: &errb})
		return out.String(), errb.String(), err
	}
	row := func(list, agent string) string {
		for l := range strings.SplitSeq(list, "\n") {
			if strings.HasPrefix(l, agent+" ") {
				return strings.Join(strings.Fields(l), " ")
			}
		}
		return ""
	}
	out, _, err := run()
	if err != nil || row(out, "claude-code") != "claude-code ~/.claude exists no" || row(out, "cursor") != "cursor - no" {
		t.Fatalf("list: %v\n%s", err, out)
	}
	if out, _, err = run("claude-code"); err != nil || !strings.Contains(out, ".claude.json") || !strings.Contains(out, filepath.Join(home, ".claude", "settings.json")) {
		t.Fatalf("connect: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(filepath.Join(home, ".claude.json"))
	if !strings.Contains(string(b), "Bearer "+testToken) {
		t.Fatalf("~/.claude.json: %s", b)
	}
	if out, _, err = run(); err != nil || row(out, "claude-code") != "claude-code ~/.claude exists yes" {
		t.Fatalf("list after: %v\n%s", err, out)
	}
	if _, _, err = run("nosuch"); !isUsage(err) || !strings.Contains(err.Error(), "claude-code, ") {
		t.Fatalf("unknown agent: %v", err)
	}
}
