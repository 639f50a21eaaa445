package askdialog

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// migration is a request_approval whose details are a Markdown code block.
func migration(details string) question.Question {
	return question.Question{Kind: question.KindApproval, Tool: "request_approval", Origin: question.OriginApproval, Risk: question.RiskMedium,
		Action: "Run the database migration", Message: "Run the database migration", Cwd: "/home/u/shop",
		Details: details}
}

// TestAlwaysPanel_RequestApprovalInWords: for a request_approval whose
// details take three lines, the panel leads with the sentence saying what
// the rule matches and what not, in words (no request_approval:… or
// permission_request:… in sight: the agent and request patterns are
// folded away), names the pattern field Details, shows the details whole
// in a multi-line field, and the person edits them as text: the rule made
// matches the edited details, not the original ones.
func TestAlwaysPanel_RequestApprovalInWords(t *testing.T) {
	e, pol := newApprovalEnv(t)
	details := "```sh\nbin/rails db:migrate RAILS_ENV=staging\n```"
	d := e.ask(migration(details))
	d.guard.arm()
	test.Tap(d.alwaysButton)
	d.alwaysMenu.Items[0].Action()
	p := d.always
	box := p.pop.Content.(*fyne.Container).Objects[0].(*fyne.Container)
	if box.Objects[1] != p.matchText {
		t.Fatalf("the panel does not lead with what the rule matches: %T", box.Objects[1])
	}
	want := "Matches approval requests “Run the database migration” from " + d.q.Client.Name +
		", these details exactly in /home/u/shop. Only in this session. Not the same request with other details."
	if p.matchText.Text != want {
		t.Fatalf("says %q", p.matchText.Text)
	}
	if !p.pattern.MultiLine || p.pattern.Text != details || p.form.Items[1].Text != "Details" {
		t.Fatalf("pattern field %q multi-line %v, labelled %q", p.pattern.Text, p.pattern.MultiLine, p.form.Items[1].Text)
	}
	for _, o := range test.LaidOutObjects(p.pop.Content) {
		if l, ok := o.(*widget.Label); ok && l.Visible() && (strings.Contains(l.Text, "request_approval") || strings.Contains(l.Text, "permission_request")) {
			t.Errorf("an internal name shows: %q", l.Text)
		}
	}
	for _, fi := range p.form.Items {
		if fi.Widget == p.client || fi.Widget == p.action {
			t.Errorf("the %q pattern is not folded away", fi.Text)
		}
	}
	// Edited as text: a second line of details.
	edited := "```sh\nbin/rails db:migrate RAILS_ENV=staging\nbin/rails db:seed\n```"
	p.pattern.SetText(edited)
	e.clock.advance(question.DefaultArmDelay)
	test.Tap(p.ok)
	rules := pol.Rules()
	if len(rules) != 1 || rules[0].Match != policy.MatchInput || rules[0].Pattern != edited {
		t.Fatalf("rules %+v", rules)
	}
	for det, want := range map[string]question.Outcome{edited: question.AutoApproved, details: ""} {
		q := migration(det)
		q.Client = d.q.Client
		asked, err := e.broker.Ask(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		got := question.Outcome("")
		if _, res, _ := e.broker.Get(asked.ID); res != nil {
			got = res.Outcome
		}
		if got != want {
			t.Errorf("%q: %q, want %q", det, got, want)
		}
	}
}
