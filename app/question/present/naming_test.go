package present

import (
	"encoding/json"
	"testing"

	"github.com/asktray/asktray/app/question"
)

// TestLineName: a question listed on one line is named by what it would
// do: a hook or permission_prompt approval by its command in its
// directory (home as ~) or its tool and file, never just "Bash"; other
// questions by their header, action or message, Markdown taken out and
// invisible characters shown.
func TestLineName(t *testing.T) {
	t.Parallel()
	tool := func(name, input, cwd string) question.Question {
		return question.Question{Kind: question.KindApproval, Tool: "permission_request", Origin: question.OriginPermission, Action: name, Message: name,
			Input: json.RawMessage(input), Cwd: cwd}
	}
	long := "npm run build -- --filter=@shop/web --filter=@shop/api --concurrency=4 --no-cache"
	for _, c := range []struct {
		name string
		q    question.Question
		n    int
		want string
	}{
		{"command", tool("Bash", `{"command":"npm test"}`, "/home/ada/src/shop"), 60, "npm test in ~/src/shop"},
		{"no cwd", tool("Bash", `{"command":"npm   test\n--ci"}`, ""), 60, "npm test --ci"},
		{"outside home", tool("Bash", `{"command":"make"}`, "/srv/app"), 60, "make in /srv/app"},
		{"long keeps the dir", tool("Bash", `{"command":"`+long+`"}`, "/home/ada/src/shop"), 48, "npm run build -- --filter=@shop/w… in ~/src/shop"},
		{"file", tool("Edit", `{"file_path":"/home/ada/src/shop/main.go","old_string":"a","new_string":"b"}`, "/home/ada/src/shop"), 60, "Edit ~/src/shop/main.go"},
		{"relative file", tool("Write", `{"file_path":"notes.md","content":""}`, ""), 60, "Write notes.md"},
		{"other tool", tool("WebFetch", `{"url":"https://example.com"}`, ""), 60, "WebFetch"},
		{"bidi", tool("Bash", `{"command":"ls \u202e; rm -rf ~"}`, ""), 60, "ls ⟨U+202E⟩; rm -rf ~"},
		{"request_approval", question.Question{Kind: question.KindApproval, Tool: "request_approval", Action: "Run the **database migration**"}, 60, "Run the database migration"},
		{"header", question.Question{Kind: question.KindConfirm, Header: "# Deploy _now_?", Message: "ignored"}, 60, "Deploy now?"},
		{"message", question.Question{Kind: question.KindText, Message: "Pick a **name** for\n\n- the `branch`"}, 60, "Pick a name for • the “branch”"},
	} {
		if got := LineName(&c.q, "/home/ada", c.n); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestPlainLine: Markdown on one line as plain text, cut with an ellipsis.
func TestPlainLine(t *testing.T) {
	t.Parallel()
	if got, want := PlainLine("**database migration** of [prod](https://x) `db`", 60), "database migration of prod “db”"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got, want := PlainLine("**a very long bold text that goes on**", 10), "a very lo…"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
