package present

import (
	"slices"
	"testing"

	"github.com/asktray/asktray/app/question"
)

// TestVerdictMarksDistinct: every verdict has a label and a mark of its own,
// so that allowed, denied and answered never look alike again.
func TestVerdictMarksDistinct(t *testing.T) {
	t.Parallel()
	labels, marks := map[string]question.Verdict{}, map[[2]string]question.Verdict{}
	for _, v := range question.Verdicts {
		m := VerdictMark(v)
		if m.Label == "" || m.Icon == "" || m.Role == "" || m.Label == string(v) {
			t.Errorf("%s: mark %+v", v, m)
		}
		if o, dup := labels[m.Label]; dup {
			t.Errorf("%s and %s share the label %q", v, o, m.Label)
		}
		if o, dup := marks[[2]string{m.Icon, m.Role}]; dup {
			t.Errorf("%s and %s share the mark %s/%s", v, o, m.Icon, m.Role)
		}
		labels[m.Label], marks[[2]string{m.Icon, m.Role}] = v, v
	}
	if m := VerdictMark(question.VerdictAllowed); m.Label != "Allowed" || m.Role != RoleSuccess {
		t.Errorf("allowed: %+v", m)
	}
	if m := VerdictMark(question.VerdictDenied); m.Label != "Denied" || m.Role != RoleError {
		t.Errorf("denied: %+v", m)
	}
}

func TestVerdictFilters(t *testing.T) {
	t.Parallel()
	var got []string
	for _, f := range VerdictFilters() {
		got = append(got, f.Label)
		if len(f.Verdicts) == 0 {
			t.Errorf("%s selects nothing", f.Label)
		}
	}
	want := []string{"Pending", "Allowed", "Denied", "Answered", "Declined", "Cancelled", "By rule",
		"Allowed by rule", "Denied by rule", "Timed out", "Withdrawn", "Away mode", "Blocked by auto mode", "Interrupted"}
	if !slices.Equal(got, want) {
		t.Fatalf("filters %q,\nwant %q", got, want)
	}
	if f := VerdictFilters()[6]; !slices.Equal(f.Verdicts, []question.Verdict{question.VerdictRuleAllowed, question.VerdictRuleDenied}) {
		t.Errorf("By rule selects %v", f.Verdicts)
	}
}

func TestParseVerdicts(t *testing.T) {
	t.Parallel()
	vs, _, ok := ParseVerdicts([]string{"allowed", VerdictGroup, "timed_out"})
	if !ok || !slices.Equal(vs, []question.Verdict{question.VerdictAllowed, question.VerdictRuleAllowed, question.VerdictRuleDenied, question.VerdictTimedOut}) {
		t.Errorf("ParseVerdicts = %v, %v", vs, ok)
	}
	if _, bad, ok := ParseVerdicts([]string{"denied", "Allowed"}); ok || bad != "Allowed" {
		t.Errorf("ParseVerdicts(Allowed) = %q, %v", bad, ok)
	}
}

// TestRecordMark: a confirm the person answered reads "Answered", neutral
// (its no with a minus, whatever its label: "Wait"), never Allowed or
// Denied; an approval keeps Allowed and Denied; everything else reads as
// its verdict (issue 38 item 7).
func TestRecordMark(t *testing.T) {
	t.Parallel()
	answered := func(v string) *question.Result {
		return &question.Result{Outcome: question.Answered, Value: []byte(v)}
	}
	confirm := &question.Question{Kind: question.KindConfirm, Message: "Run the migration now?"}
	waitOrGo := &question.Question{Kind: question.KindConfirm, Message: "Deploy?", YesLabel: "Go", NoLabel: "Wait"}
	approval := &question.Question{Kind: question.KindApproval, Action: "Deploy"}
	for _, c := range []struct {
		q     *question.Question
		r     *question.Result
		label string
		icon  string
		role  string
	}{
		{confirm, answered(`"yes"`), "Answered", IconAnswer, RoleNeutral},
		{confirm, answered(`"no"`), "Answered", IconDecline, RoleNeutral},
		{confirm, answered(`true`), "Answered", IconAnswer, RoleNeutral},
		{waitOrGo, answered(`"no"`), "Answered", IconDecline, RoleNeutral},
		{confirm, &question.Result{Outcome: question.Declined}, "Declined", IconDecline, RoleError},
		{confirm, nil, "Pending", IconPending, RolePrimary},
		{approval, answered(`"allow"`), "Allowed", IconAllow, RoleSuccess},
		{approval, &question.Result{Outcome: question.Declined}, "Denied", IconDeny, RoleError},
		{&question.Question{Kind: question.KindText}, answered(`"main"`), "Answered", IconAnswer, RoleNeutral},
	} {
		if m := RecordMark(c.q, c.r); m != (Mark{c.label, c.icon, c.role}) {
			t.Errorf("%s %+v: %+v, want %q %s %s", c.q.Kind, c.r, m, c.label, c.icon, c.role)
		}
	}
}
