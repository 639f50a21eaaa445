package control

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
)

// handshakeBound is what the tests allow the hook to step aside in: the
// handshake is hook.Handshake (1 s), and the machine is shared.
const handshakeBound = 3 * time.Second

// hookFunc is a HookHandler from a function.
type hookFunc func(ctx context.Context, req hook.Request, registered func()) hook.Reply

func (f hookFunc) Handle(ctx context.Context, req hook.Request, registered func()) hook.Reply {
	return f(ctx, req, registered)
}

// serveHooks serves h on a new control socket until the test ends.
func serveHooks(t *testing.T, h HookHandler) *Client {
	t.Helper()
	b := question.NewBroker(question.Config{})
	s := &Server{Broker: b, Hooks: h, Status: func() Status { return Status{} }}
	sock := filepath.Join(t.TempDir(), "c.sock")
	if err := s.Listen(sock); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = s.Shutdown(context.Background())
		_ = b.Close()
	})
	return NewClient(sock)
}

var permissionReq = hook.Request{Payload: hook.Payload{Agent: hook.ClaudeCode, Event: hook.PermissionRequest, ToolName: "Bash"}, WaitMS: 60_000}

// TestHook_WaitsForThePersonOnlyOnceAcknowledged: an app that registers the
// request and answers after several handshakes' time is waited for; an app
// that never registers it (a stuck broker) is left within the bound, and the
// request's context ends (the question is withdrawn).
func TestHook_WaitsForThePersonOnlyOnceAcknowledged(t *testing.T) {
	t.Parallel()
	c := serveHooks(t, hookFunc(func(ctx context.Context, _ hook.Request, registered func()) hook.Reply {
		registered()
		select {
		case <-time.After(2*hook.Handshake + 500*time.Millisecond):
			return hook.Reply{Behavior: hook.Deny, Message: "no"}
		case <-ctx.Done():
			return hook.Reply{}
		}
	}))
	rep, err := c.Hook(context.Background(), permissionReq)
	if err != nil || rep.Behavior != hook.Deny || rep.Message != "no" {
		t.Fatalf("acknowledged: %+v, %v", rep, err)
	}

	gone := make(chan struct{})
	c = serveHooks(t, hookFunc(func(ctx context.Context, _ hook.Request, _ func()) hook.Reply {
		select {
		case <-ctx.Done():
			close(gone)
		case <-time.After(time.Minute):
		}
		return hook.Reply{Behavior: hook.Allow}
	}))
	start := time.Now()
	rep, err = c.Hook(context.Background(), permissionReq)
	if took := time.Since(start); !errors.Is(err, ErrNoAck) || rep.Behavior != "" || took > handshakeBound {
		t.Fatalf("never acknowledged: %+v, %v after %v", rep, err, took)
	}
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the app's handler was not told that the hook went away")
	}
}

// TestHook_EventsThatReturnAtOnce: a handler that returns without calling
// registered (a notice, a held request) is acknowledged by the server.
func TestHook_EventsThatReturnAtOnce(t *testing.T) {
	t.Parallel()
	c := serveHooks(t, hookFunc(func(context.Context, hook.Request, func()) hook.Reply {
		return hook.Reply{Behavior: hook.Allow, QuestionID: "q1"}
	}))
	rep, err := c.Hook(context.Background(), permissionReq)
	if err != nil || rep.Behavior != hook.Allow || rep.QuestionID != "q1" {
		t.Fatalf("%+v, %v", rep, err)
	}
}

// TestHook_BoundedAfterTheAcknowledgement: once acknowledged, the wait is
// the request's window plus replySlack, even with no deadline in ctx.
func TestHook_BoundedAfterTheAcknowledgement(t *testing.T) {
	t.Parallel()
	c := serveHooks(t, hookFunc(func(ctx context.Context, _ hook.Request, registered func()) hook.Reply {
		registered()
		<-ctx.Done()
		return hook.Reply{}
	}))
	req := permissionReq
	req.WaitMS = 200
	start := time.Now()
	_, err := c.Hook(context.Background(), req)
	if took := time.Since(start); err == nil || took < replySlack || took > replySlack+handshakeBound {
		t.Fatalf("%v after %v", err, took)
	}
}

// TestHook_OldApp: an app older than the acknowledgement serves only
// POST /v1/hook, answering once the person decided. The hook asks it there
// and waits for the answer past the handshake.
func TestHook_OldApp(t *testing.T) {
	t.Parallel()
	var paths []string
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/hook", func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		time.Sleep(hook.Handshake + 300*time.Millisecond)
		writeJSON(w, http.StatusOK, hook.Reply{Behavior: hook.Allow})
	})
	sock := filepath.Join(t.TempDir(), "c.sock")
	ln, err := listenControl(sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	rep, err := NewClient(sock).Hook(context.Background(), permissionReq)
	if err != nil || rep.Behavior != hook.Allow || len(paths) != 1 {
		t.Fatalf("%+v, %v, %v", rep, err, paths)
	}
}
