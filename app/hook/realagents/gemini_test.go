//go:build realagents

package realagents

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// gemini is Gemini CLI in yolo mode, the one mode where its hook's allow is
// final and so the tray asks (docs/hooks.md, Gemini CLI), with an ask rule
// for its shell tool: every command comes to the tray, as for a person who
// wants each command of a yolo session there.
var gemini = agentSpec{
	name:      "gemini-cli",
	beforeApp: func(s *session) { geminiAskRule(s) },
	setup:     geminiSetup,
	argv: func(s *session) []string {
		return []string{nodeBin(s.t), agentBin(s.t, "gemini-cli"), "--model", fakeModel, "--yolo"}
	},
	ready:     "YOLO",
	ownPrompt: "Allow execution of",
	no:        []string{"Escape"},
	yes:       []string{"Enter"},
	stop:      []string{"Escape"},
	// Printing nothing would let yolo run the call.
	stepAside:     `{"decision":"ask"`,
	notifiesFirst: true,
	noticeWords:   "Gemini CLI is asking in its terminal",
	more: []scenario{{"notification", notification}, {"escape in the agent", geminiEscape},
		{"quit in the agent", geminiQuit}},
}

// TestGeminiCLI (issue 34): the real Gemini CLI in yolo mode, its hooks as
// `asktray config gemini-cli --hooks --write` installs them. Each turn
// checks what only the hook could have done (a yolo session runs every
// command unasked), so it fails if Gemini never called it.
func TestGeminiCLI(t *testing.T) {
	t.Parallel()
	s := startSession(t, gemini)
	runScenarios(t, s, s.spec.more...)
}

// geminiSetup adds the fake model to the settings file the hooks went into
// (an API key's auth, no update check, no usage statistics) and trusts the
// working folder, which Gemini would ask about first; it returns the
// environment that points Gemini at the fake model.
func geminiSetup(s *session) []string {
	file := filepath.Join(s.home, ".gemini", "settings.json")
	b, err := os.ReadFile(file)
	if err != nil {
		s.t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		s.t.Fatal(err)
	}
	m["security"] = map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}
	m["general"] = map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true}
	m["privacy"] = map[string]any{"usageStatisticsEnabled": false}
	writeFile(s.t, file, mustJSON(m))
	writeFile(s.t, filepath.Join(s.home, ".gemini", "trustedFolders.json"), mustJSON(map[string]string{s.work: "TRUST_FOLDER"}))
	return []string{"GEMINI_API_KEY=fake", "GOOGLE_GEMINI_BASE_URL=" + s.model.url}
}

// geminiAskRule writes an ask rule for Gemini's shell tool before the app
// starts: in yolo mode a low-risk command is otherwise left to yolo.
func geminiAskRule(s *session) {
	if err := os.MkdirAll(s.data, 0o700); err != nil {
		s.t.Fatal(err)
	}
	pol, err := policy.Open(filepath.Join(s.data, policy.File))
	if err != nil {
		s.t.Fatal(err)
	}
	r := policy.Rule{Client: "gemini-cli", Action: hook.Tool + ":run_shell_command", Decision: policy.Ask, Scope: policy.ScopeAlways}
	if _, err := pol.Add(r); err != nil {
		s.t.Fatalf("rule %+v: %v", r, err)
	}
}

// nodeBin is the node that runs Gemini CLI's bundle.
func nodeBin(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("Gemini CLI needs node: %v", err)
	}
	return p
}

// geminiEscape: while the tray asks, the person presses Escape in Gemini,
// which cancels the call ("Request cancelled.") but sends no event (Gemini
// CLI 0.61.0), so the tray question stays; an allow given there afterwards
// runs nothing.
func geminiEscape(t *testing.T, s *session) {
	path, cmd := s.marker("escaped")
	s.ask(cmd)
	q := s.app.waitQuestion(path, askBound)
	s.noticeWithdrawn(t)
	s.term.keys(s.spec.stop...)
	time.Sleep(2 * time.Second) // Escape sends nothing to wait for: the question must outlast it
	if it, err := s.app.ctl.Get(context.Background(), q.ID); err != nil || it.Result != nil {
		t.Fatalf("the tray question ended on Escape, which sends no event: %+v, %v", it.Result, err)
	}
	s.app.allow(q.ID)
	if !waitUntil(askBound, func() bool {
		screen := s.term.screen()
		return strings.LastIndex(screen, "Request cancelled") > strings.LastIndex(screen, "ran-escaped>>")
	}) {
		t.Fatalf("Gemini did not cancel the call")
	}
	if waitUntil(3*time.Second, func() bool { return exists(path) }) {
		t.Errorf("the command ran after Escape in Gemini, allowed in the tray only afterwards")
	}
}

// geminiQuit: while the tray asks, the person quits Gemini (Ctrl+C twice);
// the hook's agent is gone, so the tray question ends, withdrawn by the
// agent, and the command never runs. It ends the session, so it runs last.
func geminiQuit(t *testing.T, s *session) {
	path, cmd := s.marker("quit")
	s.ask(cmd)
	q := s.app.waitQuestion(path, askBound)
	s.term.keys("C-c")
	s.term.keys("C-c")
	res := s.app.waitEnded(q.ID, askBound)
	if res.Outcome != question.Withdrawn || res.DecidedBy != question.ByAgent {
		t.Errorf("tray question after Gemini quit: %+v", res)
	}
	t.Logf("tray question: %s by %s, reason %q", res.Outcome, res.DecidedBy, res.Reason)
	if exists(path) {
		t.Errorf("the command ran after Gemini quit")
	}
}
