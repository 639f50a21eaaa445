package historyview

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// The history detail shows what an approval asked for: the tool, the
// action's details, the agent's reason and the risk.
func TestHistory_DetailShowsApprovalFields(t *testing.T) {
	s := historytest.New(t)
	seedHistory(t, s, []seedRec{{time.Minute, 2 * time.Second, question.Question{Kind: question.KindApproval, Client: seedClient("claude-code", "2.1.3"),
		Message: "Bash", Tool: "permission_prompt", Origin: question.OriginPermission, Action: "Bash", Details: "```sh\nrm -rf build/ \u202e#\n```", AgentReason: "Clean the build output", Risk: question.RiskHigh,
		RiskWhy: "deletes files recursively, `rm -r`"},
		&question.Result{Outcome: question.AutoApproved, DecidedBy: question.ByRule, Reason: question.ReasonRule, Via: question.ViaRule, RuleID: "r9"}}})
	x := newHistHarness(t, s).show()
	h, d := x.h, x.h.detail
	h.list.Select(0)
	rt := d.message.Objects[0].(*widget.RichText)
	text := rt.String()
	for _, want := range []string{"Bash", "rm -rf build/ ⟨U+202E⟩#", "Why: Clean the build output", "Risk: High risk: deletes files recursively, “rm -r”."} {
		if !strings.Contains(text, want) {
			t.Errorf("detail lacks %q:\n%s", want, text)
		}
	}
	if strings.ContainsRune(text, '\u202e') {
		t.Errorf("the history shows an invisible override:\n%q", text)
	}
	if d.kind.Text != "Approval, via permission_prompt" {
		t.Errorf("kind %q", d.kind.Text)
	}
	if d.decider.Text != "·  Rule r9" {
		t.Errorf("decider %q", d.decider.Text)
	}
}

// A hook approval denied in the tray whose tool then ran (the agent had
// been answered in its own terminal first) is marked live: the row's answer
// and the detail say the agent had already proceeded, the outcome stays.
func TestHistory_ShowsTheAgentHadAlreadyProceeded(t *testing.T) {
	s := historytest.New(t)
	recs := seedHistory(t, s, []seedRec{{time.Minute, 2 * time.Second, question.Question{Kind: question.KindApproval, Client: seedClient("claude-code", ""),
		Message: "Bash", Tool: "permission_request", Origin: question.OriginPermission, Action: "Bash", Details: "```sh\necho ran\n```"},
		&question.Result{Outcome: question.Declined, DecidedBy: question.ByHuman, Via: question.ViaCLI, Note: "not now"}}})
	x := newHistHarness(t, s).show()
	h, d := x.h, x.h.detail
	h.list.Select(0)
	if !d.afterwards.Hidden || shortAnswer(h.rows[0]) != "“not now”" {
		t.Fatalf("before: afterwards %v %q, row %q", d.afterwards.Hidden, d.afterwards.Text, shortAnswer(h.rows[0]))
	}
	if err := s.Annotate(context.Background(), recs[0].Question.ID, question.ReasonAgentProceeded); err != nil {
		t.Fatal(err)
	}
	rec, _ := s.Get(context.Background(), recs[0].Question.ID)
	h.Handle(question.Event{Type: question.EventAnnotated, Question: rec.Question, Result: rec.Result})
	x.wait()
	if got := shortAnswer(h.rows[0]); got != "agent had already proceeded" {
		t.Errorf("row %q", got)
	}
	if d.afterwards.Hidden || !strings.Contains(d.afterwards.Text, "The agent had already proceeded: it was answered in the agent's own terminal first") {
		t.Errorf("detail %v %q", d.afterwards.Hidden, d.afterwards.Text)
	}
	if d.outcome.Text != "Denied" || d.note.Text != "Note: not now" {
		t.Errorf("outcome %q, note %q", d.outcome.Text, d.note.Text)
	}
}

// A Codex approval asked while the hook could not tell whether its terminal
// still waits (finding 6 of issue 25) keeps the line in its detail.
func TestHistory_DetailSaysCodexMayNoLongerWait(t *testing.T) {
	s := historytest.New(t)
	line := present.AsksFromBackground("Codex")
	seedHistory(t, s, []seedRec{{time.Minute, 2 * time.Second, question.Question{Kind: question.KindApproval, Client: seedClient("codex", ""),
		Message: "Bash", Tool: "permission_request", Origin: question.OriginPermission, Action: "Bash", Details: "_" + line + "_\n\n```sh\nrm -f /tmp/marker\n```"},
		&question.Result{Outcome: question.Withdrawn, DecidedBy: question.ByAgent}}})
	x := newHistHarness(t, s).show()
	x.h.list.Select(0)
	if text := x.h.detail.message.Objects[0].(*widget.RichText).String(); !strings.Contains(text, line) {
		t.Fatalf("detail lacks %q:\n%s", line, text)
	}
}

// TestHistory_DetailLeadsWithWhoAndWhere: the detail leads with the
// dialog's headline (who asked, what it wanted, in which project, ~ for
// home) and lists the working directory in full beside the client; a
// question with no working directory has no Where row.
func TestHistory_DetailLeadsWithWhoAndWhere(t *testing.T) {
	s := historytest.New(t)
	seedHistory(t, s, []seedRec{
		{2 * time.Minute, time.Second, question.Question{Kind: question.KindText, Client: seedClient("cursor", "1.2"), Message: "Name the branch", FreeText: true},
			&question.Result{Outcome: question.Declined, DecidedBy: question.ByHuman, Via: question.ViaDialog}},
		{time.Minute, 2 * time.Second, question.Question{Kind: question.KindApproval, Client: seedClient("claude-code", "2.1.3"),
			Message: "Bash", Tool: "permission_request", Origin: question.OriginPermission, Action: "Bash", Details: "```sh\nmake deploy\n```",
			Input: []byte(`{"command":"make deploy"}`), Cwd: "/home/ada/projects/payments-service"},
			&question.Result{Outcome: question.Declined, DecidedBy: question.ByHuman, Via: question.ViaDialog}},
	})
	x := newHistHarness(t, s).show()
	h, d := x.h, x.h.detail
	h.list.Select(0)
	if want := "claude-code wants to run a shell command in ~/projects/payments-service"; d.who.Text != want {
		t.Errorf("headline %q, want %q", d.who.Text, want)
	}
	if d.where.Hidden || d.whereKey.Hidden || d.where.Text != "/home/ada/projects/payments-service" {
		t.Errorf("where %q (hidden %v)", d.where.Text, d.where.Hidden)
	}
	h.list.Select(1)
	if d.who.Text != "cursor asks" || !d.where.Hidden || !d.whereKey.Hidden {
		t.Errorf("no cwd: headline %q, where %q (hidden %v)", d.who.Text, d.where.Text, d.where.Hidden)
	}
}
