package clientsetup

import (
	"strings"
	"testing"
)

func TestForMatchesConfigOutput(t *testing.T) {
	for _, c := range Clients() {
		s, err := For(c, "/data", "http://127.0.0.1:7931/mcp", strings.Repeat("ab", 32))
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		if !strings.Contains(s.Text, s.Snippet) || s.Path == "" {
			t.Errorf("%s: text does not hold the snippet, or no path: %+v", c, s)
		}
		if c != "claude-desktop" && !strings.Contains(s.Snippet+s.Command, "Bearer "+strings.Repeat("ab", 32)) {
			t.Errorf("%s: no token in the setup", c)
		}
	}
	if _, err := For("emacs", "/d", "u", "t"); err == nil {
		t.Error("unknown client accepted")
	}
}
