package present

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

func TestHeadline(t *testing.T) {
	t.Parallel()
	cc := question.Client{Name: "claude-code", Version: "2.1.3"}
	in := json.RawMessage(`{"command":"make deploy"}`)
	for _, c := range []struct {
		q    question.Question
		want string
	}{
		{question.Question{Kind: question.KindApproval, Client: cc, Origin: question.OriginPermission, Action: "Bash", Input: in, Cwd: "/home/ada/projects/payments-service"},
			"claude-code wants to run a shell command in ~/projects/payments-service"},
		{question.Question{Kind: question.KindApproval, Client: cc, Origin: question.OriginPermission, Action: "mcp__github__create_issue", Input: in},
			"claude-code wants to use mcp__github__create_issue"},
		{question.Question{Kind: question.KindApproval, Client: cc, Action: "Force-push main", Cwd: "/srv/app"},
			"claude-code asks for your approval in /srv/app"},
		{question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "cursor"}}, "cursor asks"},
		{question.Question{Kind: question.KindNotice, Client: cc}, "claude-code says"},
		{question.Question{Kind: question.KindNotice, Client: cc, Tool: "notification", Origin: question.OriginAgentNotice, Header: "Claude Code is asking in its terminal"},
			"Claude Code is asking in its terminal"},
		{question.Question{Kind: question.KindNotice, Client: cc, Tool: "notify", Header: "Build"}, "claude-code says"},
	} {
		if got := Headline(&c.q, "/home/ada"); got != c.want {
			t.Errorf("Headline = %q, want %q", got, c.want)
		}
	}
}

func TestSessionLine(t *testing.T) {
	t.Parallel()
	c := question.Client{Name: "claude-code", Version: "2.1.3", SessionID: "4f2a9c1e-77b0-4d55-9a1c-0c5e7d2f1b3a"}
	started := time.Date(2026, 3, 14, 14, 2, 0, 0, time.UTC)
	if got, want := SessionLine(c, "/home/ada/projects/payments-service", started, time.UTC), "claude-code 2.1.3  ·  session in payments-service since 14:02"; got != want {
		t.Errorf("SessionLine = %q, want %q", got, want)
	}
	if got, want := SessionLine(c, "", time.Time{}, time.UTC), "claude-code 2.1.3  ·  session 4f2a9c1e…"; got != want {
		t.Errorf("without a start: %q, want %q", got, want)
	}
	if got := SessionLine(question.Client{Name: "cursor"}, "/x", started, time.UTC); got != "cursor" {
		t.Errorf("without a session: %q", got)
	}
	for dir, want := range map[string]string{"/home/ada": "~", "/home/ada/x": "~/x", "/home/adam/x": "/home/adam/x", "/tmp": "/tmp"} {
		if got := HomePath(dir, "/home/ada/"); got != want {
			t.Errorf("HomePath(%q) = %q, want %q", dir, got, want)
		}
	}
}
