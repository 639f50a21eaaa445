//go:build realagents

package realagents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/policy"
)

// droid is Factory Droid with autonomy off (its default: every action asks)
// in its airgap mode (FACTORY_AIRGAP_ENABLED, which skips Factory's account
// check, so no stand-in for it is needed), the fake model as a
// bring-your-own-key chat completions model, its hooks as `asktray config
// droid --hooks --write` installs them and an ask rule for its shell tool:
// every command comes to the tray from its PreToolUse, which Droid waits for
// before its own approval. Escape while the hook runs kills it and Droid
// sends Stop, which ends the tray question.
var droid = agentSpec{
	name:      "droid",
	beforeApp: func(s *session) { askRule(s, "droid", "Execute") },
	setup:     droidSetup,
	argv:      func(s *session) []string { return []string{agentBin(s.t, "droid")} },
	ready:     "Auto (Off)",
	warmUp:    typedFirstPrompt,
	ownPrompt: "Command to approve",
	no:        []string{"Escape"},
	yes:       []string{"Enter"},
	stop:      []string{"Escape"},
	// Droid runs its Notification hook, and waits for it, before it draws
	// its approval (the hook's line shows above it): with the app frozen
	// its prompt came 2.89 s after the PreToolUse hook stepped aside.
	notifiesFirst: true,
	noticeWords:   "Factory Droid is asking in its terminal",
	// A no in its approval ends the turn: Droid sends Stop.
	eventAfterNo: true,
	more:         []scenario{{"notification", notification}, {"answered no in the agent", answeredInAgent(false)}},
}

// TestDroid (issue 34): the real Factory Droid. Each turn fails unless a
// hook ran for its call: the tray question itself (allow, deny, dismiss),
// or the recorded hook run (app down, frozen).
func TestDroid(t *testing.T) {
	t.Parallel()
	s := startSession(t, droid)
	runScenarios(t, s, s.spec.more...)
}

// droidSetup adds the fake model as a custom model, the working folder as
// trusted and no logo animation to the settings file the hooks went into,
// and returns Droid's environment: airgap mode, Factory's API, telemetry
// and updates pointed at loopback or off.
func droidSetup(s *session) []string {
	file := filepath.Join(s.home, ".factory", "settings.json")
	b, err := os.ReadFile(file)
	if err != nil {
		s.t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		s.t.Fatal(err)
	}
	m["customModels"] = []any{map[string]any{"model": fakeModel, "displayName": "Fake", "baseUrl": s.model.url + "/v1",
		"apiKey": "fake", "provider": "generic-chat-completion-api", "maxOutputTokens": 1000}}
	m["trustedFolders"] = map[string]any{s.work: map[string]any{"trustedAt": "2026-12-05T00:00:00.000Z"}}
	m["logoAnimation"] = "off"
	writeFile(s.t, file, mustJSON(m))
	return []string{"FACTORY_AIRGAP_ENABLED=1", "FACTORY_API_BASE_URL=" + s.model.url, "FACTORY_DROID_AUTO_UPDATE_ENABLED=0",
		"FACTORY_TELEMETRY_INGEST_BASE_URL=http://127.0.0.1:9", "FACTORY_OTEL_ENABLED=0", "FACTORY_DISABLE_DYNAMIC_CONFIG=1",
		"FACTORY_DISABLE_KEYRING=1"}
}

// askRule writes an ask rule for agent's tool before the app starts: a
// low-risk command is otherwise left to the agent at its PreToolUse.
func askRule(s *session, agent, tool string) {
	if err := os.MkdirAll(s.data, 0o700); err != nil {
		s.t.Fatal(err)
	}
	pol, err := policy.Open(filepath.Join(s.data, policy.File))
	if err != nil {
		s.t.Fatal(err)
	}
	r := policy.Rule{Client: agent, Action: hook.Tool + ":" + tool, Decision: policy.Ask, Scope: policy.ScopeAlways}
	if _, err := pol.Add(r); err != nil {
		s.t.Fatalf("rule %+v: %v", r, err)
	}
}
