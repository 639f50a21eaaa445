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
