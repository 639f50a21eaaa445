//go:build realagents

package realagents

import (
	"testing"
)

// claudeKey is the API key Claude Code sends the fake model; its last 20
// characters are what ~/.claude.json records as approved.
const claudeKey = "sk-ant-api03-asktray-test-0000000000000000000000"

var claude = agentSpec{
	name: "claude-code",
	setup: func(s *session) []string {
		// Onboarding done, the key approved, the folder trusted: the
		// first-run screens Claude Code would otherwise show.
		writeFile(s.t, s.home+"/.claude.json", mustJSON(map[string]any{
			"hasCompletedOnboarding": true, "theme": "dark", "numStartups": 3,
			"customApiKeyResponses": map[string]any{"approved": []string{claudeKey[len(claudeKey)-20:]}, "rejected": []string{}},
			"projects":              map[string]any{s.work: map[string]any{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}},
		}))
		return []string{"ANTHROPIC_BASE_URL=" + s.model.url, "ANTHROPIC_API_KEY=" + claudeKey,
			"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}
	},
	// Manual approval ("default"): Claude Code's own default, auto, asks
	// its own classifier instead of showing the dialog.
	argv: func(s *session) []string {
		return []string{agentBin(s.t, "claude-code"), "--model", fakeModel, "--permission-mode", "default"}
	},
	ready:     "manual mode on",
	ownPrompt: "Do you want to proceed?",
	no:        []string{"Escape"},
	yes:       []string{"Enter"},
	// Claude Code shows its dialog while the hook runs; the first answer
	// wins.
	ownPromptBeside: true,
	noticeWords:     "Claude Code is asking in its terminal",
	more: []scenario{{"notification", notification}, {"answered no in the agent", answeredInAgent(false)},
		{"answered yes in the agent", answeredInAgent(true)}, {"one question per call", manualOneQuestion}},
}

func TestClaudeCode(t *testing.T) {
	t.Parallel()
	s := startSession(t, claude)
	runScenarios(t, s, s.spec.more...)
}
