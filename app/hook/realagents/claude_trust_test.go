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

// untrust writes s's ~/.claude.json with the first-run screens done and the
// key approved, as the claude spec's setup does, but with trusted as the
// only folder whose trust dialog was accepted ("" for none).
func untrust(s *session, trusted string) {
	s.t.Helper()
	m := map[string]any{
		"hasCompletedOnboarding": true, "theme": "dark", "numStartups": 3,
		"customApiKeyResponses": map[string]any{"approved": []string{claudeKey[len(claudeKey)-20:]}, "rejected": []string{}},
	}
	if trusted != "" {
		m["projects"] = map[string]any{trusted: map[string]any{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}}
	}
	writeFile(s.t, s.home+"/.claude.json", mustJSON(m))
}

// TestClaudeCodeUntrustedWorkspace: what Claude Code 2.1.332 does with
// Asktray's hooks in a folder whose trust dialog was never accepted
// (~/.claude.json has no projects[DIR].hasTrustDialogAccepted), which
// 'asktray doctor' reports on its workspace line (app/hook/claude_state.go).
// Interactive, it shows its trust dialog first and runs nothing, no hook
// either, until the person accepts, which records the folder as trusted; a
// trusted folder above the workspace spares the dialog (the doctor reads
// the parents too). With -p there is no dialog: the hooks run and the tray
// is asked.
func TestClaudeCodeUntrustedWorkspace(t *testing.T) {
	t.Parallel()
	t.Run("parent trusted", func(t *testing.T) {
		t.Parallel()
		s := prepareSession(t, claude)
		untrust(s, filepath.Dir(s.work))
		s.term = startTerm(t, s.work, s.env, s.spec.argv(s)...)
		s.term.expect(claude.ready, 90*time.Second)
		if strings.Contains(s.term.screen(), "trust this folder") {
			t.Errorf("the trust dialog showed although %s is trusted", filepath.Dir(s.work))
		}
	})
	t.Run("interactive", func(t *testing.T) {
		t.Parallel()
		s := prepareSession(t, claude)
		untrust(s, "")
		s.term = startTerm(t, s.work, s.env, s.spec.argv(s)...)
		s.term.expect("Yes, I trust this folder", 90*time.Second)
		if n := len(s.hooksFor("")); n != 0 {
			t.Errorf("%d hook runs before the trust dialog was answered", n)
		}
		// Move to "Yes" and confirm; a TUI just drawn may drop a key, so
		// look at the screen before each one (Enter only on "Yes").
		if !waitUntil(60*time.Second, func() bool {
			switch scr := s.term.screen(); {
			case strings.Contains(scr, claude.ready):
				return true
			case strings.Contains(scr, "❯ Yes, I trust this folder"):
				s.term.keys("Enter")
			case strings.Contains(scr, "❯ No, exit"):
				s.term.keys("Down")
			}
			time.Sleep(300 * time.Millisecond)
			return false
		}) {
			t.Fatalf("not ready after accepting the trust dialog:\n%s", s.term.screen())
		}
		b, err := os.ReadFile(s.home + "/.claude.json")
		var state struct {
			Projects map[string]struct {
				HasTrustDialogAccepted bool `json:"hasTrustDialogAccepted"`
			} `json:"projects"`
		}
		if err != nil || json.Unmarshal(b, &state) != nil || !state.Projects[s.work].HasTrustDialogAccepted {
			t.Errorf("accepting the dialog did not record %s as trusted: %v\n%s", s.work, err, b)
		}
	})
	t.Run("print", func(t *testing.T) {
		t.Parallel()
		s := prepareSession(t, claude)
		untrust(s, "")
		path, command := s.marker("untrusted-print")
		wait, out := claudePrint(t, s, command)
		q := s.app.waitQuestion(path, askBound)
		s.app.answer(q.ID, "--cancel")
		t.Logf("claude -p ended: %v", wait()) // the tray's cancel: its exit status is Claude's business
		if len(s.hooksFor(path)) == 0 || exists(path) {
			t.Errorf("claude -p in an untrusted folder: %d hook runs, command ran %v:\n%s", len(s.hooksFor(path)), exists(path), out.String())
		}
		if strings.Contains(out.String(), "trust") {
			t.Logf("claude -p said: %s", out.String())
		}
	})
}
