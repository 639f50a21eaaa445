//go:build realagents

package realagents

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

// opencodeVersion is the pinned opencode-ai in package.json.
const opencodeVersion = "1.18.33"

var opencode = agentSpec{
	name: "opencode",
	setup: func(s *session) []string {
		// opencode installs @opencode-ai/plugin into its config folder at
		// its start unless its package.json and package-lock.json already
		// name it beside a node_modules folder (asktray's plugin imports
		// nothing from it): so it starts without the npm registry.
		cfg := filepath.Join(s.home, ".config", "opencode")
		deps := map[string]any{"@opencode-ai/plugin": opencodeVersion}
		writeFile(s.t, filepath.Join(cfg, "package.json"), mustJSON(map[string]any{"dependencies": deps}))
		writeFile(s.t, filepath.Join(cfg, "package-lock.json"), mustJSON(map[string]any{"lockfileVersion": 3, "packages": map[string]any{"": map[string]any{"dependencies": deps}}}))
		writeFile(s.t, filepath.Join(cfg, "node_modules", ".keep"), "")
		return []string{"OPENCODE_CONFIG_CONTENT=" + mustJSON(pluginAgentConfig(s)), "OPENCODE_DISABLE_MODELS_FETCH=1",
			"OPENCODE_DISABLE_AUTOUPDATE=true", "OPENCODE_DISABLE_PROJECT_CONFIG=true", "OPENCODE_DISABLE_LSP_DOWNLOAD=true"}
	},
	argv:  func(s *session) []string { return []string{agentBin(s.t, "opencode")} },
	ready: "Ask anything",
	// opencode 1.18.33 spends most of its start in "init" (33 s of its
	// 64 s on 2 cores at load 23, 2026-12-05).
	readyWithin: 3 * time.Minute,
	// Its first turn creates the session and a title before the model
	// sees the prompt: 8 s at load 15, over a minute at load 30 on 2 cores.
	promptWithin: 45 * time.Second,
	ownPrompt:    "Permission required",
	no:           []string{"Escape"},
	yes:          []string{"Enter"},
	stop:         []string{"Escape", "Escape"},
	// opencode shows its prompt while the plugin's hook runs; the first
	// answer counts.
	ownPromptBeside: true,
	warmUp:          pluginAgentWarmUp,
	more:            []scenario{{"answered no in the agent", answeredInOpencode(false)}, {"answered yes in the agent", answeredInOpencode(true)}},
}

func TestOpencode(t *testing.T) {
	t.Parallel()
	s := startSession(t, opencode)
	runScenarios(t, s, s.spec.more...)
}

// answeredInOpencode: while the tray asks, the person answers in opencode's
// own prompt; the plugin hands the hook opencode's permission.replied, which
// ends the tray question as answered in the agent (not merely withdrawn as
// a hook that went away), and the command runs only on a yes there.
func answeredInOpencode(yes bool) func(t *testing.T, s *session) {
	return func(t *testing.T, s *session) {
		name, keys := "agent-no", s.spec.no
		if yes {
			name, keys = "agent-yes", s.spec.yes
		}
		path, cmd := s.marker(name)
		s.ask(cmd)
		q := s.app.waitQuestion(path, askBound)
		s.term.expect(s.spec.ownPrompt, stepAside)
		s.press(keys)
		res := s.app.waitEnded(q.ID, askBound)
		if res.Outcome != question.Withdrawn || res.DecidedBy != question.ByAgent || res.Reason != question.ReasonAnsweredInAgent {
			t.Errorf("tray question after opencode was answered: %+v", res)
		}
		// The hook run is recorded when it ends, just after the app took it.
		var reply string
		replied := waitUntil(5*time.Second, func() bool {
			for _, r := range s.hooksFor(path) {
				var in struct {
					Event struct {
						Type       string `json:"type"`
						Properties struct {
							Reply string `json:"reply"`
						} `json:"properties"`
					} `json:"event"`
				}
				if json.Unmarshal([]byte(r.Stdin), &in) == nil && in.Event.Type == "permission.replied" {
					reply = in.Event.Properties.Reply
					return true
				}
			}
			return false
		})
		if want := map[bool]string{true: "once", false: "reject"}[yes]; replied && reply != want {
			t.Errorf("permission.replied says %q, want %q", reply, want)
		}
		if !replied {
			t.Errorf("the plugin handed the hook no permission.replied for %s", path)
		}
		ran := waitUntil(askBound, func() bool { return exists(path) })
		if ran != yes {
			t.Errorf("answered %v in opencode: the command ran: %v", yes, ran)
		}
		if yes && !waitUntil(askBound, func() bool { return s.model.sentResult("ran-" + name) }) {
			t.Errorf("the model did not get the output of the command allowed in opencode")
		}
	}
}

// pluginAgentWarmUp sends opencode a first prompt that runs nothing and
// waits until the turn is over (its busy line, "esc interrupt", gone):
// its first turn makes the session, a title and its tools, which took over
// a minute at load 28 on 2 cores.
func pluginAgentWarmUp(s *session) {
	s.t.Helper()
	s.term.typeLine("hello")
	if !waitUntil(3*time.Minute, func() bool { return s.model.saw("hello") }) {
		s.t.Fatal("the model never got the warm-up prompt")
	}
	if !waitUntil(3*time.Minute, func() bool { return !strings.Contains(s.term.screen(), "esc interrupt") }) {
		s.t.Fatal("the warm-up turn did not end")
	}
}

// pluginAgentConfig is opencode's (and Kilo's) inline config: the fake
// model as an OpenAI-compatible provider of an id no catalogue knows, and
// bash asking (their defaults allow it).
func pluginAgentConfig(s *session) map[string]any {
	return map[string]any{
		"provider": map[string]any{"asktrayfake": map[string]any{"npm": "@ai-sdk/openai-compatible", "name": "Fake",
			"options": map[string]any{"baseURL": s.model.url + "/v1", "apiKey": "fake"},
			"models":  map[string]any{fakeModel: map[string]any{"name": "Fake model", "tool_call": true}}}},
		"model": "asktrayfake/" + fakeModel, "autoupdate": false, "share": "disabled",
		"permission": map[string]any{"bash": "ask"},
	}
}
