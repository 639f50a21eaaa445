//go:build linux

package xvfbtest

// Helpers of the tests on real compositors (sway, mutter).

import (
	"fmt"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
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

// environWithout returns os.Environ() without the variables named, for a
// compositor that must not reach the session the tests run in.
func environWithout(names ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !slices.Contains(names, k) {
			env = append(env, kv)
		}
	}
	return env
}

// compositor is a Wayland compositor the test started (sway, mutter).
type compositor struct {
	exited   chan error // receives cmd.Wait's result once it has ended (put it back when read)
	xwayland int        // its XWayland's pid once known, waited for after it ends
}

// startCompositor starts cmd, named name in messages, whose output goes to
// logPath. When the test ends it stops cmd (SIGTERM, then SIGKILL after
// 10 s), logs logPath if the test failed, and then waits for c.xwayland to
// exit, if the caller has set it. It does not wait for cmd to serve.
func startCompositor(t *testing.T, name string, cmd *exec.Cmd, logPath string) *compositor {
	t.Helper()
	c := &compositor{}
	t.Cleanup(func() { // runs after the one below: cleanups run last first
		if c.xwayland != 0 {
			waitExited(t, c.xwayland, name+"'s XWayland")
		}
	})
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	c.exited = exited
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		var err error
		select {
		case err = <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			err = <-exited
		}
		if t.Failed() {
			b, _ := os.ReadFile(logPath)
			t.Logf("%s ended (%v); its log:\n%s", name, err, b)
		}
	})
	return c
}
