//go:build realagents

package realagents

import (
	"path/filepath"
	"testing"
)

var copilot = agentSpec{
	name: "copilot-cli",
	setup: func(s *session) []string {
		writeFile(s.t, filepath.Join(s.home, ".copilot", "config.json"), mustJSON(map[string]any{"trusted_folders": []string{s.work}}))
		// Copilot CLI unpacks its JavaScript on first start (about 7 s,
		// 235 MB); every session shares one unpacked copy.
		cache, _ := filepath.Abs(filepath.Join(modulesDir(), ".copilot-pkg"))
		return []string{"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_TYPE=openai", "COPILOT_PROVIDER_BASE_URL=" + s.model.url + "/v1",
			"COPILOT_PROVIDER_API_KEY=fake", "COPILOT_MODEL=" + fakeModel, "COPILOT_PKG_CACHE_HOME=" + cache, "COPILOT_AUTO_UPDATE=false"}
	},
	argv:        func(s *session) []string { return []string{agentBin(s.t, "copilot-cli")} },
	ready:       "Manual Approval",
	ownPrompt:   "Do you want to run this command?",
	no:          []string{"Escape"},
	yes:         []string{"Enter"},
	noticeWords: "Copilot CLI is asking in its terminal",
	stop:        []string{"Escape", "Escape"},
	more:        []scenario{{"notification", notification}, {"answered no in the agent", answeredInAgent(false)}},
}

func TestCopilotCLI(t *testing.T) {
	t.Parallel()
	s := startSession(t, copilot)
	runScenarios(t, s, s.spec.more...)
}
