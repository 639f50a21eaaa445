//go:build linux

package xvfbtest

// Helpers of the tests on real compositors (sway, mutter).

import (
	"fmt"
	"image/color"
	"image/png"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// xwaylandOf returns the pid of the XWayland serving display (":N"), or
// 0: the process whose command is Xwayland with display among its
// arguments. (wlroots starts it through a double fork, so it is no child
// of sway's.)
func xwaylandOf(display string) int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		if len(args) > 1 && strings.HasSuffix(args[0], "Xwayland") && slices.Contains(args[1:], display) {
			return pid
		}
	}
	return 0
}

// waitExited waits until process pid has ended (gone, or a zombie: its
// sockets are closed either way). A compositor's XWayland outlives the
// compositor by a moment and, ending, removes its display's socket file:
// an X server the next test starts on the same display number must not
// lose its socket to it.
func waitExited(t *testing.T, pid int, what string) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if _, rest, ok := strings.Cut(string(b), ") "); err != nil || !ok || strings.HasPrefix(rest, "Z") {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%s (pid %d) still runs 15 s after its compositor ended", what, pid)
			return
		}
	}
}

// countColours counts the distinct colours of the PNG at path.
func countColours(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[color.RGBA]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), uint8(a >> 8)}] = true
		}
	}
	return len(seen)
}
