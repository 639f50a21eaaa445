package present

import (
	"encoding/json"
	"strings"
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
		{question.Question{Kind: question.KindApproval, Client: cc, Origin: question.OriginPermission, Action: "Bash", Input: in, Cwd: "/home/ada/src", Host: "build-01"},
			"claude-code on build-01 wants to run a shell command in /home/ada/src"},
		{question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "cursor"}, Host: "agent@localhost"}, "cursor on agent@localhost asks"},
		{question.Question{Kind: question.KindNotice, Client: cc, Tool: "notification", Origin: question.OriginAgentNotice, Header: "Claude Code is asking in its terminal", Host: "build-01"},
			"Claude Code is asking in its terminal on build-01"},
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

// TestWhoNamesTheHost: the notification, the queue line and the CLI's
// tables say where a remote agent runs, and a host name's invisible
// characters are marked like the client's.
func TestWhoNamesTheHost(t *testing.T) {
	t.Parallel()
	q := question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "codex"}, Message: "ok?", Host: "build-01"}
	if got := Who(&q); got != "codex on build-01" {
		t.Fatalf("Who = %q", got)
	}
	if title, _ := NoteText(&q); title != "codex on build-01 asks" {
		t.Fatalf("NoteText title = %q", title)
	}
	if got := QueueLine(1, &q, ""); !strings.Contains(got, "next: codex on build-01 — ") {
		t.Fatalf("QueueLine = %q", got)
	}
	q.Host = "build\u202e-01"
	if got := Who(&q); got == "codex on build\u202e-01" {
		t.Fatalf("Who shows a bidi override as is: %q", got)
	}
	q.Host = ""
	if got := Who(&q); got != "codex" {
		t.Fatalf("Who of a local question = %q", got)
	}
}
