package xvfbtest

import (
	"strconv"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
)

// TestDialogMovesByItsHeadlineWithoutWindowManager: on a bare X server no
// title bar frames a dialog, so a person drags it by its headline; the
// window follows the pointer (xdotool's real button and motion events),
// keeps its size, and the question is still answered from it afterwards.
func TestDialogMovesByItsHeadlineWithoutWindowManager(t *testing.T) {
	d := newDesktop(t)
	s := d.client(t, "e2e-agent")
	res := testkit.CallToolAsync(s, "ask_confirm", map[string]any{"question": "Run the migration now?"})
	w := d.waitWindow(t, "e2e-agent asks", 20*time.Second)
	time.Sleep(700 * time.Millisecond) // let it lay out
	x, y, width, h := d.geometry(t, w)
	// The headline is the first line, at the top left.
	grabX, grabY := x+60, y+22
	d.x(t, "xdotool", "mousemove", "--sync", strconv.Itoa(grabX), strconv.Itoa(grabY), "mousedown", "1")
	for i := 1; i <= 10; i++ {
		d.x(t, "xdotool", "mousemove", "--sync", strconv.Itoa(grabX+15*i), strconv.Itoa(grabY+10*i))
		time.Sleep(30 * time.Millisecond)
	}
	d.x(t, "xdotool", "mouseup", "1")
	time.Sleep(300 * time.Millisecond)
	nx, ny, nw, nh := d.geometry(t, w)
	if dx, dy := nx-x, ny-y; dx < 140 || dx > 160 || dy < 90 || dy > 110 {
		t.Fatalf("dragged by (150, 100), the window moved from (%d, %d) to (%d, %d)", x, y, nx, ny)
	}
	if nw != width || nh != h {
		t.Fatalf("the window changed size: %dx%d to %dx%d", width, h, nw, nh)
	}
	d.x(t, "xdotool", "windowfocus", "--sync", w)
	d.waitArmedLine(t, 1)
	d.x(t, "xdotool", "windowfocus", "--sync", w)
	d.x(t, "xdotool", "key", "--clearmodifiers", "Return")
	if got := testkit.WaitToolResult(t, res, 30*time.Second); got["via"] != "dialog" {
		t.Fatalf("client got %v", got)
	}
}
