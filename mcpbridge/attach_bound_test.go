package mcpbridge

import (
	"fmt"
	"testing"
)

// TestAttachments_Bounded: a busy agent's 20,000 questions, each
// delivered, leave at most keepMost remembered (before, all 20,000 stayed
// for an hour); the newest are still known and the oldest are not; a
// question not delivered (still open, or answered after its asker left)
// is kept however many come after it, and can still be found and owned.
func TestAttachments_Bounded(t *testing.T) {
	a := newAttachments()
	busy := attachKey{owner: "busy-agent", fp: "npm test"}
	open := attachKey{owner: "other", fp: "deploy"}
	a.add(open, "open")
	for i := range 20000 {
		id := fmt.Sprintf("q%d", i)
		a.add(busy, id)
		a.delivered(id, true)
	}
	if n := len(a.owners); n > keepMost {
		t.Fatalf("%d questions remembered, want at most %d", n, keepMost)
	}
	for name, n := range map[string]int{"when": len(a.when), "sent": len(a.sent), "grants": len(a.grants),
		"byFP": len(a.byFP[busy]) + len(a.byFP[open])} {
		if n > keepMost {
			t.Errorf("%s holds %d, want at most %d", name, n, keepMost)
		}
	}
	if len(a.order) > 2*keepMost {
		t.Errorf("the order holds %d ids", len(a.order))
	}
	if !a.asked("q19999") || !a.owns("q19999", "busy-agent") {
		t.Error("the newest question is forgotten")
	}
	if a.asked("q0") {
		t.Error("the oldest delivered question is still remembered")
	}
	if first := a.delivered("q19999", true); first {
		t.Error("the newest grant would be delivered twice")
	}
	if !a.owns("open", "other") || len(a.byFP[open]) != 1 {
		t.Error("the question not delivered was forgotten")
	}
}
