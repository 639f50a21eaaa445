package historyview

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/question"
)

// A remote host's question that ended as its SSH connection dropped says
// so in its row and its detail.
func TestHistory_ShowsTheHostDisconnected(t *testing.T) {
	s := historytest.New(t)
	q := question.Question{Kind: question.KindApproval, Client: seedClient("claude-code", ""), Host: "build-01",
		Message: "Bash", Tool: "permission_request", Origin: question.OriginPermission, Action: "Bash", Details: "```sh\nmake deploy\n```"}
	seedHistory(t, s, []seedRec{{time.Minute, 2 * time.Second, q,
		&question.Result{Outcome: question.Withdrawn, DecidedBy: question.ByAgent, Reason: question.ReasonHostDisconnected}}})
	x := newHistHarness(t, s).show()
	h, d := x.h, x.h.detail
	h.list.Select(0)
	if got := shortAnswer(h.rows[0]); got != "host disconnected" {
		t.Errorf("row %q, want host disconnected", got)
	}
	if d.outcome.Text != "Withdrawn" || d.decider.Text != "·  Nobody: the remote host disconnected" {
		t.Errorf("outcome %q, decider %q", d.outcome.Text, d.decider.Text)
	}
}

// The History window's host filter: hidden while no remote host has
// asked; once one has, it offers all hosts, this machine and each host
// that asked, and each choice lists only those questions (the store's
// Filter.Host). A new host's first question adds it to the choices.
func TestHistory_FilterByHost(t *testing.T) {
	s := historytest.New(t)
	at := func(msg, host string) question.Question {
		return question.Question{Kind: question.KindApproval, Client: seedClient("claude-code", ""), Host: host, Message: msg,
			Tool: "permission_request", Origin: question.OriginPermission, Action: "Bash"}
	}
	seedHistory(t, s, []seedRec{{3 * time.Minute, time.Second, at("local one", ""), seedHuman(question.ViaDialog, `"allow"`)}})
	if x := newHistHarness(t, s).show(); x.h.hostSel.Visible() {
		t.Fatal("a host filter without remote hosts")
	}
	s = historytest.New(t)
	seedHistory(t, s, []seedRec{
		{3 * time.Minute, time.Second, at("local one", ""), seedHuman(question.ViaDialog, `"allow"`)},
		{2 * time.Minute, time.Second, at("on build", "build-01"), seedHuman(question.ViaDialog, `"allow"`)},
	})
	x := newHistHarness(t, s).show()
	h := x.h
	if !h.hostSel.Visible() || !slices.Equal(h.hostSel.Options, []string{"All hosts", "This machine", "build-01"}) {
		t.Fatalf("host filter shown %v, options %q", h.hostSel.Visible(), h.hostSel.Options)
	}
	// A new host asks while the window shows.
	q := at("as agent", "agent@localhost")
	q.ID, q.Created = "h99", histNow.Add(-time.Minute)
	q.Deadline = q.Created.Add(question.DefaultTimeout)
	if err := s.Begin(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	h.Handle(question.Event{Type: question.EventAsked, Question: q})
	x.wait()
	if !h.hostSel.Visible() || !slices.Equal(h.hostSel.Options, []string{"All hosts", "This machine", "agent@localhost", "build-01"}) {
		t.Fatalf("host filter shown %v, options %q", h.hostSel.Visible(), h.hostSel.Options)
	}
	for _, c := range []struct {
		choice string
		want   []string
	}{
		{"build-01", []string{"on build"}},
		{"This machine", []string{"local one"}},
		{"agent@localhost", []string{"as agent"}},
		{"All hosts", []string{"as agent", "on build", "local one"}},
	} {
		x.selectOption(h.hostSel, h.hostSel.Options, c.choice)
		var got []string
		for _, r := range h.rows {
			got = append(got, r.Question.Message)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: rows %q, want %q", c.choice, got, c.want)
		}
	}
}
