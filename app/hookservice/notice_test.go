package hookservice

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// realPayload reads a payload the real agent sent (testdata/AGENT/real),
// with no --event, as setup installs the hook.
func realPayload(t *testing.T, a hook.Agent, file string) hook.Payload {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "hook", "testdata", string(a), "real", file+".json"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := hook.Parse(a, "", b)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestNoticeText (finding 3 of issue 25): an agent's notice says which agent,
// that its own terminal is asking, the project (the working directory's last
// element, "~" for home) and the session (its id's first 8 characters),
// then the agent's own words.
func TestNoticeText(t *testing.T) {
	t.Parallel()
	n := func(a hook.Agent, typ, title, msg, cwd, session string) hook.Request {
		return hook.Request{Payload: hook.Payload{Agent: a, Event: hook.Notification, NotificationType: typ, Title: title, Message: msg, Cwd: cwd, SessionID: session}}
	}
	const sid = "3f2a1b9c-77b0-4d55-9a1c-0c5e7d2f1b3a"
	for _, c := range []struct {
		name        string
		req         hook.Request
		header, msg string
	}{
		{"permission prompt", n(hook.ClaudeCode, "permission_prompt", "Permission needed", "Claude needs your permission to use Bash", "/home/ada/src/payments-service", sid),
			"Claude Code is asking in its terminal", "payments-service (session 3f2a1b9c…): Claude needs your permission to use Bash"},
		{"real Claude Code 2.1.332", hook.Request{Payload: realPayload(t, hook.ClaudeCode, "Notification")},
			"Claude Code is asking in its terminal", "work (session f1142b35…): Claude needs your permission"},
		{"real Copilot CLI 1.0.102", hook.Request{Payload: realPayload(t, hook.CopilotCLI, "Notification")},
			"Copilot CLI is asking in its terminal", "work (session 0c4ac54e…): Run command: echo ran-dismiss > /tmp/realagents/work/dismiss && echo ran-dismiss"},
		{"needs input, no message", n(hook.ClaudeCode, "agent_needs_input", "", "", "/home/ada/src/payments-service", sid),
			"Claude Code is asking in its terminal", "payments-service (session 3f2a1b9c…): Claude Code needs your input."},
		{"idle", n(hook.ClaudeCode, "idle_prompt", "", "Claude is waiting for your input", "/srv/shop", sid),
			"Claude Code is waiting in its terminal", "shop (session 3f2a1b9c…): Claude is waiting for your input"},
		{"Copilot idle", n(hook.CopilotCLI, "agent_idle", "", "", "/srv/shop", "s1"),
			"Copilot CLI is waiting in its terminal", "shop (session s1): Copilot CLI has finished and is waiting for your next message."},
		{"completed", n(hook.ClaudeCode, "agent_completed", "", "", "/srv/shop", sid),
			"Claude Code has finished", "shop (session 3f2a1b9c…): A background task of Claude Code has finished."},
		{"home as ~", n(hook.ClaudeCode, "permission_prompt", "", "Claude needs your permission to use Read", "/home/ada", sid),
			"Claude Code is asking in its terminal", "~ (session 3f2a1b9c…): Claude needs your permission to use Read"},
		{"another type, its title", n(hook.ClaudeCode, "auth_success", "Signed in", "Authenticated", "/srv/shop", ""),
			"Claude Code: Signed in", "shop: Authenticated"},
		{"no directory", n(hook.ClaudeCode, "", "", "", "", sid),
			"Claude Code", "session 3f2a1b9c…: Claude Code sent a notification."},
		{"nothing of where", n(hook.CopilotCLI, "permission_prompt", "", "Run command: ls", "", ""),
			"Copilot CLI is asking in its terminal", "Run command: ls"},
	} {
		if h, m := noticeText(c.req, "/home/ada"); h != c.header || m != c.msg {
			t.Errorf("%s: %q / %q, want %q / %q", c.name, h, m, c.header, c.msg)
		}
	}
}

// TestHook_NotificationIsANotice: a notification returns at once, with no
// decision, as a notice worded by noticeText and marked as an agent's own
// (its notification shows the header as the summary); while the tray
// shows that session's request, its permission_prompt adds nothing.
func TestHook_NotificationIsANotice(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	for _, c := range []struct {
		agent       hook.Agent
		file        string
		header, msg string
	}{
		{hook.ClaudeCode, "Notification", "Claude Code is asking in its terminal", "app (session abc123): Claude needs your permission to use Bash"},
		{hook.CopilotCLI, "notification", "Copilot CLI is asking in its terminal", "app (session 7f3c2a10…): Copilot needs your permission to run bash"},
	} {
		start := time.Now()
		rep := recv(t, e.call(payload(t, c.agent, c.file), time.Minute))
		if rep.Behavior != "" || time.Since(start) > time.Second {
			t.Fatalf("%s: %+v after %v", c.file, rep, time.Since(start))
		}
		q := e.nextAsked(t)
		if q.Kind != question.KindNotice || q.Origin != question.OriginAgentNotice || q.Header != c.header || q.Message != c.msg || q.Client.Name != string(c.agent) || q.Client.SessionID == "" {
			t.Errorf("%s: notice %q / %q / %+v", c.file, q.Header, q.Message, q.Client)
		}
		if title, body := present.NoteText(&q); title != c.header || body != c.msg {
			t.Errorf("%s: notification %q / %q", c.file, title, body)
		}
	}
	perm := payload(t, hook.ClaudeCode, "PermissionRequest")
	got := e.call(perm, time.Minute)
	q := e.nextAsked(t)
	e.waitOpen(t, perm, 1)
	recv(t, e.call(payload(t, hook.ClaudeCode, "Notification"), time.Minute))
	select {
	case n := <-e.asked:
		t.Fatalf("a second notice %+v", n)
	case <-time.After(100 * time.Millisecond):
	}
	_ = e.b.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`)})
	recv(t, got)
}

// TestHook_NoticeWithdrawnByTheSessionsNextEvent (finding 3 of issue 25):
// the session's next hook event of any kind withdraws its notice (answered
// in the agent): a tool event, a prompt, the end of a turn or of the
// session, a permission request, a PreToolUse, and a new notification,
// which replaces it. Another session's notice stays.
func TestHook_NoticeWithdrawnByTheSessionsNextEvent(t *testing.T) {
	t.Parallel()
	for _, ev := range []string{"PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop", "SessionEnd", "PermissionRequest", "PreToolUse_AskUserQuestion", "Notification_idle"} {
		t.Run(ev, func(t *testing.T) {
			t.Parallel()
			e := newHookServer(t)
			mine := payload(t, hook.ClaudeCode, "Notification")
			recv(t, e.call(mine, 0))
			notice := e.nextAsked(t)
			recv(t, e.call(withEvent(mine, "another-session"), 0))
			other := e.nextAsked(t)

			next := payload(t, hook.ClaudeCode, ev)
			got := e.call(next, time.Minute)
			ended := recv(t, e.ended)
			if ended.Question.ID != notice.ID || ended.Result.Outcome != question.Withdrawn || ended.Result.Reason != question.ReasonAnsweredInAgent {
				t.Fatalf("ended %+v %+v", ended.Question, ended.Result)
			}
			if next.Event == hook.PermissionRequest || next.Event == hook.Notification {
				q := e.nextAsked(t)
				if q.ID == other.ID || q.Client.SessionID != mine.SessionID {
					t.Fatalf("asked %+v", q)
				}
				if next.Event == hook.Notification && (q.Kind != question.KindNotice || q.Header != "Claude Code is waiting in its terminal") {
					t.Fatalf("the new notice %+v", q)
				}
				_ = e.b.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`)})
			}
			recv(t, got)
			if _, res, err := e.b.Get(other.ID); err != nil || res != nil {
				t.Fatalf("another session's notice: %+v %v", res, err)
			}
		})
	}
}

// TestHook_NoticeAskedAsItsSessionMovedOn: a notice whose session's next
// event arrived while it was being asked is withdrawn at once, not left
// until an event after that.
func TestHook_NoticeAskedAsItsSessionMovedOn(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	req := hook.Request{Payload: payload(t, hook.ClaudeCode, "Notification")}
	seq, _ := e.h.staleNotices(req)
	e.h.staleNotices(hook.Request{Payload: payload(t, hook.ClaudeCode, "PostToolUse")})
	e.h.notify(context.Background(), req, seq, false)
	notice := e.nextAsked(t)
	if ended := recv(t, e.ended); ended.Question.ID != notice.ID || ended.Result.Reason != question.ReasonAnsweredInAgent {
		t.Fatalf("ended %+v %+v", ended.Question, ended.Result)
	}
	// Asked with the session's latest count, it stays.
	seq, late := e.h.staleNotices(req)
	e.h.notify(context.Background(), req, seq, late)
	kept := e.nextAsked(t)
	if _, res, err := e.b.Get(kept.ID); err != nil || res != nil {
		t.Fatalf("the current notice: %+v %v", res, err)
	}
}

// TestHook_NoticeReadAfterALaterEvent: an app stopped for a while (SIGSTOP)
// reads the hook requests queued meanwhile in any order; a notification its
// session sent before an event the app has already read is stale, and is
// withdrawn as soon as it is asked (found with the real Copilot CLI: its
// "asking in its terminal" notice stayed pending after the resume). Read in
// the order sent, the same notice stays.
func TestHook_NoticeReadAfterALaterEvent(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	send := func(p hook.Payload, sent int64) {
		t.Helper()
		if _, err := e.c.Hook(context.Background(), hook.Request{Payload: p, SentMS: sent}); err != nil {
			t.Fatal(err)
		}
	}
	notice := payload(t, hook.ClaudeCode, "Notification")
	send(payload(t, hook.ClaudeCode, "Stop"), 2000)
	send(notice, 1000)
	late := e.nextAsked(t)
	if ended := recv(t, e.ended); ended.Question.ID != late.ID || ended.Result.Outcome != question.Withdrawn || ended.Result.Reason != question.ReasonAnsweredInAgent {
		t.Fatalf("the late notice ended %+v %+v", ended.Question, ended.Result)
	}
	send(notice, 3000)
	kept := e.nextAsked(t)
	if _, res, err := e.b.Get(kept.ID); err != nil || res != nil {
		t.Fatalf("a notice sent after the session's last event: %+v %v", res, err)
	}
}
