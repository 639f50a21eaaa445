package mcpbridge

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/question"
)

// fakeForm is an MCP client's form: it records each elicitation/create and
// answers with reply (nil: block until the request's context ends or the
// test does).
type fakeForm struct {
	mu    sync.Mutex
	got   []*mcp.ElicitParams
	reply func(p *mcp.ElicitParams) *mcp.ElicitResult
	seen  chan *mcp.ElicitParams
	done  chan struct{}
}

func newFakeForm(reply func(p *mcp.ElicitParams) *mcp.ElicitResult) *fakeForm {
	return &fakeForm{reply: reply, seen: make(chan *mcp.ElicitParams, 16), done: make(chan struct{})}
}

// connectForm connects a client that shows forms with f. A form still
// open when the test ends is dismissed before the session closes (closing
// waits for it: the server does not tell the client it gave up on a form).
func (e *env) connectForm(t *testing.T, name string, f *fakeForm) *mcp.ClientSession {
	t.Helper()
	s := e.connect(t, name, &mcp.ClientOptions{ElicitationHandler: f.handle})
	t.Cleanup(func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		select {
		case <-f.done:
		default:
			close(f.done)
		}
	})
	return s
}

func (f *fakeForm) handle(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	f.mu.Lock()
	f.got = append(f.got, req.Params)
	reply := f.reply
	f.mu.Unlock()
	f.seen <- req.Params
	if reply == nil {
		select {
		case <-ctx.Done():
		case <-f.done:
		}
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	return reply(req.Params), nil
}

func (f *fakeForm) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.got)
}

// connectAt is connect with a chosen protocol version.
func (e *env) connectAt(t *testing.T, name, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1.0"}, opts)
	tr := &mcp.StreamableClientTransport{Endpoint: e.url, HTTPClient: &http.Client{Transport: bearer{http.DefaultTransport}}, MaxRetries: -1}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := c.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// accepting answers every form with a copy of content, after pause (a
// person reading). A copy: the Go SDK client writes the schema's defaults
// into the content it returns, and the same case runs at both revisions
// side by side.
func accepting(content map[string]any, pause time.Duration) func(*mcp.ElicitParams) *mcp.ElicitResult {
	raw := mustJSON(content)
	return func(*mcp.ElicitParams) *mcp.ElicitResult {
		time.Sleep(pause)
		var c map[string]any
		_ = json.Unmarshal(raw, &c)
		return &mcp.ElicitResult{Action: "accept", Content: c}
	}
}

func refusing(action string, pause time.Duration) func(*mcp.ElicitParams) *mcp.ElicitResult {
	return func(*mcp.ElicitParams) *mcp.ElicitResult {
		time.Sleep(pause)
		return &mcp.ElicitResult{Action: action}
	}
}

// TestClientModeDeliversEachKind: in client mode every kind reaches the
// client's form as the schema README promises, and accept, decline and
// cancel come back to the agent with via elicitation, typed.
func TestClientModeDeliversEachKind(t *testing.T) {
	t.Parallel()
	two := []map[string]string{{"label": "Postgres", "description": "the usual"}, {"label": "SQLite"}}
	titledTwo := []any{map[string]any{"const": "Postgres", "title": "Postgres — the usual"}, map[string]any{"const": "SQLite", "title": "SQLite"}}
	form := map[string]any{"type": "object", "properties": map[string]any{
		"name": map[string]any{"type": "string", "title": "Name"}, "age": map[string]any{"type": "integer", "minimum": 0},
		"ok": map[string]any{"type": "boolean"}}, "required": []any{"name"}}
	cases := []struct {
		name   string
		tool   string
		args   map[string]any
		schema map[string]any
		reply  func(*mcp.ElicitParams) *mcp.ElicitResult
		want   map[string]any
	}{
		{"confirm", ToolAskConfirm, map[string]any{"question": "Tag the release?", "yes_label": "Tag", "no_label": "Later"},
			map[string]any{"type": "object", "required": []any{"confirm"}, "properties": map[string]any{"confirm": map[string]any{
				"type": "boolean", "title": "Tag",
				"description": `Check for "Tag"; leave unchecked for "Later".`}}},
			accepting(map[string]any{"confirm": true}, 0),
			map[string]any{"status": "answered", "confirmed": true, "answer": "yes", "via": "elicitation", "answered_by": "human"}},
		{"confirm no", ToolAskConfirm, map[string]any{"question": "Push to main?"},
			map[string]any{"type": "object", "required": []any{"confirm"}, "properties": map[string]any{"confirm": map[string]any{
				"type": "boolean", "title": "Yes", "description": `Check for "Yes"; leave unchecked for "No".`}}},
			accepting(map[string]any{"confirm": false}, 0),
			map[string]any{"status": "answered", "confirmed": false, "answer": "no", "via": "elicitation"}},
		{"choice", ToolAskChoice, map[string]any{"question": "Which DB?", "options": two, "free_text": true},
			map[string]any{"type": "object", "properties": map[string]any{
				"choice":    map[string]any{"type": "string", "title": "Choose one", "oneOf": titledTwo},
				"free_text": map[string]any{"type": "string", "title": "Or write your own", "maxLength": float64(question.MaxNote)}}},
			accepting(map[string]any{"choice": "SQLite", "free_text": "v3"}, 0),
			map[string]any{"status": "answered", "selected": []any{"SQLite"}, "free_text": "v3", "via": "elicitation"}},
		{"multi", ToolAskMultiSelect, map[string]any{"question": "Which?", "options": two, "min_selections": 1},
			map[string]any{"type": "object", "required": []any{"choices"}, "properties": map[string]any{
				"choices": map[string]any{"type": "array", "title": "Choose", "minItems": float64(1), "maxItems": float64(2),
					"items": map[string]any{"anyOf": titledTwo}}}},
			accepting(map[string]any{"choices": []any{"SQLite", "Postgres"}}, 0),
			map[string]any{"status": "answered", "selected": []any{"SQLite", "Postgres"}, "via": "elicitation"}},
		{"text", ToolAskText, map[string]any{"question": "Commit message?", "min_length": 3, "max_length": 72, "placeholder": "imperative"},
			map[string]any{"type": "object", "required": []any{"answer"}, "properties": map[string]any{
				"answer": map[string]any{"type": "string", "title": "Your answer", "minLength": float64(3), "maxLength": float64(72), "description": "imperative"}}},
			accepting(map[string]any{"answer": "Fix the flaky test"}, 0),
			map[string]any{"status": "answered", "answer": "Fix the flaky test", "source": "free_text", "via": "elicitation"}},
		{"suggestions", ToolAskUser, map[string]any{"question": "Which DB?", "options": two},
			map[string]any{"type": "object", "properties": map[string]any{
				"choice": map[string]any{"type": "string", "title": "Suggested answers", "oneOf": titledTwo},
				"answer": map[string]any{"type": "string", "title": "Or write your own", "maxLength": float64(question.MaxAnswerText)}}},
			accepting(map[string]any{"choice": "Postgres"}, 0),
			map[string]any{"status": "answered", "answer": "Postgres", "source": "choice", "via": "elicitation"}},
		{"form", ToolAskForm, map[string]any{"message": "Who?", "requestedSchema": form},
			form,
			accepting(map[string]any{"name": "Ada", "age": 36, "ok": true}, 0),
			map[string]any{"status": "answered", "action": "accept", "content": map[string]any{"name": "Ada", "age": float64(36), "ok": true}, "via": "elicitation"}},
		{"decline", ToolAskConfirm, map[string]any{"question": "Open a pull request?"}, nil,
			refusing("decline", MinHumanDecline+100*time.Millisecond),
			map[string]any{"status": "declined", "confirmed": false, "via": "elicitation", "auto_reject_suspected": false}},
		{"cancel", ToolAskForm, map[string]any{"message": "Who?", "requestedSchema": form}, nil,
			refusing("cancel", MinHumanDecline+100*time.Millisecond),
			map[string]any{"status": "cancelled", "action": "cancel", "via": "elicitation", "auto_reject_suspected": false}},
		// In client mode a decline is recorded however fast; the agent is told it looks automatic.
		{"fast decline", ToolAskConfirm, map[string]any{"question": "Open a pull request?"}, nil,
			refusing("decline", 0),
			map[string]any{"status": "declined", "via": "elicitation", "auto_reject_suspected": true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			eachRevision(t, func(t *testing.T, rev string) {
				clientModeKind(t, rev, tc.tool, tc.args, tc.schema, tc.reply, tc.want)
			})
		})
	}
}

// clientModeKind is one case of TestClientModeDeliversEachKind at rev:
// elicitation/create at 2025-11-25, an input_required result the Go SDK
// client answers by retrying at 2026-07-28.
func clientModeKind(t *testing.T, rev, tool string, args, schema map[string]any, reply func(*mcp.ElicitParams) *mcp.ElicitResult, want map[string]any) {
	e := newEnv(t, Config{AskMode: question.AskClient, Desktop: true}).at(rev)
	f := newFakeForm(reply)
	s := e.connectForm(t, "claude-code", f)
	got, text, isErr := call(t, context.Background(), s, tool, args)
	if isErr {
		t.Fatalf("tool error %s", text)
	}
	if f.count() != 1 {
		t.Fatalf("%d forms sent, want 1", f.count())
	}
	p := <-f.seen
	if schema != nil {
		if g, w := mustJSON(p.RequestedSchema), mustJSON(schema); string(g) != string(w) {
			t.Errorf("requestedSchema\n got %s\nwant %s", g, w)
		}
	}
	if p.Message == "" {
		t.Error("form without a message")
	}
	for k, v := range want {
		if g, _ := json.Marshal(got[k]); string(g) != string(mustJSON(v)) {
			t.Errorf("%s = %s, want %s (result %s)", k, g, mustJSON(v), text)
		}
	}
	r, err := e.store.Get(context.Background(), idOf(got["question_id"]))
	if err != nil || r.Result == nil || r.Result.Via != question.ViaElicitation {
		t.Fatalf("history: %+v %v", r, err)
	}
}

// TestClientModeLegacyEnums: a 2025-06-18 client gets enum plus enumNames,
// and a multi-select (which that version lacks) stays on the desktop.
func TestClientModeLegacyEnums(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{AskMode: question.AskClient})
	f := newFakeForm(accepting(map[string]any{"choice": "SQLite"}, 0))
	s := e.connectAt(t, "old-client", "2025-06-18", &mcp.ClientOptions{ElicitationHandler: f.handle})
	two := []map[string]string{{"label": "Postgres"}, {"label": "SQLite"}}
	got, text, _ := call(t, context.Background(), s, ToolAskChoice, map[string]any{"question": "Which DB?", "options": two})
	if got["status"] != "answered" || got["via"] != "elicitation" {
		t.Fatalf("choice: %s", text)
	}
	want := `{"properties":{"choice":{"enum":["Postgres","SQLite"],"enumNames":["Postgres","SQLite"],"title":"Choose one","type":"string"}},"required":["choice"],"type":"object"}`
	if g := mustJSON((<-f.seen).RequestedSchema); string(g) != want {
		t.Errorf("schema %s\nwant %s", g, want)
	}
	asked := e.person(t, question.Response{Action: question.Accept, Value: json.RawMessage(`["SQLite"]`), Via: question.ViaCLI})
	got, text, _ = call(t, context.Background(), s, ToolAskMultiSelect, map[string]any{"question": "Which?", "options": two})
	<-asked
	if got["via"] != "cli" || f.count() != 1 {
		t.Fatalf("multi-select went to the form (%d sent): %s", f.count(), text)
	}
}

// TestClientModeNeverElicits: notices, questions that may ask for a secret
// and clients without form elicitation stay on the desktop, page and CLI.
func TestClientModeNeverElicits(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{AskMode: question.AskClient})
	f := newFakeForm(accepting(map[string]any{"answer": "x"}, 0))
	s := e.connectForm(t, "claude-code", f)
	plain := e.connect(t, "no-forms", nil)
	ctx := context.Background()
	if got, text, _ := call(t, ctx, s, ToolNotify, map[string]any{"message": "Deploy finished"}); got["status"] != "pending" {
		t.Fatalf("notify: %s", text)
	}
	secretForm := map[string]any{"type": "object", "properties": map[string]any{"github_token": map[string]any{"type": "string"}}}
	for _, tc := range []struct {
		s    *mcp.ClientSession
		tool string
		args map[string]any
	}{
		{s, ToolAskText, map[string]any{"question": "Paste your GitHub token"}},
		{s, ToolAskForm, map[string]any{"message": "Connect the repo", "requestedSchema": secretForm}},
		{s, ToolAskUser, map[string]any{"question": "What is the database password?"}},
		{plain, ToolAskConfirm, map[string]any{"question": "Ship?"}},
	} {
		ch := make(chan question.Question, 1)
		unsub := e.broker.Subscribe(func(ev question.Event) {
			if ev.Type == question.EventAsked && ev.Question.Kind != question.KindNotice {
				ch <- ev.Question
			}
		})
		done := make(chan map[string]any, 1)
		go func() { r, _, _ := call(t, ctx, tc.s, tc.tool, tc.args); done <- r }()
		q := <-ch
		unsub()
		if q.DeliverTo != "" {
			t.Errorf("%s %v: delivered to %q", tc.tool, tc.args, q.DeliverTo)
		}
		v := `"no"`
		switch tc.tool {
		case ToolAskForm:
			v = `{}`
		case ToolAskText, ToolAskUser:
			v = `"typed"`
		}
		if err := e.broker.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(v), Via: question.ViaCLI}); err != nil {
			t.Fatal(err)
		}
		if r := <-done; r["via"] != "cli" {
			t.Errorf("%s: %v", tc.tool, r)
		}
	}
	if f.count() != 0 {
		t.Fatalf("%d forms sent, want none", f.count())
	}
}

// TestAutoMode: with a desktop, auto mode uses it; without one it uses the
// client's form when the client can show one, else leaves the question to
// the page and the CLI.
func TestAutoMode(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	args := map[string]any{"question": "Ship v2?"}

	// No desktop, a client that cannot elicit: pending for the page and CLI.
	e := newEnv(t, Config{AskMode: question.AskAuto})
	s := e.connect(t, "no-forms", nil)
	asked := e.person(t, question.Response{Action: question.Accept, Value: json.RawMessage(`"yes"`), Via: question.ViaCLI})
	got, text, _ := call(t, ctx, s, ToolAskConfirm, args)
	id := <-asked
	if got["via"] != "cli" || got["confirmed"] != true || got["client_elicitation"] != false {
		t.Fatalf("no forms: %s", text)
	}
	if q, _, _ := e.broker.Get(id); q.DeliverTo != "" {
		t.Fatalf("delivered to %q", q.DeliverTo)
	}

	// No desktop, a client with forms: the form, and the question says so while it is open.
	f := newFakeForm(nil)
	s = e.connectForm(t, "claude-code", f)
	done := make(chan map[string]any, 1)
	go func() { r, _, _ := call(t, ctx, s, ToolAskConfirm, args); done <- r }()
	<-f.seen
	p := e.waitPending(t, 1)
	if p[0].DeliverTo != question.DeliverClient {
		t.Fatalf("pending question delivered to %q", p[0].DeliverTo)
	}
	// The open form is answered on the desktop instead: the call returns that.
	if err := e.broker.Answer(p[0].ID, accept(`"no"`)); err != nil {
		t.Fatal(err)
	}
	if r := <-done; r["via"] != "dialog" || r["confirmed"] != false {
		t.Fatalf("answered elsewhere: %v", r)
	}

	// With a desktop, auto mode does not use the form.
	d := newEnv(t, Config{AskMode: question.AskAuto, Desktop: true})
	g := newFakeForm(accepting(map[string]any{"confirm": true}, 0))
	s = d.connectForm(t, "claude-code", g)
	asked = d.person(t, accept(`"yes"`))
	if got, text, _ := call(t, ctx, s, ToolAskConfirm, args); got["via"] != "dialog" || g.count() != 0 {
		t.Fatalf("auto with a desktop (%d forms): %s", g.count(), text)
	}
	<-asked
}

// TestAutoModeFastDecline: a client that declines before a person could
// read does not decline for them in auto mode: the question stays open for
// the page and the CLI, the result says auto_reject_suspected, and later
// questions of that session (at 2026-07-28, of that client) skip the form.
func TestAutoModeFastDecline(t *testing.T) {
	t.Parallel()
	eachRevision(t, autoModeFastDecline)
}

func autoModeFastDecline(t *testing.T, rev string) {
	e := newEnv(t, Config{AskMode: question.AskAuto}).at(rev)
	f := newFakeForm(refusing("decline", 0))
	s := e.connectForm(t, "eager-client", f)
	ctx := context.Background()
	resurfaced := make(chan question.Question, 4)
	defer e.broker.Subscribe(func(ev question.Event) {
		if ev.Type == question.EventResurfaced {
			resurfaced <- ev.Question
		}
	})()
	done := make(chan map[string]any, 1)
	go func() { r, _, _ := call(t, ctx, s, ToolAskConfirm, map[string]any{"question": "Deploy?"}); done <- r }()
	var q question.Question
	select {
	case q = <-resurfaced:
	case <-time.After(30 * time.Second):
		t.Fatalf("the question did not come back to the desktop within 30 s (%d forms sent)", f.count())
	}
	if q.DeliverTo != "" || q.State != question.StatePending {
		t.Fatalf("after the fast decline: %+v", q)
	}
	if err := e.broker.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"yes"`), Via: question.ViaCLI}); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r["status"] != "answered" || r["via"] != "cli" || r["auto_reject_suspected"] != true {
		t.Fatalf("result %v", r)
	}
	// The next question of this session goes straight to the page and CLI.
	asked := e.person(t, question.Response{Action: question.Accept, Value: json.RawMessage(`"no"`), Via: question.ViaCLI})
	got, text, _ := call(t, ctx, s, ToolAskConfirm, map[string]any{"question": "Deploy again?"})
	<-asked
	if got["via"] != "cli" || got["auto_reject_suspected"] != false || f.count() != 1 {
		t.Fatalf("second question (%d forms): %s", f.count(), text)
	}
}

// TestClientModeWindowEnds: when the call's blocking window ends before the
// client's form is answered, the form request is cancelled, the agent gets
// pending, and the question stays open on the desktop, page and CLI for
// get_answer.
func TestClientModeWindowEnds(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{AskMode: question.AskClient, DefaultWindow: 2 * time.Second})
	f := newFakeForm(nil)
	s := e.connectForm(t, "slow-reader", f)
	ctx := context.Background()
	got, text, _ := call(t, ctx, s, ToolAskConfirm, map[string]any{"question": "Ship?"})
	if got["status"] != "pending" || f.count() != 1 {
		t.Fatalf("after the window (%d forms): %s", f.count(), text)
	}
	id := got["question_id"].(string)
	q, res, err := e.broker.Get(id)
	if err != nil || res != nil || q.DeliverTo != "" {
		t.Fatalf("question after the window: %+v %+v %v", q, res, err)
	}
	if err := e.broker.Answer(id, question.Response{Action: question.Accept, Value: json.RawMessage(`"yes"`), Via: question.ViaCLI}); err != nil {
		t.Fatal(err)
	}
	got, text, _ = call(t, ctx, s, ToolGetAnswer, map[string]any{"question_id": id, "wait_seconds": 0})
	if got["status"] != "answered" || got["confirmed"] != true || got["via"] != "cli" {
		t.Fatalf("get_answer: %s", text)
	}
}

// TestClientModeCancelWithdraws: an agent that cancels its call
// (notifications/cancelled) while the form is open withdraws the question;
// it does not come back to the desktop first.
func TestClientModeCancelWithdraws(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{AskMode: question.AskClient, Desktop: true})
	f := newFakeForm(nil)
	s := e.connectForm(t, "impatient", f)
	events := make(chan question.Event, 16)
	defer e.broker.Subscribe(func(ev question.Event) {
		if ev.Type == question.EventResurfaced || ev.Type == question.EventEnded {
			events <- ev
		}
	})()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := s.CallTool(ctx, &mcp.CallToolParams{Name: ToolAskConfirm, Arguments: map[string]any{"question": "Ship?"}})
		errc <- err
	}()
	<-f.seen
	q := e.waitPending(t, 1)[0]
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("call returned a result although nobody answered")
	}
	if r := waitEnded(t, e, q.ID); r.Outcome != question.Withdrawn {
		t.Fatalf("after the cancel: %+v", r)
	}
	// Events arrive in order: the first one must be the end.
	if ev := <-events; ev.Type != question.EventEnded {
		t.Fatalf("the withdrawn question came back to the desktop first (%v)", ev.Type)
	}
}
