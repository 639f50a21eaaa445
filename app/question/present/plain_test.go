package present_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

func TestPlain(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Coverage fell by **3%** on `main`", "Coverage fell by 3% on “main”"},
		{"__bold__ and *em* and _em_ and ~~gone~~", "bold and em and em and gone"},
		{"keep snake_case_names and 2*3*4", "keep snake_case_names and 2*3*4"},
		{"`a*b*c` stays", "“a*b*c” stays"},
		{"# Heading\n> quoted\n- one\n* two", "Heading\nquoted\n• one\n• two"},
		{"see [the docs](https://x.test/a) and ![img](p.png)", "see the docs and img"},
		{"```sh\nrm -rf **/build\n```", "rm -rf **/build"},
		{`a \*literal\* star`, "a *literal* star"},
		{"---\ntext", "text"},
		{"plain text, unchanged", "plain text, unchanged"},
	} {
		if got := present.Plain(c.in); got != c.want {
			t.Errorf("Plain(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestNoteText(t *testing.T) {
	bash := question.Question{Kind: question.KindApproval, Client: question.Client{Name: "claude-code"},
		Action: "Bash", Message: "Bash", Input: json.RawMessage(`{"command":"npm test"}`)}
	title, body := present.NoteText(&bash)
	if title != "claude-code wants to run: npm test" || body != "Tool: Bash" {
		t.Fatalf("bash: %q / %q", title, body)
	}
	edit := question.Question{Kind: question.KindApproval, Client: question.Client{Name: "cursor"},
		Action: "Edit", Input: json.RawMessage(`{"file_path":"src/app.go"}`), Risk: question.RiskHigh, RiskWhy: "writes `src/app.go`"}
	title, body = present.NoteText(&edit)
	if title != "cursor wants to edit: src/app.go" || !strings.HasPrefix(body, "High risk: writes “src/app.go”.") || strings.Contains(body, "`") {
		t.Fatalf("edit: %q / %q", title, body)
	}
	mcp := question.Question{Kind: question.KindApproval, Client: question.Client{Name: "codex"},
		Action: "Deploy to production", Message: "Deploy to production", AgentReason: "the **release** is tagged"}
	title, body = present.NoteText(&mcp)
	if title != "codex asks to approve: Deploy to production" || body != "the release is tagged" {
		t.Fatalf("mcp: %q / %q", title, body)
	}
	ask := question.Question{Kind: question.KindText, Client: question.Client{Name: "codex"},
		Header: "**Coverage**", Message: "Coverage fell by **3%**.\nRun `make cover`?"}
	title, body = present.NoteText(&ask)
	if title != "codex asks" || body != "Coverage: Coverage fell by 3%. Run “make cover”?" {
		t.Fatalf("ask: %q / %q", title, body)
	}
}

// TestNoteTextAgentNotice: a notice made from an agent's own notification
// shows its header, which says who asks where, as the summary; a notice an
// MCP client sent keeps "… says", whatever its header claims.
func TestNoteTextAgentNotice(t *testing.T) {
	agent := question.Question{Kind: question.KindNotice, Client: question.Client{Name: "claude-code", SessionID: "3f2a"}, Tool: "notification", Origin: question.OriginAgentNotice,
		Header: "Claude Code is asking in its terminal", Message: "payments-service (session 3f2a): Claude needs your permission to use **Bash**"}
	title, body := present.NoteText(&agent)
	if title != "Claude Code is asking in its terminal" || body != "payments-service (session 3f2a): Claude needs your permission to use Bash" {
		t.Fatalf("agent notice: %q / %q", title, body)
	}
	mcp := agent
	mcp.Tool, mcp.Origin = "notify", question.OriginAsk
	title, body = present.NoteText(&mcp)
	if title != "claude-code says" || body != "Claude Code is asking in its terminal: payments-service (session 3f2a): Claude needs your permission to use Bash" {
		t.Fatalf("MCP notice: %q / %q", title, body)
	}
}
