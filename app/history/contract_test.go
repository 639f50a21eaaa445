package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

func TestContract(t *testing.T) {
	t.Parallel()
	stores := map[string]func(t *testing.T) Store{
		"sqlite": func(t *testing.T) Store { return openSQLite(t) },
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testStore(t, open)
		})
	}
}

// testStore checks the behavior every Store must have; open returns a new,
// empty store for each subtest.
func testStore(t *testing.T, open func(t *testing.T) Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s Store)
	}{
		{"round_trip_all_fields", contractRoundTripAllFields},
		{"begin_twice_fails", contractBeginTwiceFails},
		{"end_errors", contractEndErrors},
		{"lookup_and_get", contractLookupAndGet},
		{"list_newest_first", contractListNewestFirst},
		{"paging_visits_every_row_once", contractPagingVisitsEveryRowOnce},
		{"reverse_paging_from_a_record", contractReversePagingFromARecord},
		{"filters", contractFilters},
		{"search_syntax_never_errors", contractSearchSyntaxNeverErrors},
		{"count_per_state", contractCountPerState},
		{"clients", contractClients},
		{"delete", contractDelete},
		{"delete_older_than_keeps_pending", contractDeleteOlderThanKeepsPending},
		{"interrupt_pending", contractInterruptPending},
		{"end_checks_outcome", contractEndChecksOutcome},
		{"begin_ended_equals_begin_then_end", contractBeginEndedEqualsBeginThenEnd},
		{"begin_ended_errors", contractBeginEndedErrors},
		{"annotate_keeps_the_outcome", contractAnnotateKeepsTheOutcome},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.fn(t, open(t))
		})
	}
}

func contractRoundTripAllFields(t *testing.T, s Store) {
	ctx := t.Context()
	zone := time.FixedZone("CET", 3600)
	q := question.Question{
		ID: question.NewID(), Kind: question.KindForm,
		Client: question.Client{Name: "claude-code", Version: "1.2.3", SessionID: "sess-9", Title: "Claude <Code>"},
		Header: "Deploy", Message: "Fill in the release form & confirm",
		Options:  []question.Option{{Label: "Ship", Description: "ship it now"}, {Label: "Wait"}},
		Schema:   json.RawMessage(`{ "type": "object", "properties": {"n": {"type": "integer"}} }`),
		Default:  json.RawMessage(`{"n": 12345678901234567890, "s": "<b>é</b>"}`),
		FreeText: true, Multiline: true, Placeholder: "type here",
		MinLength: 1, MaxLength: 500, MinSelect: 1, MaxSelect: 2,
		Destructive: true, YesLabel: "Go", NoLabel: "Stop", Risk: question.RiskHigh,
		Tool: "request_approval", Origin: question.OriginApproval, Action: "Deploy to <production>",
		Details: "```sh\nkubectl apply -f prod.yaml\n```\n| a | b |", AgentReason: "the release was tagged & signed",
		Created: base.In(zone), Deadline: base.Add(5 * time.Minute),
		SnoozeUntil: base.Add(time.Minute + 7), State: question.StatePending,
	}
	if err := s.Begin(ctx, q); err != nil {
		t.Fatal(err)
	}
	rec, err := s.Get(ctx, q.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := diffQuestion(rec.Question, q); d != "" {
		t.Errorf("pending question: %s", d)
	}
	if rec.Result != nil || rec.Elapsed() != 0 {
		t.Errorf("pending Result, Elapsed = %+v, %v; want nil, 0", rec.Result, rec.Elapsed())
	}
	r := question.Result{
		Outcome: question.AutoApproved, DecidedBy: question.ByRule, Reason: question.ReasonRule,
		Via: question.ViaRule, Value: json.RawMessage(`{"n": 3, "tags": ["a", "b"]}`),
		Note: "matched rule", RuleID: "rule-7", DecidedAt: base.Add(90*time.Second + 1),
	}
	if err := s.End(ctx, q, r); err != nil {
		t.Fatal(err)
	}
	rec, err = s.Get(ctx, q.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := q
	want.State = question.State(question.AutoApproved)
	if d := diffQuestion(rec.Question, want); d != "" {
		t.Errorf("ended question: %s", d)
	}
	if d := diffResult(rec.Result, &r); d != "" {
		t.Errorf("result: %s", d)
	}
	if got, want := rec.Elapsed(), 90*time.Second+1; got != want {
		t.Errorf("Elapsed() = %v, want %v", got, want)
	}
}

func contractBeginTwiceFails(t *testing.T, s Store) {
	ctx := t.Context()
	q := newQuestion("dup", base)
	add(t, s, q, nil)
	if err := s.Begin(ctx, q); !errors.Is(err, ErrExists) {
		t.Errorf("second Begin = %v, want ErrExists", err)
	}
}

func contractEndErrors(t *testing.T, s Store) {
	ctx := t.Context()
	q := newQuestion("a", base)
	add(t, s, q, answered("yes", base.Add(time.Second)))
	if err := s.End(ctx, q, *ended(question.Declined, base)); !errors.Is(err, question.ErrNotPending) {
		t.Errorf("End on finished = %v, want ErrNotPending", err)
	}
	if err := s.End(ctx, newQuestion("missing", base), *ended(question.Declined, base)); !errors.Is(err, question.ErrNotFound) {
		t.Errorf("End on missing = %v, want ErrNotFound", err)
	}
	rec, err := s.Get(ctx, "a")
	if err != nil || rec.Result == nil || rec.Result.Outcome != question.Answered {
		t.Errorf("after failed End: %+v, %v; want answered", rec.Result, err)
	}
}

func contractLookupAndGet(t *testing.T, s Store) {
	ctx := t.Context()
	add(t, s, newQuestion("p", base), nil)
	add(t, s, newQuestion("d", base), ended(question.Declined, base.Add(time.Second)))
	if q, r, err := s.Lookup(ctx, "p"); err != nil || q.ID != "p" || r != nil {
		t.Errorf("Lookup(p) = %v, %+v, %v; want p, nil, nil", q.ID, r, err)
	}
	if q, r, err := s.Lookup(ctx, "d"); err != nil || q.ID != "d" || r == nil || r.Outcome != question.Declined {
		t.Errorf("Lookup(d) = %v, %+v, %v; want d, declined", q.ID, r, err)
	}
	if _, _, err := s.Lookup(ctx, "x"); !errors.Is(err, question.ErrNotFound) {
		t.Errorf("Lookup(missing) = %v, want ErrNotFound", err)
	}
	if _, err := s.Get(ctx, "x"); !errors.Is(err, question.ErrNotFound) {
		t.Errorf("Get(missing) = %v, want ErrNotFound", err)
	}
}

func contractListNewestFirst(t *testing.T, s Store) {
	ctx := t.Context()
	for _, id := range []string{"b", "d", "a", "c", "e"} {
		created := base.Add(time.Hour)
		if id == "d" || id == "e" {
			created = base
		}
		add(t, s, newQuestion(id, created), nil)
	}
	p, err := s.List(ctx, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(p.Records), []string{"c", "b", "a", "e", "d"}; !slices.Equal(got, want) || p.Next != "" {
		t.Errorf("List = %v, next %q; want %v, no next", got, p.Next, want)
	}
}

func contractPagingVisitsEveryRowOnce(t *testing.T, s Store) {
	ctx := t.Context()
	var want []string
	for i := range 120 {
		id := fmt.Sprintf("q%03d", i)
		add(t, s, newQuestion(id, base.Add(time.Duration(i/3)*time.Second)), nil)
		want = append(want, id)
	}
	slices.Reverse(want) // same Created sorts by id descending, so this is newest first
	var got []string
	var sizes []int
	f := Filter{Limit: 50}
	for {
		p, err := s.List(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ids(p.Records)...)
		sizes = append(sizes, len(p.Records))
		if p.Next == "" {
			break
		}
		f.Cursor = p.Next
	}
	if !slices.Equal(got, want) || !slices.Equal(sizes, []int{50, 50, 20}) {
		t.Errorf("pages of %v gave %v, want %v", sizes, got, want)
	}
	if _, err := s.List(ctx, Filter{Cursor: "not a cursor!"}); err == nil {
		t.Error("List with a bad cursor did not fail")
	}
}

// contractReversePagingFromARecord pages from a record both ways, as the
// history window reloads the rows it let go: CursorAt(r) with List's order
// gives the records older than r, with Reverse the newer ones, oldest first.
func contractReversePagingFromARecord(t *testing.T, s Store) {
	ctx := t.Context()
	var recs []Record
	for i := range 30 {
		q := newQuestion(fmt.Sprintf("q%03d", i), base.Add(time.Duration(i/3)*time.Second))
		add(t, s, q, nil)
		recs = append(recs, Record{Question: q})
	}
	mid := recs[14] // q014: same Created as q012, q013 (older) and none newer
	older, err := s.List(ctx, Filter{Cursor: CursorAt(mid), Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(older.Records), []string{"q013", "q012", "q011", "q010", "q009"}; !slices.Equal(got, want) || older.Next == "" {
		t.Errorf("older than q014: %v (next %q), want %v and more", got, older.Next, want)
	}
	var newer []string
	var sizes []int
	f := Filter{Cursor: CursorAt(mid), Limit: 6, Reverse: true}
	for {
		p, err := s.List(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		newer, sizes = append(newer, ids(p.Records)...), append(sizes, len(p.Records))
		if p.Next == "" {
			break
		}
		f.Cursor = p.Next
	}
	var want []string
	for i := 15; i < 30; i++ {
		want = append(want, fmt.Sprintf("q%03d", i))
	}
	if !slices.Equal(newer, want) || !slices.Equal(sizes, []int{6, 6, 3}) {
		t.Errorf("newer than q014 in pages of %v: %v, want %v", sizes, newer, want)
	}
	first, err := s.List(ctx, Filter{Reverse: true, Limit: 2, Search: "nothing matches this"})
	if err != nil || len(first.Records) != 0 {
		t.Errorf("reverse with a filter matching nothing: %v, %v", ids(first.Records), err)
	}
}

func contractFilters(t *testing.T, s Store) {
	ctx := t.Context()
	h := func(n int) time.Time { return base.Add(time.Duration(n) * time.Hour) }
	mk := func(id string, n int, client string, kind question.Kind, msg string) question.Question {
		q := newQuestion(id, h(n))
		q.Client.Name, q.Kind, q.Message = client, kind, msg
		return q
	}
	a := mk("a", 1, "claude", question.KindText, "Deploy the billing service?")
	add(t, s, a, answered("yes", h(1).Add(time.Minute)))
	add(t, s, mk("b", 2, "cursor", question.KindConfirm, "Delete the temp files?"), ended(question.Declined, h(2)))
	c := mk("c", 3, "claude", question.KindChoice, "Which database?")
	c.Options = []question.Option{{Label: "Postgres", Description: "relational store"}, {Label: "Mongo"}}
	add(t, s, c, nil)
	add(t, s, mk("d", 4, "codex", question.KindApproval, "Run rm -rf build?"), ended(question.AutoRejected, h(4)))
	e := mk("e", 5, "claude", question.KindText, "Where should this run?")
	re := answered("use the staging cluster", h(5))
	re.Note = "ask ops first"
	add(t, s, e, re)
	add(t, s, mk("f", 6, "cursor", question.KindText, "Name the branch"), nil)
	g := mk("g", 7, "claude-code", question.KindApproval, "Bash")
	g.Tool, g.Action, g.Details, g.AgentReason = "permission_prompt", "Bash", "```sh\nterraform destroy\n```", "clean up the sandbox"
	add(t, s, g, ended(question.AutoApproved, h(7)))

	tests := []struct {
		name string
		f    Filter
		want []string
	}{
		{"none", Filter{}, []string{"g", "f", "e", "d", "c", "b", "a"}},
		{"outcome", Filter{Outcomes: []question.State{question.State(question.Answered)}}, []string{"e", "a"}},
		{"pending", Filter{Outcomes: []question.State{question.StatePending}}, []string{"f", "c"}},
		{"pending_or_declined", Filter{Outcomes: []question.State{question.StatePending, question.State(question.Declined)}}, []string{"f", "c", "b"}},
		{"client", Filter{Client: "claude"}, []string{"e", "c", "a"}},
		{"client_exact", Filter{Client: "claud"}, nil},
		{"kind", Filter{Kind: question.KindText}, []string{"f", "e", "a"}},
		{"since", Filter{Since: h(3)}, []string{"g", "f", "e", "d", "c"}},
		{"until", Filter{Until: h(3)}, []string{"b", "a"}},
		{"since_until", Filter{Since: h(2), Until: h(5)}, []string{"d", "c", "b"}},
		{"search_message", Filter{Search: "billing"}, []string{"a"}},
		{"search_header_case", Filter{Search: "DEPLOY Billing"}, []string{"a"}},
		{"search_prefix", Filter{Search: "bill"}, []string{"a"}},
		{"search_all_terms", Filter{Search: "deploy staging"}, nil},
		{"search_option_label", Filter{Search: "postgres"}, []string{"c"}},
		{"search_option_description", Filter{Search: "relational"}, []string{"c"}},
		{"search_answer_value", Filter{Search: "staging cluster"}, []string{"e"}},
		{"search_note", Filter{Search: "ops"}, []string{"e"}},
		{"search_client", Filter{Search: "cursor"}, []string{"f", "b"}},
		{"search_tool", Filter{Search: "permission_prompt"}, []string{"g"}},
		{"search_details", Filter{Search: "terraform"}, []string{"g"}},
		{"search_agent_reason", Filter{Search: "sandbox"}, []string{"g"}},
		{"search_punctuation", Filter{Search: "-billing,"}, []string{"a"}},
		{"combined", Filter{Client: "claude", Kind: question.KindText, Outcomes: []question.State{question.State(question.Answered)}, Since: h(2)}, []string{"e"}},
		{"combined_search", Filter{Client: "cursor", Search: "temp", Until: h(6)}, []string{"b"}},
	}
	for _, tt := range tests {
		p, err := s.List(ctx, tt.f)
		if err != nil {
			t.Errorf("%s: List: %v", tt.name, err)
			continue
		}
		if got := ids(p.Records); !slices.Equal(got, tt.want) {
			t.Errorf("%s: List(%+v) = %v, want %v", tt.name, tt.f, got, tt.want)
		}
		n, err := s.Count(ctx, Filter{Client: tt.f.Client, Kind: tt.f.Kind, Since: tt.f.Since, Until: tt.f.Until, Search: tt.f.Search})
		if err != nil {
			t.Errorf("%s: Count: %v", tt.name, err)
			continue
		}
		total := 0
		for _, v := range n {
			total += v
		}
		if len(tt.f.Outcomes) == 0 && total != len(tt.want) {
			t.Errorf("%s: Count total = %d, want %d", tt.name, total, len(tt.want))
		}
	}
}

func contractSearchSyntaxNeverErrors(t *testing.T, s Store) {
	ctx := t.Context()
	q := newQuestion("a", base)
	q.Message = `Say "hello" (or not) - it's 50% off*`
	add(t, s, q, nil)
	for _, text := range []string{`"`, `*`, `-`, `OR`, `(`, `)`, `a"b`, `hello OR`, `NOT hello`, `NEAR(hello`,
		`^hello`, `message:hello`, `hello AND`, `+`, `'`, `""`, `{a b}`, `50%`, `\`, `* OR -`, "\x00", "  "} {
		if _, err := s.List(ctx, Filter{Search: text}); err != nil {
			t.Errorf("List(Search: %q): %v", text, err)
		}
		if _, err := s.Count(ctx, Filter{Search: text}); err != nil {
			t.Errorf("Count(Search: %q): %v", text, err)
		}
	}
	p, err := s.List(ctx, Filter{Search: `"hello" (or`})
	if err != nil || !slices.Equal(ids(p.Records), []string{"a"}) {
		t.Errorf(`List(Search: "hello" (or) = %v, %v; want [a]`, ids(p.Records), err)
	}
}

func contractCountPerState(t *testing.T, s Store) {
	ctx := t.Context()
	add(t, s, newQuestion("p1", base), nil)
	add(t, s, newQuestion("p2", base), nil)
	add(t, s, newQuestion("a1", base), answered("x", base))
	add(t, s, newQuestion("w1", base), ended(question.Withdrawn, base))
	got, err := s.Count(ctx, Filter{Outcomes: []question.State{question.State(question.Answered)}, Limit: 1, Cursor: "ignored"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[question.State]int{question.StatePending: 2}
	for _, o := range question.Outcomes {
		want[question.State(o)] = 0
	}
	want[question.State(question.Answered)], want[question.State(question.Withdrawn)] = 1, 1
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Count = %v, want %v", got, want)
	}
}

func contractClients(t *testing.T, s Store) {
	ctx := t.Context()
	if got, err := s.Clients(ctx); err != nil || len(got) != 0 {
		t.Errorf("Clients of empty store = %v, %v", got, err)
	}
	for i, name := range []string{"zed", "claude", "", "zed", "cursor"} {
		q := newQuestion(fmt.Sprint(i), base)
		q.Client.Name = name
		add(t, s, q, nil)
	}
	if got, err := s.Clients(ctx); err != nil || !slices.Equal(got, []string{"claude", "cursor", "zed"}) {
		t.Errorf("Clients = %v, %v; want [claude cursor zed]", got, err)
	}
}

func contractDelete(t *testing.T, s Store) {
	ctx := t.Context()
	q := newQuestion("a", base)
	q.Message = "unique zebra"
	add(t, s, q, answered("fine", base))
	add(t, s, newQuestion("b", base), nil)
	if err := s.Delete(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "a"); !errors.Is(err, question.ErrNotFound) {
		t.Errorf("Get after Delete = %v, want ErrNotFound", err)
	}
	if err := s.Delete(ctx, "a"); !errors.Is(err, question.ErrNotFound) {
		t.Errorf("second Delete = %v, want ErrNotFound", err)
	}
	if p, err := s.List(ctx, Filter{Search: "zebra"}); err != nil || len(p.Records) != 0 {
		t.Errorf("search after Delete = %v, %v; want nothing", ids(p.Records), err)
	}
	// The id can be used again.
	add(t, s, newQuestion("a", base), nil)
	// A pending question cannot be deleted: its outcome is still to come.
	if err := s.Delete(ctx, "b"); !errors.Is(err, ErrPending) {
		t.Errorf("Delete of a pending question = %v, want ErrPending", err)
	}
	if _, err := s.Get(ctx, "b"); err != nil {
		t.Errorf("pending question gone after a refused Delete: %v", err)
	}
}

func contractDeleteOlderThanKeepsPending(t *testing.T, s Store) {
	ctx := t.Context()
	add(t, s, newQuestion("old_done", base), answered("old answer", base))
	add(t, s, newQuestion("old_pending", base), nil)
	add(t, s, newQuestion("new_done", base.Add(48*time.Hour)), ended(question.Declined, base))
	n, err := s.DeleteOlderThan(ctx, base.Add(24*time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("DeleteOlderThan = %d, %v; want 1", n, err)
	}
	p, err := s.List(ctx, Filter{})
	if err != nil || !slices.Equal(ids(p.Records), []string{"new_done", "old_pending"}) {
		t.Errorf("after DeleteOlderThan: %v, %v", ids(p.Records), err)
	}
	if p, _ := s.List(ctx, Filter{Search: "answer"}); len(p.Records) != 0 {
		t.Errorf("search finds deleted rows %v", ids(p.Records))
	}
}

func contractInterruptPending(t *testing.T, s Store) {
	ctx := t.Context()
	add(t, s, newQuestion("p2", base.Add(time.Second)), nil)
	add(t, s, newQuestion("p1", base), nil)
	done := answered("ok", base.Add(time.Minute))
	add(t, s, newQuestion("done", base), done)
	at := base.Add(time.Hour)
	got, err := s.InterruptPending(ctx, at)
	if err != nil || !slices.Equal(got, []string{"p1", "p2"}) {
		t.Fatalf("InterruptPending = %v, %v; want [p1 p2]", got, err)
	}
	want := &question.Result{Outcome: question.Interrupted, DecidedBy: question.ByApp, Reason: question.ReasonStopped, DecidedAt: at}
	for _, id := range got {
		rec, err := s.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if d := diffResult(rec.Result, want); d != "" || rec.Question.State != question.State(question.Interrupted) {
			t.Errorf("%s: state %s, %s", id, rec.Question.State, d)
		}
	}
	if rec, _ := s.Get(ctx, "done"); diffResult(rec.Result, done) != "" {
		t.Errorf("finished row changed: %+v", rec.Result)
	}
	if got, err := s.InterruptPending(ctx, at); err != nil || len(got) != 0 {
		t.Errorf("second InterruptPending = %v, %v; want none", got, err)
	}
}

func contractEndChecksOutcome(t *testing.T, s Store) {
	ctx := t.Context()
	add(t, s, newQuestion("a", base), nil)
	if err := s.End(ctx, newQuestion("a", base), question.Result{Outcome: "maybe"}); err == nil || !strings.Contains(err.Error(), "outcome") {
		t.Errorf("End with bad outcome = %v", err)
	}
}

// contractBeginEndedEqualsBeginThenEnd checks that a question recorded with
// its outcome in one call reads back, lists, counts and searches exactly like
// one recorded with Begin and then End.
func contractBeginEndedEqualsBeginThenEnd(t *testing.T, s Store) {
	ctx := t.Context()
	r := question.Result{Outcome: question.AutoApproved, DecidedBy: question.ByRule, Reason: "rule 3", DecidedAt: base.Add(time.Millisecond)}
	one, two := newQuestion("one", base), newQuestion("two", base)
	one.Message, two.Message = "Deploy the kubernetes cluster?", "Deploy the kubernetes cluster?"
	if err := s.BeginEnded(ctx, one, r); err != nil {
		t.Fatalf("BeginEnded: %v", err)
	}
	add(t, s, two, &r)
	got1, err1 := s.Get(ctx, "one")
	got2, err2 := s.Get(ctx, "two")
	if err1 != nil || err2 != nil {
		t.Fatalf("Get: %v, %v", err1, err2)
	}
	got2.Question.ID = "one"
	if !reflect.DeepEqual(got1, got2) {
		t.Errorf("BeginEnded record = %+v %+v\nBegin+End record = %+v %+v", got1.Question, got1.Result, got2.Question, got2.Result)
	}
	if got1.Question.State != question.State(question.AutoApproved) {
		t.Errorf("state = %q, want %q", got1.Question.State, question.AutoApproved)
	}
	n, err := s.Count(ctx, Filter{Search: "kubernetes"})
	if err != nil || n[question.State(question.AutoApproved)] != 2 || n[question.StatePending] != 0 {
		t.Errorf("Count(kubernetes) = %v, %v; want 2 auto_approved, 0 pending", n, err)
	}
	if _, res, err := s.Lookup(ctx, "one"); err != nil || res == nil || res.DecidedBy != question.ByRule {
		t.Errorf("Lookup(one) = %+v, %v; want the rule's result", res, err)
	}
}

// contractBeginEndedErrors checks that BeginEnded refuses a known id and a bad
// outcome, and records nothing when it fails.
func contractBeginEndedErrors(t *testing.T, s Store) {
	ctx := t.Context()
	r := *ended(question.AutoRejected, base)
	add(t, s, newQuestion("dup", base), nil)
	if err := s.BeginEnded(ctx, newQuestion("dup", base), r); !errors.Is(err, ErrExists) {
		t.Errorf("BeginEnded on a known id = %v, want ErrExists", err)
	}
	if rec, err := s.Get(ctx, "dup"); err != nil || rec.Result != nil {
		t.Errorf("after refused BeginEnded: %+v, %v; want still pending", rec.Result, err)
	}
	err := s.BeginEnded(ctx, newQuestion("bad", base), question.Result{Outcome: "maybe"})
	if err == nil || !strings.Contains(err.Error(), "outcome") {
		t.Errorf("BeginEnded with bad outcome = %v", err)
	}
	if _, err := s.Get(ctx, "bad"); !errors.Is(err, question.ErrNotFound) {
		t.Errorf("Get after refused BeginEnded = %v, want ErrNotFound", err)
	}
}

func contractAnnotateKeepsTheOutcome(t *testing.T, s Store) {
	ctx := t.Context()
	q := newQuestion("a", base)
	r := ended(question.Declined, base.Add(time.Second))
	r.Note, r.Via = "use npm ci", question.ViaCLI
	add(t, s, q, r)
	pending := newQuestion("p", base.Add(time.Second))
	add(t, s, pending, nil)
	if err := s.Annotate(ctx, q.ID, question.ReasonAgentProceeded); err != nil {
		t.Fatal(err)
	}
	rec, err := s.Get(ctx, q.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := *r
	want.Afterwards = question.ReasonAgentProceeded
	if d := diffResult(rec.Result, &want); d != "" {
		t.Errorf("annotated result: %s", d)
	}
	// It is still found as the outcome it was, and listed with its afterwards.
	page, err := s.List(ctx, Filter{Outcomes: []question.State{question.State(question.Declined)}})
	if err != nil || len(page.Records) != 1 || page.Records[0].Result.Afterwards != question.ReasonAgentProceeded {
		t.Fatalf("list %+v %v", page.Records, err)
	}
	if _, lr, err := s.Lookup(ctx, q.ID); err != nil || lr.Afterwards != question.ReasonAgentProceeded {
		t.Fatalf("lookup %+v %v", lr, err)
	}
	if err := s.Annotate(ctx, pending.ID, question.ReasonAgentProceeded); !errors.Is(err, question.ErrStillPending) {
		t.Errorf("pending: %v, want ErrStillPending", err)
	}
	if err := s.Annotate(ctx, "nope", question.ReasonAgentProceeded); !errors.Is(err, question.ErrNotFound) {
		t.Errorf("unknown: %v, want ErrNotFound", err)
	}
}
