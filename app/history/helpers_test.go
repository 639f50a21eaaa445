package history

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

// base is a fixed instant with nanoseconds, so round trips must keep them.
var base = time.Date(2025, 3, 14, 9, 26, 53, 589793238, time.UTC)

func openSQLite(t testing.TB) *SQLite {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// newQuestion returns a minimal pending question.
func newQuestion(id string, created time.Time) question.Question {
	return question.Question{
		ID:       id,
		Kind:     question.KindText,
		Client:   question.Client{Name: "claude-code"},
		Message:  "What should I do next?",
		Created:  created,
		Deadline: created.Add(question.DefaultTimeout),
		State:    question.StatePending,
	}
}

// answered returns a result answering with value at decided.
func answered(value string, decided time.Time) *question.Result {
	v, _ := json.Marshal(value)
	return &question.Result{Outcome: question.Answered, DecidedBy: question.ByHuman, Via: question.ViaDialog, Value: v, DecidedAt: decided}
}

// ended returns a result with the given outcome.
func ended(o question.Outcome, decided time.Time) *question.Result {
	return &question.Result{Outcome: o, DecidedBy: question.ByHuman, Via: question.ViaDialog, DecidedAt: decided}
}

// add records q and, if r is not nil, ends it with r.
func add(t testing.TB, s Store, q question.Question, r *question.Result) {
	t.Helper()
	ctx := context.Background()
	if err := s.Begin(ctx, q); err != nil {
		t.Fatal(err)
	}
	if r != nil {
		if err := s.End(ctx, q, *r); err != nil {
			t.Fatal(err)
		}
	}
}

func ids(recs []Record) []string {
	out := make([]string, 0, len(recs))
	for _, r := range recs {
		out = append(out, r.Question.ID)
	}
	return out
}

// jsonEqual reports whether a and b hold equal JSON values (both empty counts).
func jsonEqual(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// diffQuestion describes how got differs from want: times by Equal, raw JSON
// by value, everything else exactly.
func diffQuestion(got, want question.Question) string {
	for _, p := range []struct {
		name string
		g, w time.Time
	}{{"Created", got.Created, want.Created}, {"Deadline", got.Deadline, want.Deadline}, {"SnoozeUntil", got.SnoozeUntil, want.SnoozeUntil}} {
		if !p.g.Equal(p.w) {
			return fmt.Sprintf("%s = %v, want %v", p.name, p.g, p.w)
		}
	}
	if !jsonEqual(got.Schema, want.Schema) || !jsonEqual(got.Default, want.Default) {
		return fmt.Sprintf("Schema, Default = %s, %s, want %s, %s", got.Schema, got.Default, want.Schema, want.Default)
	}
	got.Created, got.Deadline, got.SnoozeUntil, got.Schema, got.Default = time.Time{}, time.Time{}, time.Time{}, nil, nil
	want.Created, want.Deadline, want.SnoozeUntil, want.Schema, want.Default = time.Time{}, time.Time{}, time.Time{}, nil, nil
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("got %+v\nwant %+v", got, want)
	}
	return ""
}

// diffResult describes how got differs from want.
func diffResult(got, want *question.Result) string {
	if got == nil || want == nil {
		if got != want {
			return fmt.Sprintf("result = %+v, want %+v", got, want)
		}
		return ""
	}
	g, w := *got, *want
	if !g.DecidedAt.Equal(w.DecidedAt) {
		return fmt.Sprintf("DecidedAt = %v, want %v", g.DecidedAt, w.DecidedAt)
	}
	if !jsonEqual(g.Value, w.Value) {
		return fmt.Sprintf("Value = %s, want %s", g.Value, w.Value)
	}
	g.DecidedAt, w.DecidedAt, g.Value, w.Value = time.Time{}, time.Time{}, nil, nil
	if !reflect.DeepEqual(g, w) {
		return fmt.Sprintf("got %+v\nwant %+v", g, w)
	}
	return ""
}
