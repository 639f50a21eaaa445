package globalkey

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImports keeps the grab a leaf any UI package may use: the standard
// library, golang.org/x/sys (and Xlib through cgo) only.
func TestImports(t *testing.T) {
	t.Parallel()
	testkit.ImportsOnly(t, ".", "golang.org/x/sys")
}

// xvfb starts an X server of its own and returns its display.
func xvfb(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"Xvfb", "xdotool"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is missing; make deps installs it: %v", tool, err)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// -noreset: without it Xvfb resets when its last client leaves, and a
	// connection made during the reset fails ("cannot open the X display"),
	// which failed TestGrab's grab after Close once in a full make test.
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "640x480x24", "-nolisten", "tcp", "-noreset")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() })
	_ = r.SetReadDeadline(time.Now().Add(20 * time.Second))
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatalf("Xvfb did not say its display: %v", err)
	}
	return ":" + strings.TrimSpace(line)
}

// TestGrab: the chord pressed (xdotool, through XTEST, as a keyboard
// would) calls fn, also with Num Lock on; another chord does not; a second
// grab of the same chord is ErrTaken; after Close a new grab takes it.
func TestGrab(t *testing.T) {
	display := xvfb(t)
	var n atomic.Int32
	c := Chord{Ctrl: true, Alt: true, Key: "a"}
	g, err := Grab(display, c, func() { n.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	key := func(keys ...string) {
		t.Helper()
		cmd := exec.Command("xdotool", append([]string{"key"}, keys...)...)
		cmd.Env = append(os.Environ(), "DISPLAY="+display)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("xdotool key %v: %v %s", keys, err, out)
		}
	}
	waitCount := func(want int32) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); n.Load() != want; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d presses seen, want %d", n.Load(), want)
			}
		}
	}
	key("ctrl+alt+a")
	waitCount(1)
	key("Num_Lock", "ctrl+alt+a", "Num_Lock")
	waitCount(2)
	key("ctrl+alt+b", "ctrl+a", "alt+a")
	key("ctrl+alt+a") // a press after the others: when it is seen, they were not
	waitCount(3)
	if _, err := Grab(display, c, func() {}); !errors.Is(err, ErrTaken) {
		t.Fatalf("a second grab of %s: %v", c, err)
	}
	g.Close()
	g2, err := Grab(display, c, func() {})
	if err != nil {
		t.Fatalf("a grab after Close: %v", err)
	}
	g2.Close()
	if _, err := Grab(display, Chord{Ctrl: true, Key: "NoSuchKey"}, func() {}); err == nil || !strings.Contains(err.Error(), `"NoSuchKey"`) {
		t.Fatalf("an unknown key: %v", err)
	}
	if _, err := Grab(":4242", c, func() {}); err == nil || !strings.Contains(err.Error(), "cannot open the X display") {
		t.Fatalf("no display: %v", err)
	}
}
