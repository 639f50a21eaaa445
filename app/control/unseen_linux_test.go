package control

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/question"
)

// TestServer_NoAllowForWhatCannotBeSeen (issue 33 item 8): a raw socket
// client in the foreground of a pseudo-terminal, where an allow would go on
// to the password, sends an allow for an approval whose details leave part
// of what it runs out (Cut): 403 unseen with the reason, and the question
// stays pending. On f02af39 it went on to the password check (403
// needs_password), and with the password it would have been taken.
func TestServer_NoAllowForWhatCannotBeSeen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c, b := newServerIn(t, dir)
	sock := filepath.Join(dir, "c.sock")
	ctx := context.Background()
	q, err := b.Ask(ctx, question.Question{Kind: question.KindApproval, Action: "Bash", Message: "Bash",
		Details: "```sh\necho start\n… (129 more characters not shown)\n```", Cut: true, Client: question.Client{Name: "agent"}})
	if err != nil {
		t.Fatal(err)
	}
	out := answerAsHelper(t, sock, q.ID, `{"action":"accept","value":"allow","terminal_confirmed":true,"password":"whatever"}`, true)
	if !strings.HasPrefix(out, "403 ") || !strings.Contains(out, `"code":"unseen"`) || !strings.Contains(out, "too long to show in full") {
		t.Fatalf("allow of what cannot be seen: %q", out)
	}
	if it, err := c.Get(ctx, q.ID); err != nil || it.Result != nil {
		t.Fatalf("after a refused allow: %+v %v, want still pending", it.Result, err)
	}
	if out := answerAsHelper(t, sock, q.ID, `{"action":"decline","terminal_confirmed":true}`, true); !strings.HasPrefix(out, "200 ") {
		t.Fatalf("deny: %q", out)
	}
}
