package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// line returns the report's line of client about what, failing t without one.
func line(t *testing.T, r Report, client, what string) Line {
	t.Helper()
	for _, l := range r.Lines {
		if l.Client == client && l.What == what {
			return l
		}
	}
	t.Fatalf("no %s line for %s in:\n%s", what, client, text(r))
	return Line{}
}

// TestClaudeState (issue 32 item 7): with Claude Code's hooks installed the
// doctor says which mode it starts in and what reaches the tray then (its
// built-in default auto with no defaultMode; a settings file's defaultMode,
// the project's over the user's), that claude is not installed (a problem:
// the report is not OK), and that the folder is not one Claude Code
// trusts, or which folder above it is.
func TestClaudeState(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	h := s.hooks("claude-code", s.env.Sys, s.env.DataDir)
	l := line(t, s.check(), "claude-code", "mode")
	if !strings.Contains(l.Text, "starts in auto mode (Claude Code's built-in default") || !strings.Contains(l.Text, "classifier decides the rest") {
		t.Errorf("no defaultMode: %+v", l)
	}
	b, _ := os.ReadFile(h.Path)
	mkfile(t, h.Path, strings.Replace(string(b), "{", `{"permissions": {"defaultMode": "acceptEdits"},`, 1))
	if l := line(t, s.check(), "claude-code", "mode"); !strings.Contains(l.Text, "starts in acceptEdits mode (permissions.defaultMode in "+h.Path) {
		t.Errorf("user defaultMode: %+v", l)
	}
	local := filepath.Join(s.env.Cwd, ".claude", "settings.local.json")
	mkfile(t, local, `{"permissions": {"defaultMode": "default"}}`)
	if l := line(t, s.check(), "claude-code", "mode"); !strings.Contains(l.Text, "starts in default mode (permissions.defaultMode in "+local) || !strings.Contains(l.Text, "once") {
		t.Errorf("project defaultMode: %+v", l)
	}

	// Trust: none, then a folder above the project.
	if l := line(t, s.check(), "claude-code", "workspace"); l.Status != Note || !strings.Contains(l.Text, "not a folder Claude Code trusts") {
		t.Errorf("untrusted: %+v", l)
	}
	mkfile(t, filepath.Join(s.home, ".claude.json"), `{"projects": {"`+s.home+`": {"hasTrustDialogAccepted": true}}}`)
	if l := line(t, s.check(), "claude-code", "workspace"); l.Status != Fine || !strings.Contains(l.Text, "trusted through "+s.home) {
		t.Errorf("trusted above: %+v", l)
	}

	// Not installed: a problem, and the report is not OK.
	if r := s.check(); !r.OK() {
		t.Fatalf("with claude installed:\n%s", text(r))
	}
	if err := os.Remove(filepath.Join(s.home, ".local", "bin", "claude")); err != nil {
		t.Fatal(err)
	}
	r := s.check()
	if l := line(t, r, "claude-code", "agent"); l.Status != Problem || !strings.Contains(l.Text, "claude is not installed") || r.OK() {
		t.Errorf("not installed: %+v, OK %v", l, r.OK())
	}
}
