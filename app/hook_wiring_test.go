package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/settings"
)

// TestHooksWired: the running app serves /v1/hook with the permission
// rendering, the person's deadline and the hook_ask_user_question setting.
func TestHooksWired(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "d")
	env := runApp(t, dir, "127.0.0.1:0")
	asked := make(chan question.Question, 4)
	env.Broker.Subscribe(func(ev question.Event) {
		if ev.Type == question.EventAsked {
			asked <- ev.Question
		}
	})
	c := control.NewClient(filepath.Join(dir, datadir.SocketFile))
	load := func(name string) hook.Payload {
		b, err := os.ReadFile(filepath.Join("hook", "testdata", "claude-code", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		p, err := hook.Parse(hook.ClaudeCode, "", b)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	call := func(p hook.Payload) <-chan hook.Reply {
		out := make(chan hook.Reply, 1)
		go func() {
			rep, err := c.Hook(context.Background(), hook.Request{Payload: p, WaitMS: 30000})
			if err != nil {
				t.Error(err)
			}
			out <- rep
		}()
		return out
	}
	next := func() question.Question {
		select {
		case q := <-asked:
			return q
		case <-time.After(10 * time.Second):
			t.Fatal("nothing asked")
		}
		return question.Question{}
	}
	got := call(load("PermissionRequest"))
	q := next()
	if !strings.Contains(q.Details, "rm -rf node_modules") || q.AgentReason != "Remove node_modules directory" ||
		q.Risk != question.RiskHigh || !strings.Contains(q.RiskWhy, "deletes files recursively") || q.Cwd != "/home/u/app" || !strings.Contains(string(q.Input), `"rm -rf node_modules"`) ||
		q.Deadline.Sub(q.Created) > 40*time.Second {
		t.Fatalf("approval %+v", q)
	}
	_ = env.Broker.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`)})
	if rep := <-got; rep.Behavior != hook.Allow {
		t.Fatalf("reply %+v", rep)
	}
	ask := load("PreToolUse_AskUserQuestion")
	off := false
	if err := env.ApplySettings(settings.Settings{HookAskUserQuestion: &off}); err != nil {
		t.Fatal(err)
	}
	if rep := <-call(ask); rep.Behavior != "" {
		t.Fatalf("AskUserQuestion answered with the setting off: %+v", rep)
	}
	if err := env.ApplySettings(settings.Settings{}); err != nil { // absent: on
		t.Fatal(err)
	}
	got = call(ask)
	q = next()
	_ = env.Broker.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"npm"`)})
	if rep := <-got; rep.Answers["Which package manager should I use?"] != "npm" {
		t.Fatalf("reply %+v", rep)
	}
}
