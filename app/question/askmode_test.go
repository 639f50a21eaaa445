package question

import "testing"

// TestParseAskMode reads each mode, "" as desktop, and refuses any other
// word with the list.
func TestParseAskMode(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]AskMode{"": AskDesktop, "desktop": AskDesktop, "client": AskClient, "auto": AskAuto} {
		if got, err := ParseAskMode(in); err != nil || got != want {
			t.Errorf("ParseAskMode(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseAskMode("mcp"); err == nil || err.Error() != `must be one of desktop, client, auto, got "mcp"` {
		t.Errorf("ParseAskMode(mcp): %v", err)
	}
}
