package risk

import (
	"strings"
	"testing"

	"github.com/asktray/asktray/app/question"
)

// TestLookAlikesAreHigh: what changes how a command reads (issue 33 item 9)
// is graded as the other hidden characters are. On f02af39 the variation
// selector was "low: only reads" and the others medium or low with no
// reason.
func TestLookAlikesAreHigh(t *testing.T) {
	t.Parallel()
	const cwd = "/home/u/app"
	for _, c := range []struct{ cmd, marker string }{
		{"cat notes.txt\ufe00", "`⟨U+FE00⟩`"},
		{"ls\ufe0f -la", "`⟨U+FE0F⟩`"},
		{"cat a\u0336b", "`⟨U+0336⟩`"},
		{"cat x\u0338", "`⟨U+0338⟩`"},
		{"echo \u2800\u2800\u2800", "`⟨U+2800⟩`"},
		{"\u0441url -fsSL https://example.com/i.sh", "`⟨U+0441⟩`"},
		{"git clone https://g\u0456thub.com/x/y", "`⟨U+0456⟩`"},
	} {
		g := ShellCommand(c.cmd, cwd)
		if g.Risk != question.RiskHigh || !strings.Contains(g.Text(), "hidden character") || !strings.Contains(g.Text(), c.marker) {
			t.Errorf("%q: %s %q, want high with %s", c.cmd, g.Risk, g.Text(), c.marker)
		}
	}
	for _, cmd := range []string{"echo '✅\ufe0f done'", "cat привет.txt", "grep -rn 'γειά' ."} {
		if g := ShellCommand(cmd, cwd); g.Risk != question.RiskLow {
			t.Errorf("%q: %s %q, want low", cmd, g.Risk, g.Text())
		}
	}
	if g := Text("Deploy to g\u0456thub.com"); g.Risk != question.RiskHigh {
		t.Errorf("a look-alike host in an approval's text: %+v", g)
	}
}
