package history

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

// verdictRecords returns one record (question, result) for every way a
// question ends, pending included: ids v00, v01, … oldest first.
func verdictRecords() []Record {
	val := func(s string) json.RawMessage { return json.RawMessage(s) }
	type end struct {
		kind question.Kind
		r    *question.Result
	}
	ends := []end{
		{question.KindApproval, nil},
		{question.KindApproval, &question.Result{Outcome: question.Answered, DecidedBy: question.ByHuman, Value: val(`"allow"`)}},
		{question.KindApproval, &question.Result{Outcome: question.Answered, DecidedBy: question.ByHuman, Value: question.AgentRuleValue("Bash(ls:*)")}},
		{question.KindApproval, &question.Result{Outcome: question.Declined, DecidedBy: question.ByHuman}},
		{question.KindConfirm, &question.Result{Outcome: question.Answered, DecidedBy: question.ByHuman, Value: val(`"yes"`)}},
		{question.KindConfirm, &question.Result{Outcome: question.Answered, DecidedBy: question.ByHuman, Value: val(`"no"`)}},
		{question.KindConfirm, &question.Result{Outcome: question.Declined, DecidedBy: question.ByHuman}},
		{question.KindText, &question.Result{Outcome: question.Answered, DecidedBy: question.ByHuman, Value: val(`"no"`)}},
		{question.KindChoice, &question.Result{Outcome: question.Answered, DecidedBy: question.ByHuman, Value: val(`["Keep current"]`)}},
		{question.KindText, &question.Result{Outcome: question.Declined, DecidedBy: question.ByHuman}},
		{question.KindText, &question.Result{Outcome: question.Cancelled, DecidedBy: question.ByHuman}},
		{question.KindApproval, &question.Result{Outcome: question.AutoApproved, DecidedBy: question.ByRule, Reason: question.ReasonRule, RuleID: "r1", Value: val(`"allow"`)}},
		{question.KindConfirm, &question.Result{Outcome: question.AutoApproved, DecidedBy: question.ByRule, Reason: question.ReasonRule, RuleID: "r2", Value: val(`"yes"`)}},
		{question.KindApproval, &question.Result{Outcome: question.AutoRejected, DecidedBy: question.ByRule, Reason: question.ReasonRule, RuleID: "r3"}},
		{question.KindConfirm, &question.Result{Outcome: question.AutoRejected, DecidedBy: question.ByTimeout, Reason: question.ReasonTimeout}},
		{question.KindApproval, &question.Result{Outcome: question.Withdrawn, DecidedBy: question.ByAgent, Reason: question.ReasonTimeout}},
		{question.KindText, &question.Result{Outcome: question.AutoRejected, DecidedBy: question.ByApp, Reason: question.ReasonAway}},
		{question.KindText, &question.Result{Outcome: question.AutoRejected, DecidedBy: question.ByApp, Reason: question.ReasonHandedBack}},
		{question.KindChoice, &question.Result{Outcome: question.Withdrawn, DecidedBy: question.ByAgent}},
		{question.KindApproval, &question.Result{Outcome: question.Withdrawn, DecidedBy: question.ByAgent, Reason: question.ReasonAnsweredInAgent}},
		{question.KindApproval, &question.Result{Outcome: question.AutoRejected, DecidedBy: question.ByAgent, Reason: question.ReasonAgentBlocked, Note: "[Irreversible Local Destruction]"}},
		{question.KindText, &question.Result{Outcome: question.Interrupted, DecidedBy: question.ByApp, Reason: question.ReasonStopped}},
	}
	out := make([]Record, len(ends))
	for i, e := range ends {
		q := newQuestion(fmt.Sprintf("v%02d", i), base.Add(time.Duration(i)*time.Second))
		q.Kind = e.kind
		if e.kind == question.KindChoice {
			q.Options = []question.Option{{Label: "Keep current"}, {Label: "Switch"}}
		}
		out[i] = Record{Question: q}
		if e.r != nil {
			r := *e.r
			r.DecidedAt = q.Created.Add(time.Second)
			out[i].Result = &r
		}
	}
	return out
}

// TestSQLite_FiltersAndCountsByVerdict: a filter by verdict selects exactly
// the records question.VerdictOf reads as that verdict, newest first and
// paged, combined with the other filters; CountVerdicts counts them.
func TestSQLite_FiltersAndCountsByVerdict(t *testing.T) {
	t.Parallel()
	s := openSQLite(t)
	ctx := t.Context()
	recs := verdictRecords()
	want := map[question.Verdict][]string{}
	counts := map[question.Verdict]int{}
	for _, v := range question.Verdicts {
		counts[v] = 0
	}
	for i := len(recs) - 1; i >= 0; i-- {
		add(t, s, recs[i].Question, recs[i].Result)
		counts[question.VerdictOf(&recs[i].Question, recs[i].Result)]++
	}
	slices.Reverse(recs) // newest first, as List returns them
	for _, v := range question.Verdicts {
		for _, r := range recs {
			if question.VerdictOf(&r.Question, r.Result) == v {
				want[v] = append(want[v], r.Question.ID)
			}
		}
		if len(want[v]) == 0 {
			t.Fatalf("no record reads as %s", v)
		}
		p, err := s.List(ctx, Filter{Verdicts: []question.Verdict{v}})
		if err != nil || !slices.Equal(ids(p.Records), want[v]) {
			t.Errorf("List(%s) = %v, %v; want %v", v, ids(p.Records), err, want[v])
		}
	}
	// The three the person could not tell apart: allowed, Keep current, no.
	for id, v := range map[string]question.Verdict{"v01": question.VerdictAllowed, "v05": question.VerdictDenied, "v08": question.VerdictAnswered, "v03": question.VerdictDenied} {
		if !slices.Contains(want[v], id) {
			t.Errorf("%s does not read as %s: %v", id, v, want)
		}
	}

	got, err := s.CountVerdicts(ctx, Filter{Verdicts: []question.Verdict{question.VerdictAllowed}, Outcomes: []question.State{question.StatePending}, Limit: 1})
	if err != nil || !reflect.DeepEqual(got, counts) {
		t.Errorf("CountVerdicts = %v, %v; want %v", got, err, counts)
	}

	// By rule, with a kind and an outcome, paged one at a time.
	f := Filter{Verdicts: []question.Verdict{question.VerdictRuleAllowed, question.VerdictRuleDenied}, Kind: question.KindApproval, Limit: 1}
	var seen []string
	for {
		p, err := s.List(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, ids(p.Records)...)
		if p.Next == "" {
			break
		}
		f.Cursor = p.Next
	}
	if !slices.Equal(seen, []string{"v13", "v11"}) {
		t.Errorf("by rule, approvals: %v", seen)
	}
	p, err := s.List(ctx, Filter{Verdicts: []question.Verdict{question.VerdictTimedOut}, Outcomes: []question.State{question.State(question.Withdrawn)}})
	if err != nil || !slices.Equal(ids(p.Records), []string{"v15"}) {
		t.Errorf("timed out and withdrawn: %v, %v", ids(p.Records), err)
	}
	n, err := s.CountVerdicts(ctx, Filter{Kind: question.KindConfirm})
	if err != nil || n[question.VerdictAllowed] != 1 || n[question.VerdictDenied] != 1 || n[question.VerdictDeclined] != 1 || n[question.VerdictTimedOut] != 1 {
		t.Errorf("confirm verdicts %v, %v", n, err)
	}
}

// TestSQLite_VerdictsOnAnOldDatabase: verdicts are derived when read, so a
// database written at schema version 1 filters by them once opened.
func TestSQLite_VerdictsOnAnOldDatabase(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "history.db")
	s, err := open(path, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range verdictRecords()[1:6] {
		q, r := rec.Question, rec.Result
		q.State = question.State(r.Outcome)
		qj, _ := encode(q)
		rj, _ := encode(r)
		_, err = s.db.Exec(`INSERT INTO questions (id, kind, client_name, client_version, session_id, created, deadline,
			state, decided_by, reason, decided_at, question_json, result_json) VALUES (?, ?, ?, '', '', ?, ?, ?, ?, ?, ?, ?, ?)`,
			q.ID, string(q.Kind), q.Client.Name, nanos(q.Created), nanos(q.Deadline), string(q.State),
			string(r.DecidedBy), string(r.Reason), nanos(r.DecidedAt), string(qj), string(rj))
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	ctx := context.Background()
	for v, want := range map[question.Verdict][]string{
		question.VerdictAllowed: {"v04", "v02", "v01"},
		question.VerdictDenied:  {"v05", "v03"},
	} {
		p, err := s.List(ctx, Filter{Verdicts: []question.Verdict{v}})
		if err != nil || !slices.Equal(ids(p.Records), want) {
			t.Errorf("List(%s) = %v, %v; want %v", v, ids(p.Records), err, want)
		}
	}
}
