package question

import (
	"testing"
	"time"
)

// TestClampArmDelay: zero or less is the default, anything shorter than
// the floor is raised to it, and the rest is kept.
func TestClampArmDelay(t *testing.T) {
	t.Parallel()
	for in, want := range map[time.Duration]time.Duration{
		-time.Second:            DefaultArmDelay,
		0:                       DefaultArmDelay,
		time.Millisecond:        MinArmDelay,
		MinArmDelay - 1:         MinArmDelay,
		MinArmDelay:             MinArmDelay,
		time.Second:             time.Second,
		MaxArmDelay + time.Hour: MaxArmDelay + time.Hour,
	} {
		if got := ClampArmDelay(in); got != want {
			t.Errorf("ClampArmDelay(%v) = %v, want %v", in, got, want)
		}
	}
	if MinArmDelay > DefaultArmDelay || DefaultArmDelay > MaxArmDelay {
		t.Errorf("default %v outside %v..%v", DefaultArmDelay, MinArmDelay, MaxArmDelay)
	}
}
