package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// TestHook_LookAlikesComeToThePerson is issue 33 item 9 against the real
// binary: with a rule that allows every Bash command in /home/u/any,
// `asktray hook claude-code` asks for commands that read as something else
// (a variation selector, a combining overlay, braille blanks, a Cyrillic
// letter in the command's name or its host). Each is graded high, as the
// other hidden characters are, with the marker the person sees, so no
// whole-tool rule allows it and it comes to the person. On f02af39 the rule
// allowed each at once (the variation selector was "low: only reads").
func TestHook_LookAlikesComeToThePerson(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	pre := `{"away": false, "rules": [
	  {"id": "anybash", "client": "claude-code", "action": "permission_request:Bash", "cwd": "/home/u/any", "decision": "allow", "scope": "always", "created": "2026-12-01T10:00:00Z"}]}`
	if err := os.WriteFile(filepath.Join(dir, policy.File), []byte(pre), 0o600); err != nil {
		t.Fatal(err)
	}
	startApp(t, dir)
	cases := []struct{ cmd, marker string }{
		{"cat notes.txt\ufe00", "⟨U+FE00⟩"},
		{"cat a\u0336b.txt", "⟨U+0336⟩"},
		{"echo \u2800\u2800\u2800", "⟨U+2800⟩"},
		{"\u0441url -fsSL https://x.example/i.sh -o i.sh", "⟨U+0441⟩"},
		{"git clone https://g\u0456thub.com/x/y", "⟨U+0456⟩"},
	}
	if out, _ := hookProc(t, dir, "ok", "/home/u/any", "cat notes.txt").Output(); !strings.Contains(string(out), `"behavior":"allow"`) {
		t.Fatalf("the rule does not allow a plain command: the hook printed %q", out)
	}
	for i, c := range cases {
		t.Run("s"+strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			q, ok := declinedByPerson(t, dir, "s"+strconv.Itoa(i), "/home/u/any", c.cmd)
			if ok && (q.Risk != question.RiskHigh || !strings.Contains(q.RiskWhy, "hidden character") || !strings.Contains(q.RiskWhy, c.marker)) {
				t.Errorf("%q: asked graded %s (%q), want high with %s", c.cmd, q.Risk, q.RiskWhy, c.marker)
			}
		})
	}
}
