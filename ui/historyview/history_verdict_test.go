package historyview

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/question"
)

// auditSeed is a history of decisions an audit must tell apart, newest
// first: an approval allowed, a confirm answered "Keep current" (its no), a
// confirm answered no, an approval denied, a rule's allow and deny, a hook
// whose window ended, a withdrawal, a plain answer and one more allowed.
var auditSeed = []seedRec{
	{3 * time.Minute, 9 * time.Second, question.Question{Kind: question.KindApproval, Client: seedClient("claude-code", "2.1.3"), Action: "Bash",
		Header: "0042_split_ledger", Message: "Run the migration `0042_split_ledger` on staging? It splits ledger_entries into ledger_debits and ledger_credits."},
		seedHuman(question.ViaDialog, `"allow"`)},
	{9 * time.Minute, 21 * time.Second, question.Question{Kind: question.KindConfirm, Client: seedClient("codex", "0.9.1"),
		Message: "Replace .golangci.yml with the suggested config?", YesLabel: "Replace", NoLabel: "Keep current"},
		seedHuman(question.ViaDialog, `"no"`)},
	{14 * time.Minute, 6 * time.Second, question.Question{Kind: question.KindConfirm, Client: seedClient("cursor", "0.48"),
		Message: "Bump the Go toolchain to 1.26?"},
		seedHuman(question.ViaNotification, `"no"`)},
	{31 * time.Minute, 12 * time.Second, question.Question{Kind: question.KindApproval, Client: seedClient("claude-code", "2.1.3"), Action: "Bash",
		Header: "git push --force", Message: "Run `git push --force origin main`?"},
		&question.Result{Outcome: question.Declined, DecidedBy: question.ByHuman, Via: question.ViaDialog}},
	{47 * time.Minute, 0, question.Question{Kind: question.KindApproval, Client: seedClient("claude-code", "2.1.3"), Action: "Bash",
		Header: "go test ./...", Message: "Run `go test ./...`?"},
		&question.Result{Outcome: question.AutoApproved, DecidedBy: question.ByRule, Reason: question.ReasonRule, Via: question.ViaRule, RuleID: "tests", Value: json.RawMessage(`"allow"`)}},
	{53 * time.Minute, 0, question.Question{Kind: question.KindApproval, Client: seedClient("codex", "0.9.1"), Action: "Bash",
		Header: "rm -rf build/", Message: "Run `rm -rf build/`?"},
		&question.Result{Outcome: question.AutoRejected, DecidedBy: question.ByRule, Reason: question.ReasonRule, Via: question.ViaRule, RuleID: "no-rm"}},
	{70 * time.Minute, 10 * time.Minute, question.Question{Kind: question.KindApproval, Client: seedClient("claude-code", "2.1.3"), Action: "Edit",
		Header: "Edit Makefile", Message: "Edit `Makefile`?"},
		&question.Result{Outcome: question.Withdrawn, DecidedBy: question.ByAgent, Reason: question.ReasonTimeout}},
	{2 * time.Hour, 40 * time.Second, question.Question{Kind: question.KindChoice, Client: seedClient("vscode", "1.96.2"),
		Message: "Which branch should the fix go to?", Options: []question.Option{{Label: "main"}, {Label: "release-1.4"}}},
		&question.Result{Outcome: question.Withdrawn, DecidedBy: question.ByAgent}},
	{3 * time.Hour, 15 * time.Second, question.Question{Kind: question.KindChoice, Client: seedClient("vscode", "1.96.2"),
		Message: "Which config should the linter keep?", Options: []question.Option{{Label: "Keep current"}, {Label: "Use the suggested one"}}},
		seedHuman(question.ViaDialog, `["Keep current"]`)},
	{5 * time.Hour, 4 * time.Second, question.Question{Kind: question.KindApproval, Client: seedClient("claude-code", "2.1.3"), Action: "Read",
		Header: "Read go.mod", Message: "Read `go.mod`?"},
		seedHuman(question.ViaCLI, `"allow"`)},
}

// TestHistory_VerdictsTellApart: allowed, "Keep current" and no read
// differently (label and mark) in the list and the detail, and each filter
// the audit needs selects them. A confirm's answer reads "Answered",
// neutral, its no with a minus and the answer ("Keep current") beside it,
// never as an approval's red Denied (issue 38 item 7); the Allowed and
// Denied filters still take a confirm's yes and no.
func TestHistory_VerdictsTellApart(t *testing.T) {
	s := historytest.New(t)
	seedHistory(t, s, auditSeed)
	x := newHistHarness(t, s).show()
	h, d := x.h, x.h.detail
	want := []string{"Allowed", "Answered", "Answered", "Denied", "Allowed by rule", "Denied by rule", "Timed out", "Withdrawn", "Answered", "Allowed"}
	r := newHistoryRow()
	icons := map[string]string{}
	for i, rec := range h.rows {
		r.set(rec, histNow, "", "")
		h.list.Select(i)
		if r.full[rowOutcome] != want[i] || d.outcome.Text != want[i] {
			t.Errorf("row %d (%s): list %q, detail %q, want %q", i, rec.Question.ID, r.full[rowOutcome], d.outcome.Text, want[i])
		}
		if d.outcomeIcon.Resource.Name() != r.icon.Resource.Name() {
			t.Errorf("row %d: the list's mark %s is not the detail's %s", i, r.icon.Resource.Name(), d.outcomeIcon.Resource.Name())
		}
		group := want[i]
		if i == 1 || i == 2 {
			group = "a confirm's no" // one mark for the no, whatever its label
		}
		if other, ok := icons[r.icon.Resource.Name()]; ok && other != group {
			t.Errorf("%s and %s share the mark %s", other, group, r.icon.Resource.Name())
		}
		icons[r.icon.Resource.Name()] = group
	}
	if len(icons) != 8 {
		t.Errorf("%d marks for 8 kinds of end: %v", len(icons), icons)
	}
	h.list.Select(1)
	if d.answer.Text != "Keep current" || d.outcome.Importance != widget.MediumImportance {
		t.Errorf("Keep current: answer %q, importance %v", d.answer.Text, d.outcome.Importance)
	}
	h.list.Select(0)
	if d.outcome.Importance != widget.SuccessImportance {
		t.Errorf("allowed: importance %v", d.outcome.Importance)
	}

	for _, c := range []struct {
		filter string
		ids    []string
	}{
		{"Allowed (2)", []string{"h00", "h09"}},
		{"Denied (3)", []string{"h01", "h02", "h03"}},
		{"By rule (2)", []string{"h04", "h05"}},
		{"Denied by rule (1)", []string{"h05"}},
		{"Timed out (1)", []string{"h06"}},
		{"Withdrawn (1)", []string{"h07"}},
		{"Answered (1)", []string{"h08"}},
		{"All outcomes (10)", []string{"h00", "h01", "h02", "h03", "h04", "h05", "h06", "h07", "h08", "h09"}},
	} {
		x.selectOption(h.outcomeSel, h.outcomeSel.Options, c.filter)
		if h.outcomeSel.Selected != c.filter || !slices.Equal(x.ids(), c.ids) {
			t.Errorf("%s: selected %q, rows %v", c.filter, h.outcomeSel.Selected, x.ids())
		}
	}
	x.selectOption(h.outcomeSel, h.outcomeSel.Options, "Denied")
	x.selectOption(h.kindSel, h.kindSel.Options, "Approval")
	if !slices.Equal(x.ids(), []string{"h03"}) || h.outcomeSel.Selected != "Denied (1)" || h.status.Text != "1 question" {
		t.Errorf("denied approvals: %v, %q, %q", x.ids(), h.outcomeSel.Selected, h.status.Text)
	}
}

// TestHistory_TextShownAsAsked: a title and a message with underscores read
// as the agent wrote them, in the list and the detail ("0042_split_ledger",
// not "0042_ split_ ledger").
func TestHistory_TextShownAsAsked(t *testing.T) {
	s := historytest.New(t)
	recs := seedHistory(t, s, auditSeed[:1])
	x := newHistHarness(t, s).show()
	h, d := x.h, x.h.detail
	r := newHistoryRow()
	r.set(recs[0], histNow, "", "")
	if r.full[rowQuestion] != "0042_split_ledger" {
		t.Errorf("list title %q", r.full[rowQuestion])
	}
	h.list.Select(0)
	if d.title.Text != "0042_split_ledger" || d.title.Hidden {
		t.Errorf("detail title %q (hidden %v)", d.title.Text, d.title.Hidden)
	}
	msg := d.message.Objects[0].(*widget.RichText).String()
	if !strings.Contains(msg, "Run the migration 0042_split_ledger on staging? It splits ledger_entries into ledger_debits and ledger_credits.") {
		t.Errorf("detail message %q", msg)
	}
}
