package present

import (
	"encoding/json"
	"testing"

	"github.com/asktray/asktray/app/question"
)

func TestTitleAndBody(t *testing.T) {
	t.Parallel()
	in := json.RawMessage(`{"command":"make deploy"}`)
	for _, c := range []struct {
		name        string
		q           question.Question
		title, body string
	}{
		{"text", question.Question{Kind: question.KindText, Header: "Branch", Message: "Name **it**"}, "Branch", "Name **it**"},
		{"approval with details", question.Question{Kind: question.KindApproval, Message: "Force-push main", Action: "Force-push main",
			Details: "```sh\ngit push -f\n```"}, "Force-push main", "```sh\ngit push -f\n```"},
		{"approval repeating its action", question.Question{Kind: question.KindApproval, Message: "Deploy", Action: "Deploy"}, "Deploy", NoDetails},
		{"approval with its own message", question.Question{Kind: question.KindApproval, Message: "May I deploy?", Action: "Deploy"}, "Deploy", "May I deploy?"},
		{"agent tool", question.Question{Kind: question.KindApproval, Origin: question.OriginPermission, Message: "Bash", Action: "Bash", Input: in, Details: "`make deploy`"}, "", "`make deploy`"},
		{"agent notice", question.Question{Kind: question.KindNotice, Tool: "notification", Origin: question.OriginAgentNotice, Header: "Claude Code is asking in its terminal",
			Message: "shop: needs you"}, "", "shop: needs you"},
		{"invisible characters", question.Question{Kind: question.KindApproval, Message: "x", Action: "Run\u202e", Details: "rm\u200b"},
			"Run⟨U+202E⟩", "rm⟨U+200B⟩"},
	} {
		title, body := TitleAndBody(c.q)
		if title != c.title || body != c.body {
			t.Errorf("%s: TitleAndBody = %q, %q; want %q, %q", c.name, title, body, c.title, c.body)
		}
	}
}
