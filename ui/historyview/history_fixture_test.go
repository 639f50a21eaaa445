package historyview

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/question"
)

// histNow is the fixed clock of the history tests: a Thursday afternoon.
var histNow = time.Date(2026, 3, 12, 15, 30, 0, 0, time.Local)

// seedRec is one record of the realistic history, asked ago before histNow
// and decided took later.
type seedRec struct {
	ago, took time.Duration
	q         question.Question
	r         *question.Result
}

func seedHuman(via question.Via, value string) *question.Result {
	r := &question.Result{Outcome: question.Answered, DecidedBy: question.ByHuman, Via: via}
	if value != "" {
		r.Value = json.RawMessage(value)
	}
	return r
}

func seedClient(name, version string) question.Client {
	return question.Client{Name: name, Version: version, SessionID: "sess-" + name[:2] + "41c9e07"}
}

// histSeed is the realistic history, newest first: several clients, every
// outcome, forms, choices and confirms.
var histSeed = []seedRec{
	{2 * time.Minute, 0, question.Question{Kind: question.KindApproval, Client: seedClient("claude-code", "2.1.3"), Header: "Apply the staging plan",
		Message: "Run `terraform apply` on **staging**? The plan adds 3 resources and changes 1.", Risk: question.RiskMedium}, nil},
	{8 * time.Minute, 41 * time.Second, question.Question{Kind: question.KindForm, Client: seedClient("vscode", "1.96.2"), Header: "Prepare release v1.4.0",
		Message: "Fill in the release details. I will tag the commit and draft the notes.",
		Schema:  json.RawMessage(`{"type":"object","properties":{"version":{"type":"string"},"draft":{"type":"boolean"},"build":{"type":"integer"},"notes":{"type":"string"}},"required":["version"]}`)},
		seedHuman(question.ViaDialog, `{"version":"1.4.0","draft":false,"build":42,"notes":"Fixes the login loop"}`)},
	{25 * time.Minute, 5 * time.Minute, question.Question{Kind: question.KindConfirm, Client: seedClient("codex", "0.9.1"), Header: "Force-push main",
		Message: "Force-push `main` to origin? This rewrites 2 commits that are already on the remote.", Destructive: true},
		&question.Result{Outcome: question.AutoRejected, DecidedBy: question.ByTimeout, Reason: question.ReasonTimeout}},
	{62 * time.Minute, 12 * time.Second, question.Question{Kind: question.KindChoice, Client: seedClient("cursor", "0.48"),
		Message: "Which database should the integration tests use?",
		Options: []question.Option{{Label: "Postgres 16", Description: "matches production"}, {Label: "SQLite", Description: "fast, in-memory"}, {Label: "MySQL 8"}}},
		seedHuman(question.ViaNotification, `["Postgres 16"]`)},
	{2 * time.Hour, 300 * time.Millisecond, question.Question{Kind: question.KindApproval, Client: seedClient("claude-code", "2.1.3"), Header: "Run the test suite",
		Message: "Run `go test ./...` in /work/main?"},
		&question.Result{Outcome: question.AutoApproved, DecidedBy: question.ByRule, Reason: question.ReasonRule, Via: question.ViaRule, RuleID: "r1", Value: json.RawMessage(`"allow"`)}},
	{3 * time.Hour, 95 * time.Second, question.Question{Kind: question.KindConfirm, Client: seedClient("cursor", "0.48"),
		Message: "Delete 14 unused feature flags from config/flags.yaml?"},
		&question.Result{Outcome: question.Declined, DecidedBy: question.ByHuman, Via: question.ViaDialog, Note: "not before the release"}},
	{26 * time.Hour, 5 * time.Minute, question.Question{Kind: question.KindText, Client: seedClient("claude-code", "2.1.3"),
		Message: "What should the new branch be called?"},
		&question.Result{Outcome: question.AutoRejected, DecidedBy: question.ByApp, Reason: question.ReasonAway}},
	{30 * time.Hour, 47 * time.Second, question.Question{Kind: question.KindChoice, Client: seedClient("codex", "0.9.1"), Header: "Migration strategy",
		Message: "Pick a migration strategy for the orders table.", Options: []question.Option{{Label: "Online"}, {Label: "Maintenance window"}}},
		&question.Result{Outcome: question.Withdrawn, DecidedBy: question.ByAgent}},
	{50 * time.Hour, 3 * time.Hour, question.Question{Kind: question.KindText, Client: seedClient("vscode", "1.96.2"),
		Message: "Paste the API token for the staging environment."},
		&question.Result{Outcome: question.Interrupted, DecidedBy: question.ByApp, Reason: question.ReasonStopped}},
	{74 * time.Hour, 20 * time.Second, question.Question{Kind: question.KindMultiChoice, Client: seedClient("claude-code", "2.1.3"),
		Message: "Which checks should run before the merge?", Options: []question.Option{{Label: "unit"}, {Label: "e2e"}, {Label: "lint"}}},
		&question.Result{Outcome: question.Cancelled, DecidedBy: question.ByHuman, Via: question.ViaDialog}},
	{5 * 24 * time.Hour, 33 * time.Second, question.Question{Kind: question.KindText, Client: seedClient("codex", "0.9.1"),
		Message: "Name for the new service?"}, seedHuman(question.ViaCLI, `"ledger-sync"`)},
	{12 * 24 * time.Hour, 8 * time.Second, question.Question{Kind: question.KindMultiChoice, Client: seedClient("claude-code", "2.0.9"),
		Message: "Which tests should run?", Options: []question.Option{{Label: "unit"}, {Label: "e2e", Description: "slow, needs Docker"}, {Label: "lint"}}},
		seedHuman(question.ViaDialog, `["unit","lint"]`)},
	{20 * 24 * time.Hour, 14 * time.Second, question.Question{Kind: question.KindConfirm, Client: seedClient("cursor", "0.47"), Header: "Merge PR #42",
		Message: "Open [the pull request](https://github.com/example/app/pull/42) and merge it?\n\n![build](https://ci.example/badge.svg)"},
		seedHuman(question.ViaDialog, `"yes"`)},
}

// seedHistory stores recs with ids h00, h01, … (h00 the newest) and returns the records.
func seedHistory(t testing.TB, s history.Store, recs []seedRec) []history.Record {
	t.Helper()
	ctx := context.Background()
	out := make([]history.Record, len(recs))
	for i, sr := range recs {
		q := sr.q
		q.ID = fmt.Sprintf("h%02d", i)
		q.Created = histNow.Add(-sr.ago)
		q.Deadline = q.Created.Add(question.DefaultTimeout)
		if err := s.Begin(ctx, q); err != nil {
			t.Fatal(err)
		}
		out[i].Question = q
		if sr.r != nil {
			r := *sr.r
			r.DecidedAt = q.Created.Add(sr.took)
			if err := s.End(ctx, q, r); err != nil {
				t.Fatal(err)
			}
			out[i].Result = &r
		}
	}
	return out
}

// histHarness drives a history window on the test driver. Store results
// come back through a queue that only the test goroutine drains, so every
// widget is touched from one goroutine.
type histHarness struct {
	t     testing.TB
	h     *Window
	queue chan func()
}

func newHistHarness(t testing.TB, s history.Store) *histHarness {
	t.Helper()
	return attachHarness(t, test.NewTempApp(t), s)
}

// attachHarness is newHistHarness on an existing app.
func attachHarness(t testing.TB, a fyne.App, s history.Store) *histHarness {
	t.Helper()
	h := New(a, s, slog.New(slog.NewTextHandler(io.Discard, nil)))
	x := &histHarness{t: t, h: h, queue: make(chan func(), 4096)}
	h.do = func(fn func()) { x.queue <- fn }
	h.now = func() time.Time { return histNow }
	h.debounce = 30 * time.Millisecond
	h.home = "/home/ada"
	t.Cleanup(func() {
		h.stopTick()
	})
	return x
}

// show shows the window and waits for its first page.
func (x *histHarness) show() *histHarness {
	x.h.Show()
	x.wait()
	return x
}

// wait runs queued results until no query or debounce timer is outstanding.
func (x *histHarness) wait() {
	x.t.Helper()
	deadline := time.After(20 * time.Second)
	for x.h.inflight > 0 {
		select {
		case fn := <-x.queue:
			fn()
		case <-deadline:
			x.t.Fatalf("history window: %d loads still pending", x.h.inflight)
		}
	}
}

// questions returns the loaded rows' question ids.
func (x *histHarness) ids() []string {
	out := make([]string, len(x.h.rows))
	for i, r := range x.h.rows {
		out[i] = r.Question.ID
	}
	return out
}

// first returns the first row's question text, or "".
func (x *histHarness) first() string {
	if len(x.h.rows) == 0 {
		return ""
	}
	return x.h.rows[0].Question.Message
}

// selectOption picks the option of s that starts with prefix.
func (x *histHarness) selectOption(s interface {
	SetSelectedIndex(int)
}, options []string, prefix string) {
	x.t.Helper()
	for i, o := range options {
		if len(o) >= len(prefix) && o[:len(prefix)] == prefix {
			s.SetSelectedIndex(i)
			x.wait()
			return
		}
	}
	x.t.Fatalf("no option %q in %q", prefix, options)
}
