package question

import (
	"encoding/json"
	"testing"
)

// TestSelectBounds: max_select zero means every option; the answer's check
// refuses one pick fewer than the least and one more than the most.
func TestSelectBounds(t *testing.T) {
	t.Parallel()
	opts := []Option{{Label: "a"}, {Label: "b"}, {Label: "c"}}
	for _, c := range []struct {
		minS, maxS int
		lo, hi     int
	}{{0, 0, 0, 3}, {1, 0, 1, 3}, {0, 2, 0, 2}, {2, 2, 2, 2}} {
		q := Question{Kind: KindMultiChoice, Message: "m", Options: opts, MinSelect: c.minS, MaxSelect: c.maxS}
		lo, hi := q.SelectBounds()
		if lo != c.lo || hi != c.hi {
			t.Errorf("min %d max %d: bounds %d..%d, want %d..%d", c.minS, c.maxS, lo, hi, c.lo, c.hi)
		}
		labels := []string{"a", "b", "c"}
		for n := 0; n <= 3; n++ {
			raw, _ := json.Marshal(labels[:n])
			_, err := q.checkSelection(raw, "answer")
			if ok := n >= lo && n <= hi; ok != (err == nil) {
				t.Errorf("min %d max %d: %d picked: err %v", c.minS, c.maxS, n, err)
			}
		}
	}
}
