package control

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/creack/pty"

	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/procfs"
	"github.com/asktray/asktray/app/question"
)

func TestForeground(t *testing.T) {
	t.Parallel()
	cases := []struct {
		st procfs.Stat
		ok bool
	}{
		{procfs.Stat{PGRP: 10, TTYNr: 34817, TPGID: 10}, true},
		{procfs.Stat{PGRP: 10, TTYNr: 0, TPGID: -1}, false},     // no controlling terminal (setsid, a daemon)
		{procfs.Stat{PGRP: 10, TTYNr: 34817, TPGID: 12}, false}, // a background job
	}
	for _, tc := range cases {
		if err := foreground(tc.st); (err == nil) != tc.ok {
			t.Errorf("%+v: foreground = %v, want ok=%v", tc.st, err, tc.ok)
		}
	}
}

// answerAsHelper runs the test binary as a raw socket client that posts body
// as the answer to question id; see callAsHelper.
func answerAsHelper(t *testing.T, sock, id, body string, onPTY bool) string {
	t.Helper()
	return callAsHelper(t, sock, "/v1/questions/"+id+"/answer", body, onPTY)
}

// callAsHelper runs the test binary as a raw socket client that posts body
// to path, or gets path when body is empty; onPTY says whether it runs on a
// new pseudo-terminal (as its foreground) or in a new session without one.
// It returns what the helper printed: the status line and the body.
func callAsHelper(t *testing.T, sock, path, body string, onPTY bool) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestPeerHelperProcess$")
	cmd.Env = []string{peerHelperEnv + "=" + sock, peerPathEnv + "=" + path, peerBodyEnv + "=" + body}
	if !onPTY {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("helper: %v\n%s", err, out)
		}
		return string(out)
	}
	f, err := pty.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, _ := io.ReadAll(f) // EIO once the helper exits
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	return string(out)
}

// TestServer_ApprovalNeedsTerminal is a raw socket client that claims
// terminal_confirmed: from a process without a controlling terminal the app
// refuses allow and a destructive yes and the questions stay pending, while
// a deny, a plain yes and a text answer pass; from the foreground of a
// pseudo-terminal the allow needs the login password, and then passes and
// the history says via terminal.
func TestServer_ApprovalNeedsTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c, b := newServerIn(t, dir)
	sock := filepath.Join(dir, "c.sock")
	ctx := context.Background()
	ask := func(q question.Question) string {
		t.Helper()
		q.Client = question.Client{Name: "agent"}
		got, err := b.Ask(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return got.ID
	}
	deploy := ask(question.Question{Kind: question.KindApproval, Action: "Deploy to production", Message: "Deploy?"})
	wipe := ask(question.Question{Kind: question.KindConfirm, Destructive: true, Message: "Wipe the disk?"})
	refused := []struct{ id, body string }{
		{deploy, `{"action":"accept","value":"allow","terminal_confirmed":true}`},
		{deploy, `{"action":"accept","value":"allow"}`},
		{wipe, `{"action":"accept","value":"yes","terminal_confirmed":true}`},
	}
	for _, tc := range refused {
		out := answerAsHelper(t, sock, tc.id, tc.body, false)
		if !strings.HasPrefix(out, "403 ") || !strings.Contains(out, `"code":"needs_person"`) ||
			!strings.Contains(out, "dialog") || !strings.Contains(out, "page") {
			t.Errorf("%s without a terminal: got %q, want 403 needs_person naming the dialog and the page", tc.body, out)
		}
		if it, err := c.Get(ctx, tc.id); err != nil || it.Result != nil {
			t.Errorf("after a refused approval %s: %+v %v, want still pending", tc.id, it.Result, err)
		}
	}
	plainYes := ask(question.Question{Kind: question.KindConfirm, Message: "Run the tests?"})
	text := ask(question.Question{Kind: question.KindText, Message: "Branch name?", FreeText: true})
	allowed := []struct{ id, body string }{
		{wipe, `{"action":"decline","terminal_confirmed":true}`},
		{plainYes, `{"action":"accept","value":"yes"}`},
		{text, `{"action":"accept","value":"main"}`},
	}
	for _, tc := range allowed {
		out := answerAsHelper(t, sock, tc.id, tc.body, false)
		var it Item
		if !strings.HasPrefix(out, "200 ") || json.Unmarshal([]byte(strings.TrimPrefix(out, "200 OK ")), &it) != nil ||
			it.Result == nil || it.Result.Via != question.ViaCLI {
			t.Errorf("%s without a terminal: got %q, want 200 via cli", tc.body, out)
		}
	}
	for body, want := range map[string]string{
		`{"action":"accept","value":"allow","terminal_confirmed":true}`:                    `"code":"needs_password"`,
		`{"action":"accept","value":"allow","terminal_confirmed":true,"password":"guess"}`: `"code":"wrong_password"`,
	} {
		if out := answerAsHelper(t, sock, deploy, body, true); !strings.HasPrefix(out, "403 ") || !strings.Contains(out, want) {
			t.Errorf("%s from a terminal: got %q, want 403 %s", body, out, want)
		}
	}
	if it, err := c.Get(ctx, deploy); err != nil || it.Result != nil {
		t.Fatalf("after a terminal's allow without the password: %+v %v, want still pending", it.Result, err)
	}
	out := answerAsHelper(t, sock, deploy, `{"action":"accept","value":"allow","terminal_confirmed":true,"password":"`+testPassword+`"}`, true)
	if !strings.Contains(out, "200 OK") {
		t.Fatalf("allow with the password from the foreground of a terminal: got %q, want 200", out)
	}
	it, err := c.Get(ctx, deploy)
	if err != nil || it.Result == nil || it.Result.Outcome != question.Answered || it.Result.Via != question.ViaTerminal {
		t.Fatalf("after the terminal's allow: %+v %v, want answered via terminal", it.Result, err)
	}
}

// TestServer_LinksOnlyOnTerminal: the pending list carries the page links
// (with their keys) only for a caller in the foreground of a terminal.
func TestServer_LinksOnlyOnTerminal(t *testing.T) {
	t.Parallel()
	store := historytest.New(t)
	b := question.NewBroker(question.Config{Journal: store})
	defer b.Close()
	s := &Server{Broker: b, Store: store, Status: func() Status { return Status{} },
		URL: func(id string) string { return "http://127.0.0.1:1/q/" + id + "?k=secretkey" }}
	sock := filepath.Join(t.TempDir(), "c.sock")
	if err := s.Listen(sock); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Shutdown(context.Background()) }()
	q, err := b.Ask(context.Background(), question.Question{Kind: question.KindNotice, Message: "hi", Client: question.Client{Name: "a"}})
	if err != nil {
		t.Fatal(err)
	}
	if out := callAsHelper(t, sock, "/v1/pending", "", false); !strings.HasPrefix(out, "200 ") || !strings.Contains(out, q.ID) || strings.Contains(out, "secretkey") {
		t.Errorf("pending without a terminal: %q, want the question and no link", out)
	}
	if out := callAsHelper(t, sock, "/v1/pending", "", true); !strings.Contains(out, "/q/"+q.ID+"?k=secretkey") {
		t.Errorf("pending on a terminal: %q, want the link", out)
	}
}
