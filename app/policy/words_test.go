package policy

import "testing"

// TestCovers: a rule's client and action patterns in a person's words, the
// agent's own text in code spans, never the internal tool names.
func TestCovers(t *testing.T) {
	for _, c := range []struct{ client, action, want string }{
		{"claude-code", "permission_request:Bash", "`Bash` requests from claude-code"},
		{"codex", "permission_prompt:Edit", "`Edit` requests from codex"},
		{"*", "request_approval:Run the migration", "approval requests `Run the migration` from any agent"},
		{"claude-*", "request_approval:Deploy *", "approval requests matching `Deploy *` from agents matching `claude-*`"},
		{"cursor", "request_approval:*", "every approval request from cursor"},
		{"cursor", "permission_request:*", "every tool's requests from cursor"},
		{"cursor", "permission_request:mcp__*", "requests of tools matching `mcp__*` from cursor"},
		{"cursor", "*", "every request from cursor"},
		{"cursor", "ask_confirm", "`ask_confirm` requests from cursor"},
		{"cursor", QuoteGlob("request_approval:Why?"), "approval requests `Why?` from cursor"},
	} {
		if got := (Rule{Client: c.client, Action: c.action}).Covers(); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.client, c.action, got, c.want)
		}
	}
}
