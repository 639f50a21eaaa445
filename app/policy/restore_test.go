package policy

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

// TestRestore: a removed rule put back is the same rule (its id, Created
// and fields), in its place among the rules by age, saved; an id already
// there or a rule without one is refused naming it.
func TestRestore(t *testing.T) {
	t.Parallel()
	p, path := openTemp(t)
	clock := t0
	p.now = func() time.Time { clock = clock.Add(time.Minute); return clock }
	var added []Rule
	for _, a := range []string{"permission_prompt:Bash", "permission_prompt:Edit", "permission_prompt:Write"} {
		r, err := p.Add(Rule{Client: "claude-code", Action: a, Decision: Allow, Scope: ScopeAlways, Note: a})
		if err != nil {
			t.Fatal(err)
		}
		added = append(added, r)
	}
	if err := p.Remove(added[1].ID); err != nil {
		t.Fatal(err)
	}
	if err := p.Restore(added[1]); err != nil {
		t.Fatal(err)
	}
	again, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, pol := range []*Policy{p, again} {
		got := pol.Rules()
		if len(got) != 3 || got[1] != added[1] || got[0].ID != added[0].ID || got[2].ID != added[2].ID {
			t.Fatalf("restored rules %+v, want %+v", got, added)
		}
	}
	if err := p.Restore(added[1]); !errors.Is(err, question.ErrInvalid) || !strings.Contains(err.Error(), added[1].ID) {
		t.Errorf("restoring a rule that is there: %v", err)
	}
	noID := added[0]
	noID.ID = ""
	if err := p.Restore(noID); !errors.Is(err, question.ErrInvalid) || !strings.HasPrefix(err.Error(), "id:") {
		t.Errorf("restoring a rule without an id: %v", err)
	}
}
