package xvfbtest

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
)

// TestReusedWindowArmsAndAnswers: the second question's dialog comes up in
// the first one's window (same X window, hidden in between), centred like a
// new one, and behaves as a new one: keys typed before it arms do nothing,
// Escape after arming answers No to the second question, not the first.
func TestReusedWindowArmsAndAnswers(t *testing.T) {
	d := newDesktop(t)
	s := d.client(t, "e2e-agent")
	var ids []string
	var centres [][2]int
	// The second message is taller, so a window left where it was would be off centre.
	for i, q := range []string{"Deploy build 41?", "Deploy build 42?\n\n- migrates the schema\n- restarts the workers\n- clears the cache"} {
		res := testkit.CallToolAsync(s, "ask_confirm", map[string]any{"question": q})
		w := d.waitWindow(t, "e2e-agent asks", 20*time.Second)
		ids = append(ids, w)
		d.x(t, "xdotool", "windowfocus", "--sync", w)
		d.x(t, "xdotool", "key", "--clearmodifiers", "Escape")
		time.Sleep(100 * time.Millisecond)
		if out, _ := d.cli("pending"); !strings.Contains(out, "Deploy build 4"+strconv.Itoa(i+1)) {
			t.Fatalf("dialog %d: an early Escape answered:\n%s", i+1, out)
		}
		d.waitArmedLine(t, i+1) // one arming per dialog: the early Escape restarted it
		centres = append(centres, centre(t, d.x(t, "xdotool", "getwindowgeometry", "--shell", w)))
		d.x(t, "xdotool", "windowfocus", "--sync", w)
		d.x(t, "xdotool", "key", "--clearmodifiers", "Escape")
		if got := testkit.WaitToolResult(t, res, 30*time.Second); got["status"] != "answered" || got["confirmed"] != false {
			t.Fatalf("dialog %d: client got %v", i+1, got)
		}
		deadline := time.Now().Add(5 * time.Second)
		for !d.windowGone("e2e-agent asks") {
			if time.Now().After(deadline) {
				t.Fatalf("dialog %d stayed open after the answer", i+1)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if ids[0] != ids[1] {
		t.Fatalf("the second dialog got a new window (%s, then %s)", ids[0], ids[1])
	}
	if dx, dy := centres[1][0]-centres[0][0], centres[1][1]-centres[0][1]; dx*dx+dy*dy > 4 {
		t.Fatalf("the reused window is not centred like a new one: centres %v", centres)
	}
}

// centre returns the centre of a window from xdotool getwindowgeometry --shell.
func centre(t *testing.T, shell string) [2]int {
	t.Helper()
	v := map[string]int{}
	for l := range strings.SplitSeq(shell, "\n") {
		if k, n, ok := strings.Cut(l, "="); ok {
			v[k], _ = strconv.Atoi(n)
		}
	}
	if v["WIDTH"] == 0 || v["HEIGHT"] == 0 {
		t.Fatalf("no geometry in %q", shell)
	}
	return [2]int{v["X"] + v["WIDTH"]/2, v["Y"] + v["HEIGHT"]/2}
}
