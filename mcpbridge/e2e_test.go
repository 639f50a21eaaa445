package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/question"
)

// TestEveryToolEndToEnd asks through each tool with the official Go SDK
// client over real HTTP, while a goroutine plays the person.
func TestEveryToolEndToEnd(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newEnv(t, Config{}).at(rev)
		s := e.connect(t, "claude-code", nil)
		ctx := context.Background()
		schema := map[string]any{"type": "object", "properties": map[string]any{
			"name": map[string]any{"type": "string"}, "age": map[string]any{"type": "integer", "minimum": 0},
			"tags": map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []string{"a", "b"}}},
			"ok":   map[string]any{"type": "boolean"}}, "required": []string{"name"}}
		two := []map[string]string{{"label": "Postgres", "description": "the usual"}, {"label": "SQLite"}}
		cases := []struct {
			tool string
			args map[string]any
			resp question.Response
			want map[string]any
		}{
			{ToolAskUser, map[string]any{"question": "Which DB?", "options": two}, accept(`"SQLite"`), map[string]any{"status": "answered", "answer": "SQLite", "source": "choice", "answered_by": "human", "via": "dialog"}},
			{ToolAskUser, map[string]any{"question": "Which DB?"}, accept(`"DuckDB"`), map[string]any{"answer": "DuckDB", "source": "free_text"}},
			{ToolAskConfirm, map[string]any{"question": "Delete build/ (3 GB)?", "destructive": true}, accept(`"yes"`), map[string]any{"confirmed": true, "answer": "yes"}},
			{ToolAskConfirm, map[string]any{"question": "Push to main?"}, accept(`"no"`), map[string]any{"status": "answered", "confirmed": false, "answer": "no"}},
			{ToolAskConfirm, map[string]any{"question": "Force-push?"}, question.Response{Action: question.Decline, Note: "use a branch"}, map[string]any{"status": "declined", "confirmed": false, "message": "use a branch"}},
			{ToolAskChoice, map[string]any{"question": "Pick", "options": two, "free_text": true}, accept(`{"selected":"Postgres","free_text":"v16"}`), map[string]any{"selected": []any{"Postgres"}, "free_text": "v16"}},
			{ToolAskMultiSelect, map[string]any{"question": "Pick", "options": two, "max_selections": 2}, accept(`["SQLite","Postgres"]`), map[string]any{"selected": []any{"SQLite", "Postgres"}}},
			{ToolAskText, map[string]any{"question": "Commit message?", "multiline": true, "max_length": 72}, accept(`"Fix the flaky test"`), map[string]any{"answer": "Fix the flaky test"}},
			{ToolAskForm, map[string]any{"message": "Who?", "requestedSchema": schema}, accept(`{"name":"Ada","age":36,"tags":["b"],"ok":true}`), map[string]any{"action": "accept", "content": map[string]any{"name": "Ada", "age": float64(36), "tags": []any{"b"}, "ok": true}}},
			{ToolAskForm, map[string]any{"message": "Who?", "requestedSchema": schema}, question.Response{Action: question.Cancel}, map[string]any{"action": "cancel", "status": "cancelled"}},
		}
		for _, tc := range cases {
			asked := e.person(t, tc.resp)
			got, text, isErr := call(t, ctx, s, tc.tool, tc.args)
			if isErr {
				t.Fatalf("%s: tool error %s", tc.tool, text)
			}
			id := <-asked
			if idOf(got["question_id"]) != id {
				t.Errorf("%s: question_id %v, want %s", tc.tool, got["question_id"], id)
			}
			for k, v := range tc.want {
				if g, _ := json.Marshal(got[k]); string(g) != string(mustJSON(v)) {
					t.Errorf("%s: %s = %s, want %s (result %s)", tc.tool, k, g, mustJSON(v), text)
				}
			}
			if got["next_step"] == "" {
				t.Errorf("%s: no next_step", tc.tool)
			}
			q, _, _ := e.broker.Get(idOf(id))
			if q.Client.Name != "claude-code" || q.Client.Version != "1.0" || (q.Client.SessionID == "") != (rev == modern) {
				t.Errorf("%s: question attributed to %+v", tc.tool, q.Client)
			}
			if q.Tool != tc.tool || q.Origin != question.OriginAsk {
				t.Errorf("%s: question asked by %q, origin %q", tc.tool, q.Tool, q.Origin)
			}
		}
		// The form's answer kept its JSON types in the history too.
		page, err := e.store.List(ctx, history.Filter{Kind: question.KindForm, Outcomes: []question.State{question.State(question.Answered)}})
		if err != nil || len(page.Records) != 1 || string(page.Records[0].Result.Value) != `{"age":36,"name":"Ada","ok":true,"tags":["b"]}` {
			t.Fatalf("history: %+v %v", page, err)
		}
	})
}

func TestNotifyReturnsAtOnce(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newEnv(t, Config{}).at(rev)
		s := e.connect(t, "cursor", nil)
		got, text, isErr := call(t, context.Background(), s, ToolNotify, map[string]any{"message": "Deploy finished"})
		if isErr || got["status"] != "pending" || !strings.Contains(got["next_step"].(string), "Nothing comes back") {
			t.Fatalf("notify: %s", text)
		}
		p := e.waitPending(t, 1)
		if p[0].Kind != question.KindNotice || time.Until(p[0].Deadline) < 59*time.Minute {
			t.Fatalf("notice %+v", p[0])
		}
	})
}

// TestClientGivesUpThenCollects is the core promise: a client whose call
// ends after 5 s (here its blocking window) gets the answer later, through
// get_answer and by asking the same question again, with one dialog.
func TestClientGivesUpThenCollects(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newEnv(t, Config{DefaultWindow: 5 * time.Second}).at(rev)
		s := e.connect(t, "some-client", nil)
		ctx := context.Background()
		args := map[string]any{"question": "Ship v2 today?"}

		start := time.Now()
		got, text, _ := call(t, ctx, s, ToolAskConfirm, args)
		if got["status"] != "pending" || !strings.Contains(got["next_step"].(string), "get_answer") {
			t.Fatalf("after the window: %s", text)
		}
		if el := time.Since(start); el < 4*time.Second {
			t.Fatalf("returned after %v, before the window", el)
		}
		id := got["question_id"].(string)

		// Asking again while it is open re-attaches: still one question.
		ctx2, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		done := make(chan map[string]any)
		go func() { r, _, _ := call(t, ctx2, s, ToolAskConfirm, args); done <- r }()
		e.waitPending(t, 1)
		for e.broker.Waiters(idOf(id)) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		if n := len(e.broker.Pending()); n != 1 {
			t.Fatalf("%d questions pending after a re-ask, want 1", n)
		}
		if err := e.broker.Answer(idOf(id), accept(`"yes"`)); err != nil {
			t.Fatal(err)
		}
		r := <-done
		if r["question_id"] != id || r["confirmed"] != true {
			t.Fatalf("re-ask got %v", r)
		}
		// get_answer returns the same answer, at once.
		got, text, _ = call(t, ctx, s, ToolGetAnswer, map[string]any{"question_id": id, "wait_seconds": 0})
		if got["status"] != "answered" || got["confirmed"] != true {
			t.Fatalf("get_answer: %s", text)
		}
		// Once delivered, the same question opens a new dialog.
		if r, text, _ := call(t, ctx2, s, ToolAskConfirm, map[string]any{"question": "Ship v2 today?", "wait": false}); r["status"] != "pending" {
			t.Fatalf("new ask: %s", text)
		}
		p := e.waitPending(t, 1)
		if p[0].ID == idOf(id) {
			t.Fatal("a delivered question was re-used")
		}
	})
}

// TestSDKCancelWithdraws: the Go SDK sends notifications/cancelled when the
// caller's context ends; that explicit cancel withdraws the question.
func TestSDKCancelWithdraws(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newEnv(t, Config{}).at(rev)
		s := e.connect(t, "impatient", nil)
		args := map[string]any{"question": "Which region?", "options": []map[string]string{{"label": "eu"}, {"label": "us"}}}
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			_, err := s.CallTool(ctx, &mcp.CallToolParams{Name: ToolAskChoice, Arguments: args})
			errc <- err
		}()
		q := e.waitPending(t, 1)[0]
		cancel()
		if err := <-errc; err == nil {
			t.Fatal("call returned a result although nobody answered")
		}
		if r := waitEnded(t, e, q.ID); r.Outcome != question.Withdrawn {
			t.Fatalf("after the SDK cancelled: %+v", r)
		}
	})
}

func TestDisconnectWithoutCancelKeepsQuestion(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	// A raw HTTP client that drops the connection without notifications/cancelled.
	sid := rawInit(t, e.url, "raw-client")
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := rawPost(ctx, e.url, sid, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"ask_text","arguments":{"question":"Your name?"}}}`)
		errc <- err
	}()
	q := e.waitPending(t, 1)[0]
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("the dropped call returned a result")
	}
	time.Sleep(300 * time.Millisecond)
	if _, res, _ := e.broker.Get(q.ID); res != nil {
		t.Fatalf("a dropped connection ended the question as %s", res.Outcome)
	}
	if err := e.broker.Answer(q.ID, accept(`"Ada"`)); err != nil {
		t.Fatal(err)
	}
	// The late answer reaches the same client through a re-ask.
	body, err := rawPost(context.Background(), e.url, sid, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"ask_text","arguments":{"question":"Your name?"}}}`)
	if err != nil || !strings.Contains(body, `\"answer\":\"Ada\"`) || !strings.Contains(body, q.ID) {
		t.Fatalf("re-ask got %s %v", body, err)
	}
}

func TestExplicitCancelWithdraws(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	sid := rawInit(t, e.url, "raw-client")
	go func() {
		_, _ = rawPost(context.Background(), e.url, sid, `{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"name":"ask_confirm","arguments":{"question":"Deploy?"}}}`)
	}()
	q := e.waitPending(t, 1)[0]
	if _, err := rawPost(context.Background(), e.url, sid, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a-1","reason":"user pressed Esc"}}`); err != nil {
		t.Fatal(err)
	}
	r := waitEnded(t, e, q.ID)
	if r.Outcome != question.Withdrawn || r.DecidedBy != question.ByAgent {
		t.Fatalf("after notifications/cancelled: %+v", r)
	}
}

func TestCancelQuestionTool(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newEnv(t, Config{}).at(rev)
		s := e.connect(t, "vscode", nil)
		ctx := context.Background()
		got, _, _ := call(t, ctx, s, ToolAskText, map[string]any{"question": "Branch name?", "wait": false})
		id := got["question_id"].(string)
		got, text, _ := call(t, ctx, s, ToolCancelQuestion, map[string]any{"question_id": id})
		if got["status"] != "withdrawn" || got["answered_by"] != "agent" {
			t.Fatalf("cancel_question: %s", text)
		}
		rec, err := e.store.Get(ctx, idOf(id))
		if err != nil || rec.Result == nil || rec.Result.Outcome != question.Withdrawn {
			t.Fatalf("history: %+v %v", rec, err)
		}
		got, _, _ = call(t, ctx, s, ToolCancelQuestion, map[string]any{"question_id": id})
		if !strings.HasPrefix(got["next_step"].(string), "It had already ended") {
			t.Fatalf("second cancel: %v", got)
		}
	})
}

func TestTimeoutIsNeverApproval(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newEnv(t, Config{}).at(rev)
		s := e.connect(t, "claude-code", nil)
		got, text, _ := call(t, context.Background(), s, ToolAskConfirm, map[string]any{"question": "Drop the table?", "timeout_seconds": 1})
		// timeout_seconds is clamped to 10 s.
		if got["status"] != "auto_rejected" || got["reason"] != "timeout" || got["answered_by"] != "timeout" || got["confirmed"] != false {
			t.Fatalf("after the deadline: %s", text)
		}
		if el := got["elapsed_ms"].(float64); el < 9500 {
			t.Fatalf("deadline after %v ms; timeout_seconds 1 should clamp to 10 s", el)
		}
	})
}

func TestProgressKeepAlive(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		// An hour-long interval set at start, shortened while serving (settings
		// applied live): calls that start waiting afterwards use the new one.
		e := newEnv(t, Config{ProgressEvery: time.Hour}).at(rev)
		e.bridge.Apply(Config{ProgressEvery: 50 * time.Millisecond})
		var n atomic.Int32
		s := e.connect(t, "claude-code", &mcp.ClientOptions{ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { n.Add(1) }})
		done := make(chan map[string]any)
		go func() {
			p := &mcp.CallToolParams{Name: ToolAskText, Arguments: map[string]any{"question": "Name?"}}
			p.SetProgressToken("tok-1")
			r, err := s.CallTool(context.Background(), p)
			if err != nil {
				t.Error(err)
			}
			m, _, _ := decodeResult(t, r)
			done <- m
		}()
		q := e.waitPending(t, 1)[0]
		for n.Load() < 3 {
			time.Sleep(10 * time.Millisecond)
		}
		_ = e.broker.Answer(q.ID, accept(`"Ada"`))
		if r := <-done; r["answer"] != "Ada" {
			t.Fatalf("got %v", r)
		}
	})
}

// TestManyAgentsNoneMisrouted: concurrent clients each get their own answer.
func TestManyAgentsNoneMisrouted(t *testing.T) {
	t.Parallel()
	eachRevision(t, func(t *testing.T, rev string) {
		e := newEnv(t, Config{}).at(rev)
		cancel := e.broker.Subscribe(func(ev question.Event) {
			if ev.Type == question.EventAsked {
				go func() {
					_ = e.broker.Answer(ev.Question.ID, accept(mustJSONString(ev.Question.Client.Name+":"+ev.Question.Message)))
				}()
			}
		})
		defer cancel()
		var wg sync.WaitGroup
		for i := range 10 {
			wg.Go(func() {
				name := "agent-" + string(rune('a'+i))
				s := e.connect(t, name, nil)
				for j := range 5 {
					msg := name + " question " + string(rune('0'+j))
					got, text, _ := call(t, context.Background(), s, ToolAskText, map[string]any{"question": msg})
					if got["answer"] != name+":"+msg {
						t.Errorf("%s got %s", name, text)
					}
				}
			})
		}
		wg.Wait()
	})
}

func mustJSONString(s string) string { return string(mustJSON(s)) }

func waitEnded(t *testing.T, e *env, id string) question.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := e.broker.Wait(ctx, id)
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("wait: %v", err)
	}
	return r
}

// TestModernProtocolClient: a client on protocol 2026-07-28 (no initialize
// handshake, client info in each request's _meta) is served and attributed.
func TestModernProtocolClient(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	c := mcp.NewClient(&mcp.Implementation{Name: "modern-agent", Version: "3.0"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: e.url, HTTPClient: &http.Client{Transport: bearer{http.DefaultTransport}}, MaxRetries: -1}
	s, err := c.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	asked := e.person(t, accept(`"yes"`))
	got, text, _ := call(t, context.Background(), s, ToolAskConfirm, map[string]any{"question": "Rebase onto main?"})
	id := <-asked
	if got["confirmed"] != true {
		t.Fatalf("modern client got %s", text)
	}
	q, _, _ := e.broker.Get(idOf(id))
	if q.Client.Name != "modern-agent" || q.Client.Version != "3.0" {
		t.Fatalf("attributed to %+v", q.Client)
	}
}

// TestApplyAppliesToNewCalls: settings applied while serving reach the
// calls that start afterwards, each one and all at once; zero values mean
// the defaults again.
func TestApplyAppliesToNewCalls(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	if w := e.bridge.window(question.Client{Name: "cursor-vscode"}); w != 270*time.Second {
		t.Fatalf("default cursor window %v", w)
	}
	e.bridge.Apply(Config{Windows: []WindowRule{{Match: "cursor", Window: 7 * time.Second}}, DefaultWindow: 3 * time.Second, DefaultTimeout: 42 * time.Second,
		ProgressEvery: time.Minute, AskMode: question.AskClient, Desktop: true, MaxPending: 3})
	if w := e.bridge.window(question.Client{Name: "cursor-vscode"}); w != 7*time.Second {
		t.Fatalf("cursor window after Apply %v", w)
	}
	if w := e.bridge.window(question.Client{Name: "unknown"}); w != 3*time.Second {
		t.Fatalf("default window after Apply %v", w)
	}
	if e.bridge.progressEvery() != time.Minute || e.bridge.AskMode() != question.AskClient || e.bridge.MaxPending() != 3 {
		t.Fatalf("after Apply: progress %v, ask %s, max pending %d", e.bridge.progressEvery(), e.bridge.AskMode(), e.bridge.MaxPending())
	}
	s := e.connect(t, "someone", nil)
	got, _, _ := call(t, context.Background(), s, ToolAskText, map[string]any{"question": "Name?", "wait": false})
	q, _, _ := e.broker.Get(got["question_id"].(string))
	if d := q.Deadline.Sub(q.Created); d < 41*time.Second || d > 42*time.Second {
		t.Fatalf("deadline %v after Apply, want 42s", d)
	}
	e.bridge.Apply(Config{})
	if e.bridge.window(question.Client{Name: "cursor-vscode"}) != 270*time.Second || e.bridge.defaultTimeout() != question.DefaultTimeout ||
		e.bridge.progressEvery() != 15*time.Second || e.bridge.AskMode() != question.AskDesktop || e.bridge.MaxPending() != question.DefaultMaxPending {
		t.Fatal("Apply of the zero Config did not restore the defaults")
	}
}
