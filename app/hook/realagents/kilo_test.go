//go:build realagents

package realagents

import (
	"path/filepath"
	"testing"
	"time"
)

// kiloVersion is the pinned @kilocode/cli-linux-x64 in package.json.
const kiloVersion = "7.7.9"

// kilo is Kilo's CLI, an opencode fork: the same plugin route, the same
// prompt and keys, its own config folder and environment names.
var kilo = agentSpec{
	name: "kilo",
	setup: func(s *session) []string {
		// Like opencode, Kilo installs its plugin package (@kilocode/plugin)
		// into its config folder at its start unless package.json and
		// package-lock.json there already name it.
		cfg := filepath.Join(s.home, ".config", "kilo")
		deps := map[string]any{"@kilocode/plugin": kiloVersion}
		writeFile(s.t, filepath.Join(cfg, "package.json"), mustJSON(map[string]any{"dependencies": deps}))
		writeFile(s.t, filepath.Join(cfg, "package-lock.json"), mustJSON(map[string]any{"lockfileVersion": 3, "packages": map[string]any{"": map[string]any{"dependencies": deps}}}))
		writeFile(s.t, filepath.Join(cfg, "node_modules", ".keep"), "")
		return []string{"KILO_CONFIG_CONTENT=" + mustJSON(pluginAgentConfig(s)), "KILO_DISABLE_MODELS_FETCH=1",
			"KILO_DISABLE_AUTOUPDATE=true", "KILO_DISABLE_PROJECT_CONFIG=true", "KILO_DISABLE_LSP_DOWNLOAD=true",
			"KILO_TELEMETRY_LEVEL=off", "KILO_DISABLE_SHARE=true"}
	},
	argv:            func(s *session) []string { return []string{agentBin(s.t, "kilo")} },
	ready:           "Ask anything",
	readyWithin:     3 * time.Minute,
	promptWithin:    45 * time.Second,
	ownPrompt:       "Permission required",
	no:              []string{"Escape"},
	noNote:          "Tell Kilo what to do differently",
	yes:             []string{"Enter"},
	stop:            []string{"Escape", "Escape"},
	ownPromptBeside: true,
	warmUp:          pluginAgentWarmUp,
	more:            []scenario{{"answered no in the agent", answeredInOpencode(false)}, {"answered yes in the agent", answeredInOpencode(true)}},
}

func TestKilo(t *testing.T) {
	t.Parallel()
	s := startSession(t, kilo)
	runScenarios(t, s, s.spec.more...)
}
