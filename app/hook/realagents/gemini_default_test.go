//go:build realagents

package realagents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// geminiDefault is Gemini CLI in its default mode, where a hook's allow does
// not skip its own confirmation, so the tray asks nothing (docs/hooks.md):
// a deny rule denies, a high-risk call opens Gemini's prompt with Asktray's
// warning.
var geminiDefault = func() agentSpec {
	s := gemini
	s.beforeApp = geminiDenyRule
	s.argv = func(s *session) []string {
		return []string{nodeBin(s.t), agentBin(s.t, "gemini-cli"), "--model", fakeModel}
	}
	s.ready = "Type your message"
	s.stepAside = ""
	return s
}()

// geminiDenyNote is the note of the default-mode session's deny rule.
const geminiDenyNote = "gemini-rule-says-no"

// geminiDenyRule writes a deny rule, with a note, for one command.
func geminiDenyRule(s *session) {
	if err := os.MkdirAll(s.data, 0o700); err != nil {
		s.t.Fatal(err)
	}
	pol, err := policy.Open(filepath.Join(s.data, policy.File))
	if err != nil {
		s.t.Fatal(err)
	}
	_, cmd := s.marker("gemdeny")
	r := policy.Rule{Client: "gemini-cli", Action: hook.Tool + ":run_shell_command", Decision: policy.Deny, Scope: policy.ScopeAlways,
		Match: policy.MatchCommand, Pattern: cmd, Note: geminiDenyNote}
	if _, err := pol.Add(r); err != nil {
		s.t.Fatalf("rule %+v: %v", r, err)
	}
}

// TestGeminiCLIDefault (issue 34): the real Gemini CLI in its default mode.
// Nothing comes to the tray; what only the hook could have done is checked
// in each turn: the deny rule's note reaches the model, and Gemini's own
// prompt carries Asktray's high-risk warning.
func TestGeminiCLIDefault(t *testing.T) {
	t.Parallel()
	s := startSession(t, geminiDefault)
	for _, sc := range []scenario{{"deny rule", geminiDefaultDeny}, {"high risk warned in its prompt", geminiDefaultWarn}} {
		if !t.Run(sc.name, func(t *testing.T) {
			s.t = t
			s.app.t, s.term.t = t, t
			sc.run(t, s)
		}) {
			t.Fatalf("%s failed; the later turns would run in an unknown state", sc.name)
		}
	}
}

// geminiDefaultDeny: the deny rule stops its command, which Gemini would
// have asked about; the model reads the rule's note, and the tray asked
// nothing.
func geminiDefaultDeny(t *testing.T, s *session) {
	path, cmd := s.marker("gemdeny")
	s.ask(cmd)
	if !waitUntil(askBound, func() bool { return s.model.sentResult(geminiDenyNote) }) {
		t.Fatalf("the model did not get the deny rule's note %q", geminiDenyNote)
	}
	if exists(path) {
		t.Errorf("the command the deny rule covers ran")
	}
	if strings.Contains(s.term.screen(), s.spec.ownPrompt) {
		t.Errorf("Gemini asked in its own prompt about a call the rule denied")
	}
	s.decidedByRule(path, question.AutoRejected)
}

// geminiDefaultWarn: a high-risk command is not asked in the tray (Gemini
// would ask again after an allow there); Gemini's own prompt shows
// Asktray's warning, which only the hook's ask could have put there; a no
// there leaves the folder.
func geminiDefaultWarn(t *testing.T, s *session) {
	dir, cmd := s.victim("gemhigh")
	s.ask(cmd)
	s.term.expect(s.spec.ownPrompt, askBound)
	s.term.expect("Asktray: high risk", stepAside)
	for _, q := range s.app.pending() {
		if strings.Contains(q.Details, dir) {
			t.Errorf("the tray asked about a call Gemini asks about itself: %+v", q)
		}
	}
	s.sayNo()
	if !exists(dir) {
		t.Errorf("the high-risk command ran after a no in Gemini's prompt")
	}
}
