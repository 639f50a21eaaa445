package control

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/personcheck"
	"github.com/asktray/asktray/app/question"
)

func newServer(t *testing.T) (*Client, *question.Broker) {
	t.Helper()
	return newServerIn(t, t.TempDir())
}

// newServerIn serves a new broker on dir/c.sock until the test ends.
// testPassword is the person's login password in these tests.
const testPassword = "correct horse"

func newServerIn(t *testing.T, dir string) (*Client, *question.Broker) {
	t.Helper()
	store := historytest.New(t)
	b := question.NewBroker(question.Config{Journal: store})
	s := &Server{Broker: b, Store: store, Status: func() Status { return Status{PID: 42, URL: "http://127.0.0.1:1/mcp"} },
		Person: personcheck.New(personcheck.Password(testPassword), nil, nil)}
	sock := filepath.Join(dir, "c.sock")
	if err := s.Listen(sock); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = s.Shutdown(context.Background())
		_ = b.Close()
	})
	return NewClient(sock), b
}

func TestServer_ErrorsCarryCodeAndField(t *testing.T) {
	t.Parallel()
	c, b := newServer(t)
	ctx := context.Background()
	q, err := b.Ask(ctx, question.Question{Kind: question.KindChoice, Message: "pick", Options: []question.Option{{Label: "a"}, {Label: "b"}}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		id        string
		req       AnswerRequest
		code      string
		field     string
		status    int
		msgSubstr string
	}{
		{q.ID, AnswerRequest{Action: question.Accept, Value: json.RawMessage(`"c"`)}, "invalid", "value[0]", 400, `"c" is not one of the options`},
		{q.ID, AnswerRequest{Action: "maybe"}, "invalid", "action", 400, "not one of accept"},
		{"nope", AnswerRequest{Action: question.Cancel}, "not_found", "", 404, "no question"},
	}
	for _, tc := range cases {
		_, err := c.Answer(ctx, tc.id, tc.req)
		ae, ok := errors.AsType[*APIError](err)
		if !ok || ae.Code != tc.code || ae.Field != tc.field || ae.Status != tc.status || !strings.Contains(ae.Message, tc.msgSubstr) {
			t.Errorf("%+v: got %#v", tc.req, err)
		}
	}
	it, err := c.Answer(ctx, q.ID, AnswerRequest{Action: question.Accept, Value: json.RawMessage(`"b"`)})
	if err != nil || it.Result == nil || string(it.Result.Value) != `["b"]` || it.Result.Via != question.ViaCLI {
		t.Fatalf("answer: %+v %v", it, err)
	}
	_, err = c.Answer(ctx, q.ID, AnswerRequest{Action: question.Cancel})
	if ae, ok := errors.AsType[*APIError](err); !ok || ae.Code != "not_pending" || ae.Status != 409 {
		t.Fatalf("second answer: %v", err)
	}
}

func TestServer_StatusPendingHistorySnooze(t *testing.T) {
	t.Parallel()
	c, b := newServer(t)
	ctx := context.Background()
	st, err := c.Status(ctx)
	if err != nil || st.PID != 42 || st.Pending != 0 {
		t.Fatalf("status %+v %v", st, err)
	}
	q, _ := b.Ask(ctx, question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "codex"}, Message: "Push to main?"})
	pend, err := c.Pending(ctx)
	if err != nil || len(pend) != 1 || pend[0].ID != q.ID {
		t.Fatalf("pending %+v %v", pend, err)
	}
	until := time.Now().Add(time.Hour).Truncate(time.Second)
	it, err := c.Snooze(ctx, q.ID, until)
	if err != nil || !it.Question.SnoozeUntil.Equal(until) {
		t.Fatalf("snooze %+v %v", it, err)
	}
	page, err := c.History(ctx, HistoryQuery{Client: "codex", Search: "push"})
	if err != nil || len(page.Items) != 1 || page.Items[0].Result != nil {
		t.Fatalf("history %+v %v", page, err)
	}
	for _, bad := range []HistoryQuery{{Outcomes: []string{"approved"}}, {Kind: "poll"}, {Limit: 5000}} {
		if _, err := c.History(ctx, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestServer_HistoryByVerdict: the history query filters by verdict (and
// by_rule), each item carries its verdict, and an unknown verdict is a bad
// request naming the field.
func TestServer_HistoryByVerdict(t *testing.T) {
	t.Parallel()
	c, b := newServer(t)
	ctx := context.Background()
	ask := func(q question.Question) string {
		t.Helper()
		asked, err := b.Ask(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return asked.ID
	}
	keep := ask(question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "codex"}, Message: "Replace the config?", NoLabel: "Keep current"})
	name := ask(question.Question{Kind: question.KindText, Client: question.Client{Name: "codex"}, Message: "Name?", FreeText: true})
	pending := ask(question.Question{Kind: question.KindText, Client: question.Client{Name: "codex"}, Message: "Later?", FreeText: true})
	if err := b.Answer(keep, question.Response{Action: question.Accept, Value: json.RawMessage(`"no"`), Via: question.ViaDialog}); err != nil {
		t.Fatal(err)
	}
	if err := b.Answer(name, question.Response{Action: question.Accept, Value: json.RawMessage(`"no"`), Via: question.ViaDialog}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		verdicts []string
		want     []string
	}{
		{[]string{"denied"}, []string{keep}},
		{[]string{"answered", "pending"}, []string{pending, name}},
		{[]string{"by_rule"}, nil},
	} {
		page, err := c.History(ctx, HistoryQuery{Verdicts: tc.verdicts})
		if err != nil {
			t.Fatalf("%v: %v", tc.verdicts, err)
		}
		var got []string
		for _, it := range page.Items {
			got = append(got, it.Question.ID)
			if want := question.VerdictOf(&it.Question, it.Result); it.Verdict != want {
				t.Errorf("%s: verdict %q, want %q", it.Question.ID, it.Verdict, want)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v: %v, want %v", tc.verdicts, got, tc.want)
		}
	}
	_, err := c.History(ctx, HistoryQuery{Verdicts: []string{"approved"}})
	if ae, ok := errors.AsType[*APIError](err); !ok || ae.Field != "verdict" || !strings.Contains(ae.Message, "by_rule") {
		t.Errorf("unknown verdict: %v", err)
	}
}

func TestClient_NoApp(t *testing.T) {
	t.Parallel()
	c := NewClient(filepath.Join(t.TempDir(), "none.sock"))
	if _, err := c.Status(context.Background()); !errors.Is(err, ErrNoApp) {
		t.Fatalf("got %v, want ErrNoApp", err)
	}
}

func TestServer_Show(t *testing.T) {
	t.Parallel()
	c, _ := newServer(t)
	if shown, err := c.Show(context.Background()); err != nil || shown {
		t.Fatalf("headless show = %v %v, want false", shown, err)
	}
	store := historytest.New(t)
	b := question.NewBroker(question.Config{Journal: store})
	defer b.Close()
	called := make(chan struct{}, 1)
	s := &Server{Broker: b, Store: store, Status: func() Status { return Status{} }, Show: func() bool { called <- struct{}{}; return true }}
	sock := filepath.Join(t.TempDir(), "s.sock")
	if err := s.Listen(sock); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Shutdown(context.Background()) }()
	if shown, err := NewClient(sock).Show(context.Background()); err != nil || !shown {
		t.Fatalf("show = %v %v", shown, err)
	}
	<-called
}

// TestServer_Quit: an app that cannot be asked to quit (no Quit hook, as
// in a test server) answers 501 with code "unsupported" and stays up; one
// with a hook answers and calls it once.
func TestServer_Quit(t *testing.T) {
	t.Parallel()
	c, _ := newServer(t)
	err := c.Quit(context.Background())
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != 501 || ae.Code != "unsupported" || !strings.Contains(ae.Message, "cannot be asked to quit") {
		t.Fatalf("quit without a hook = %v, want 501 unsupported", err)
	}
	if _, err := c.Status(context.Background()); err != nil {
		t.Fatalf("the server stopped after a refused quit: %v", err)
	}
	store := historytest.New(t)
	b := question.NewBroker(question.Config{Journal: store})
	defer b.Close()
	called := make(chan struct{}, 2)
	s := &Server{Broker: b, Store: store, Status: func() Status { return Status{} }, Quit: func() { called <- struct{}{} }}
	sock := filepath.Join(t.TempDir(), "q.sock")
	if err := s.Listen(sock); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Shutdown(context.Background()) }()
	if err := NewClient(sock).Quit(context.Background()); err != nil {
		t.Fatalf("quit = %v", err)
	}
	<-called
	if len(called) != 0 {
		t.Fatal("Quit was called more than once")
	}
}
