package present

import (
	"strings"
	"testing"

	"github.com/asktray/asktray/app/question"
)

func TestAfterwards(t *testing.T) {
	t.Parallel()
	if s, sh := Afterwards(nil); s != "" || sh != "" {
		t.Fatalf("nil: %q %q", s, sh)
	}
	if s, sh := Afterwards(&question.Result{Outcome: question.Declined}); s != "" || sh != "" {
		t.Fatalf("nothing learnt: %q %q", s, sh)
	}
	s, sh := Afterwards(&question.Result{Outcome: question.Declined, Afterwards: question.ReasonAgentProceeded})
	if !strings.Contains(s, "already proceeded") || !strings.Contains(s, "own terminal first") || sh != "agent had already proceeded" {
		t.Fatalf("proceeded: %q %q", s, sh)
	}
	if s, _ := Afterwards(&question.Result{Afterwards: "later_thing"}); s != "later_thing" {
		t.Fatalf("unknown: %q", s)
	}
	if a := AgentAsksToo("Claude Code"); !strings.HasPrefix(a, "Claude Code asks in its terminal too") || !strings.Contains(a, "changes nothing") {
		t.Fatalf("%q", a)
	}
	if a := AsksFromBackground("Codex"); !strings.HasPrefix(a, "Codex may no longer be waiting in its terminal") ||
		!strings.Contains(a, "background app server") || !strings.Contains(a, "still runs the command") {
		t.Fatalf("%q", a)
	}
	if w := WithdrawnWhy(&question.Result{Outcome: question.Withdrawn, DecidedBy: question.ByAgent, Reason: question.ReasonHostDisconnected}); w != "host disconnected" {
		t.Fatalf("host disconnected: %q", w)
	}
	for _, r := range []*question.Result{nil, {Outcome: question.Withdrawn}, {Outcome: question.Withdrawn, Reason: question.ReasonTimeout}} {
		if w := WithdrawnWhy(r); w != "" {
			t.Fatalf("%+v: %q", r, w)
		}
	}
}
