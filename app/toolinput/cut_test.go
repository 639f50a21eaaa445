package toolinput

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCut: a rendering that leaves part of the input out says so (issue 33
// item 8), and one that shows it all does not; no cut mark is left in the
// details.
func TestCut(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", MaxShown+129)
	for _, c := range []struct {
		name  string
		input map[string]any
		cut   bool
	}{
		{"short command", map[string]any{"command": "ls -la"}, false},
		{"command at the limit", map[string]any{"command": strings.Repeat("y", MaxShown)}, false},
		{"command over the limit", map[string]any{"command": long}, true},
		{"long other key", map[string]any{"command": "ls", "extra": long}, true},
		{"long key name", map[string]any{"command": "ls", strings.Repeat("k", 300): 1}, true},
	} {
		raw, _ := json.Marshal(c.input)
		r := RenderJSON("Bash", raw)
		if r.Cut != c.cut || strings.Contains(r.Details, cutMark) {
			t.Errorf("%s: Cut %v, want %v (a mark left: %v)", c.name, r.Cut, c.cut, strings.Contains(r.Details, cutMark))
		}
		if r := Render("Bash", c.input); r.Cut != c.cut {
			t.Errorf("%s: Render's Cut %v, want %v", c.name, r.Cut, c.cut)
		}
	}
	if r := RenderJSON("Write", json.RawMessage(`{"file_path":"a","content":"`+long+`"}`)); !r.Cut || !strings.Contains(r.Details, "129 more characters not shown") {
		t.Errorf("a long file body: Cut %v", r.Cut)
	}
}
