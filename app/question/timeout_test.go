package question

import (
	"math"
	"testing"
	"time"
)

// TestTimeoutSeconds: a number of seconds becomes a question's timeout
// held within MinTimeout..MaxTimeout, DefaultTimeout for none; one too large
// for a time.Duration is MaxTimeout, and a negative one DefaultTimeout,
// never a product wrapped around.
func TestTimeoutSeconds(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s    int64
		want time.Duration
	}{
		{0, DefaultTimeout}, {-5, DefaultTimeout}, {1, MinTimeout}, {10, 10 * time.Second}, {300, 5 * time.Minute},
		{86400, MaxTimeout}, {86401, MaxTimeout}, {math.MaxInt64 / int64(time.Second), MaxTimeout},
		{math.MaxInt64/int64(time.Second) + 1, MaxTimeout}, {math.MaxInt64, MaxTimeout}, {math.MinInt64, DefaultTimeout},
		{-(math.MaxInt64 / int64(time.Second)) - 1, DefaultTimeout}, // its product wraps around to a positive one
	} {
		if got := TimeoutSeconds(c.s); got != c.want {
			t.Errorf("TimeoutSeconds(%d) = %v, want %v", c.s, got, c.want)
		}
	}
	if ClampTimeout(0) != DefaultTimeout || ClampTimeout(time.Second) != MinTimeout || ClampTimeout(25*time.Hour) != MaxTimeout {
		t.Error("ClampTimeout does not hold a timeout within its limits")
	}
}
