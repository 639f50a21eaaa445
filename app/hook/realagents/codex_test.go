//go:build realagents

package realagents

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
		s.t.Cleanup(func() { stopCodexDaemon(s.t, s.home) })
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

// stopCodexDaemon ends the app-server daemon the Codex TUI started in home
// (it outlives the TUI, in a session of its own): SIGKILL to each live
// process a pid file under home names whose environment has this HOME,
// then a wait until it is gone. Its home is a scratch dir, so nothing is
// lost. Codex's own `codex app-server daemon stop` waited 20 s (its limit
// here) in every run of a test whose terminals had closed, and the daemon
// outlived a SIGTERM by 5 s.
func stopCodexDaemon(t *testing.T, home string) {
	pids, _ := filepath.Glob(filepath.Join(home, ".codex", "app-server-daemon", "*.pid"))
	for _, f := range pids {
		b, err := os.ReadFile(f)
		var rec struct {
			PID int `json:"pid"`
		}
		if err != nil || json.Unmarshal(b, &rec) != nil || rec.PID <= 0 || !runsIn(rec.PID, home) {
			continue // gone, or another process took its pid
		}
		_ = syscall.Kill(rec.PID, syscall.SIGKILL)
		if !waitUntil(5*time.Second, func() bool { return !runsIn(rec.PID, home) }) {
			t.Errorf("codex app-server daemon %d still running 5 s after SIGKILL", rec.PID)
		}
	}
}

// runsIn reports whether process pid runs with HOME=home (a zombie's
// environment reads empty: it does not).
func runsIn(pid int, home string) bool {
	env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	return err == nil && slices.Contains(strings.Split(string(env), "\x00"), "HOME="+home)
}
