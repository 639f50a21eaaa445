package hookservice

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
)

// TestHostReachesTheQuestion: a request the app took in on a remote host's
// channel (hook.Request.Host) asks a question that names that host, and its
// answer comes back as a local one's does.
func TestHostReachesTheQuestion(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	req := hook.Request{Payload: payload(t, hook.ClaudeCode, "PermissionRequest"), WaitMS: 30000, Host: "build-01"}
	got := make(chan hook.Reply, 1)
	go func() { got <- e.h.Handle(context.Background(), req, func() {}) }()
	var q question.Question
	select {
	case q = <-e.asked:
	case <-time.After(10 * time.Second):
		t.Fatal("no question asked")
	}
	if q.Host != "build-01" {
		t.Fatalf("question host %q, want build-01", q.Host)
	}
	if err := e.b.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`), Via: question.ViaDialog}); err != nil {
		t.Fatal(err)
	}
	select {
	case rep := <-got:
		if rep.Behavior != hook.Allow {
			t.Fatalf("reply %+v, want allow", rep)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no reply")
	}
	if b, err := json.Marshal(req); err != nil || strings.Contains(string(b), "build-01") {
		t.Fatalf("the host crosses the wire: %s %v", b, err)
	}
}
