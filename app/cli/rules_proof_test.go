//go:build linux

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/internal/testkit"
)

// TestCLI_RulesRmDenyNeedsThePerson: a deny rule under a broader allow rule
// (every Bash command allowed, "make deploy" denied) keeps the agent's
// hook request denied until the person removes it. An agent's shell cannot:
// 'asktray rules rm' without a terminal is refused, and so is one run
// inside a pty the agent owns (script(1)) that types a guess; the rule
// stays and the hook is still denied. On the person's terminal with the
// login password the rule goes, and the next request is allowed by the
// allow rule. An ask rule is refused the same way. Removing an allow rule
// (narrowing) needs none of this.
func TestCLI_RulesRmDenyNeedsThePerson(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	pre := `{"away": false, "rules": [
	  {"id": "allowbash", "client": "claude-code", "action": "permission_request:Bash", "decision": "allow", "scope": "always", "created": "2026-12-01T10:00:00Z"},
	  {"id": "denydeploy", "client": "claude-code", "action": "permission_request:Bash", "decision": "deny", "scope": "always", "match": "command", "pattern": "make deploy", "created": "2026-12-01T10:00:00Z"},
	  {"id": "allowtest", "client": "claude-code", "action": "permission_request:Bash", "decision": "allow", "scope": "always", "match": "command", "pattern": "make test", "created": "2026-12-01T10:00:00Z"},
	  {"id": "askpush", "client": "claude-code", "action": "permission_request:Bash", "decision": "ask", "scope": "always", "match": "prefix", "pattern": "git push", "created": "2026-12-01T10:00:00Z"}]}`
	if err := os.WriteFile(filepath.Join(dir, policy.File), []byte(pre), 0o600); err != nil {
		t.Fatal(err)
	}
	startApp(t, dir)
	hookSays := func() string {
		t.Helper()
		var p map[string]any
		_ = json.Unmarshal(recorded(t, "claude-code", "PermissionRequest"), &p)
		p["tool_input"] = map[string]any{"command": "make deploy"}
		b, _ := json.Marshal(p)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, os.Args[0], "hook", "claude-code", "--data-dir", dir) //nolint:gosec // the test binary
		cmd.Env = append(os.Environ(), "ASKTRAY_TEST_CHILD=1")
		cmd.SysProcAttr = noTerminal()
		cmd.Stdin = bytes.NewReader(b)
		out, _ := cmd.Output() // a rule decides at once; a hook left asking is killed, printing nothing
		return string(out)
	}
	if got := hookSays(); !strings.Contains(got, `"behavior":"deny"`) {
		t.Fatalf("before: the hook printed %q, want the deny rule's deny", got)
	}
	ruleStays := func(how string) {
		t.Helper()
		b, _ := os.ReadFile(filepath.Join(dir, policy.File))
		if !strings.Contains(string(b), "denydeploy") {
			t.Fatalf("%s removed the deny rule:\n%s", how, b)
		}
		if got := hookSays(); !strings.Contains(got, `"behavior":"deny"`) {
			t.Fatalf("after %s: the hook printed %q, want deny", how, got)
		}
	}

	// An agent's shell, no terminal.
	r := run(t, dir, "rules", "rm", "denydeploy")
	if r.code == 0 || !strings.Contains(r.stderr, "refused") || !strings.Contains(r.stderr, "the rule stays") ||
		!strings.Contains(r.stderr, "Rules tab") {
		t.Fatalf("rules rm without a terminal: %+v", r)
	}
	ruleStays("rules rm without a terminal")
	// An ask rule holds back what the allow rule would allow: the same.
	if r := run(t, dir, "rules", "rm", "askpush"); r.code == 0 || !strings.Contains(r.stderr, "refused") || !strings.Contains(r.stderr, "removing ask rule askpush") {
		t.Fatalf("rules rm of an ask rule without a terminal: %+v", r)
	}

	// A pty of the agent's own, typing a guess at the password: PAM says no.
	if got := inScript(t, "make deploy\r", "rules", "rm", "denydeploy", "--data-dir", dir); !strings.Contains(got, "refused: wrong password") || strings.Contains(got, "Removed rule") {
		t.Fatalf("rules rm in script(1) with a guess:\n%s", got)
	}
	ruleStays("rules rm in script(1) with a guess")

	// The person's terminal and password.
	p := startPTY(t, dir, []string{armDelayEnv + "=0"}, "rules", "rm", "denydeploy")
	p.expect("can allow what it denies")
	p.expect("ready: ")
	p.send(testPassword + "\r")
	if code, out := p.wait(); code != 0 || !strings.Contains(out, "Removed rule denydeploy") || strings.Contains(out, testPassword) {
		t.Fatalf("rules rm on the person's terminal: exit %d\n%s", code, out)
	}
	if got := hookSays(); !strings.Contains(got, `"behavior":"allow"`) {
		t.Fatalf("after the person removed the deny rule: the hook printed %q, want the allow rule's allow", got)
	}

	// Removing an allow rule only narrows: no terminal needed.
	if r := run(t, dir, "rules", "rm", "allowtest"); r.code != 0 || !strings.Contains(r.stdout, "Removed rule allowtest") {
		t.Fatalf("rules rm of an allow rule: %+v", r)
	}
}

// inScript runs asktray with args inside script(1), a pseudo-terminal of
// its own as an agent's shell can make one, and returns what it showed.
// Once the command shows "ready: " (an armed prompt), typed goes to it, as
// an agent that waits for the prompt would type.
func inScript(t *testing.T, typed string, args ...string) string {
	t.Helper()
	script, err := exec.LookPath("script")
	if err != nil {
		t.Fatalf("script(1) (util-linux, make deps installs it): %v", err)
	}
	cmd := exec.Command(script, "-qec", shellQuote(append([]string{os.Args[0]}, args...)...), "/dev/null") //nolint:gosec // the test binary
	cmd.Env = append(os.Environ(), "ASKTRAY_TEST_CHILD=1", armDelayEnv+"=0")
	cmd.SysProcAttr = noTerminal()
	in, _ := cmd.StdinPipe()
	var out testkit.SyncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait() // its exit status says nothing: the output does
		close(done)
	}()
	if typed != "" {
		for deadline := time.Now().Add(20 * time.Second); !strings.Contains(out.String(), "ready: "); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				_ = cmd.Process.Kill()
				t.Fatalf("%v in script(1) asked nothing:\n%s", args, out.String())
			}
		}
		_, _ = in.Write([]byte(typed))
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("%v in script(1) hung:\n%s", args, out.String())
	}
	return out.String()
}

// shellQuote joins args into one sh command line, each word single-quoted.
func shellQuote(args ...string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}
