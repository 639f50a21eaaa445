//go:build realagents

package realagents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

var codex = agentSpec{
	name: "codex",
	setup: func(s *session) []string {
		// The fake model as the provider (Responses API), on-request
		// approvals and the working folder trusted.
		writeFile(s.t, filepath.Join(s.home, ".codex", "config.toml"), `model = "`+fakeModel+`"
model_provider = "fake"
approval_policy = "on-request"
sandbox_mode = "workspace-write"

[model_providers.fake]
name = "fake"
base_url = "`+s.model.url+`/v1"
wire_api = "responses"
env_key = "FAKE_API_KEY"

[projects."`+s.work+`"]
trust_level = "trusted"
`)
		root, _ := filepath.Abs(filepath.Join(modulesDir(), "@openai/codex"))
		env := []string{"HOME=" + s.home, "PATH=/usr/bin:/bin"}
		s.t.Cleanup(func() { stopCodexDaemon(s.t, s.home, env) })
		return []string{"FAKE_API_KEY=fake", "CODEX_MANAGED_BY_NPM=1", "CODEX_MANAGED_PACKAGE_ROOT=" + root}
	},
	argv: func(s *session) []string { return []string{agentBin(s.t, "codex")} },
	// Codex asks the person to review a new hook once; they trust it.
	firstRun: func(s *session) {
		s.term.expect("Hooks need review", 60*time.Second)
		s.term.expect("2. Trust all and continue", time.Second)
		s.term.keys("Down")
		time.Sleep(300 * time.Millisecond)
		s.term.keys("Enter")
	},
	ready:     "Ask Codex to do anything",
	ownPrompt: "Would you like to run the following command?",
	no:        []string{"Escape"},
	yes:       []string{"Enter"},
	stop:      []string{"Escape"},
	more:      []scenario{{"answered no in the agent", answeredInAgent(false)}},
}

func TestCodex(t *testing.T) {
	t.Parallel()
	s := startSession(t, codex)
	runScenarios(t, s, s.spec.more...)
}

// stopCodexDaemon stops the app-server daemon the Codex TUI started in home
// (it outlives the TUI, in a session of its own): Codex's own stop command,
// then SIGKILL for whatever pid file still names a live process run from
// home.
func stopCodexDaemon(t *testing.T, home string, env []string) {
	cmd := exec.Command(agentBin(t, "codex"), "app-server", "daemon", "stop")
	cmd.Env = env
	if out, err := runWithin(cmd, 20*time.Second); err != nil {
		t.Logf("codex app-server daemon stop: %v\n%s", err, out)
	}
	pids, _ := filepath.Glob(filepath.Join(home, ".codex", "app-server-daemon", "*.pid"))
	for _, f := range pids {
		b, err := os.ReadFile(f)
		var rec struct {
			PID int `json:"pid"`
		}
		if err != nil || json.Unmarshal(b, &rec) != nil || rec.PID <= 0 {
			continue
		}
		if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", rec.PID)); err == nil && strings.HasPrefix(exe, home) {
			_ = syscall.Kill(rec.PID, syscall.SIGKILL)
		}
	}
}

// runWithin runs cmd, killing it after limit, and returns its output.
func runWithin(cmd *exec.Cmd, limit time.Duration) ([]byte, error) {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return out.Bytes(), err
	case <-time.After(limit):
		_ = cmd.Process.Kill()
		return out.Bytes(), fmt.Errorf("still running after %v: %w", limit, <-done)
	}
}
