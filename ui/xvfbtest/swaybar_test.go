//go:build linux

package xvfbtest

import (
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSwaybarClickOpensStatus is issue 37 item 2 with the real swaybar:
// sway 1.7's bar, its tray on (swaybar is the StatusNotifierWatcher and
// host), shows the app's icon; a left click on it (Activate) and a right
// click (ContextMenu), made with the virtual pointer, open the status
// window. swaybar runs as the test's user with the test's session bus (a
// bar sway started would run as sway's user, whom the bus refuses).
// ASKTRAY_SCREENSHOTS=DIR keeps a screenshot of the bar and the window.
func TestSwaybarClickOpensStatus(t *testing.T) {
	need(t, "swaybar")
	d, s := newSwaySession(t, false, "resolution 1280x720\nbar {\n\tid asktray\n\tposition top\n\tswaybar_command true\n}")
	bar := exec.Command("swaybar", "--socket", envValue(s.env, "SWAYSOCK"), "--bar_id", "asktray")
	bar.Env = d.env
	var barLog strings.Builder
	bar.Stdout, bar.Stderr = &barLog, &barLog
	if err := bar.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = bar.Process.Kill()
		_ = bar.Wait()
		if t.Failed() {
			t.Logf("swaybar's log:\n%s", barLog.String())
		}
	})
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	d.waitLog(t, `msg="a tray host is there: the tray icon shows"`)
	x, y := s.waitTrayIcon(t)
	for i, button := range []uint32{btnLeft, btnRight} {
		if err := s.input.clickButton(x, y, 1280, 720, button); err != nil {
			t.Fatal(err)
		}
		v := s.waitView(t, "Asktray")
		s.waitPainted(t, v)
		if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" && i == 0 {
			s.screenshot(t, filepath.Join(dir, "swaybar-status.png"))
		}
		d.x(t, "xdotool", "windowunmap", "--sync", strconv.FormatInt(v.Window, 10)) // as Hide does; the next click must show it again
		s.waitGone(t, "Asktray")
	}
}

// waitLog waits until the app's log has a line containing want.
func (d *desktop) waitLog(t *testing.T, want string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		b, _ := os.ReadFile(filepath.Join(d.dataDir, "log", "asktray.log"))
		if strings.Contains(string(b), want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the app's log never said %s:\n%s", want, b)
		}
	}
}

// waitTrayIcon waits until swaybar, at the top of the 1280×720 output,
// draws something at its right end, where its tray is (the bar has no
// status line and no workspace buttons there), and returns the middle of
// what it drew.
func (s *swaySession) waitTrayIcon(t *testing.T) (x, y int) {
	t.Helper()
	shot := filepath.Join(t.TempDir(), "bar.png")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		s.screenshot(t, shot)
		if box, ok := drawnAt(t, shot, image.Rect(1000, 0, 1280, 20)); ok {
			return (box.Min.X + box.Max.X) / 2, (box.Min.Y + box.Max.Y) / 2
		}
		if time.Now().After(deadline) {
			t.Fatal("swaybar drew no tray icon within 30 s")
		}
	}
}

// drawnAt returns the bounds of the pixels in area of the PNG at path that
// are not the bar's black.
func drawnAt(t *testing.T, path string, area image.Rectangle) (image.Rectangle, bool) {
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
	var box image.Rectangle
	found := false
	for y := area.Min.Y; y < area.Max.Y; y++ {
		for x := area.Min.X; x < area.Max.X; x++ {
			if r, g, b, _ := img.At(x, y).RGBA(); r+g+b > 3*0x2000 {
				p := image.Rect(x, y, x+1, y+1)
				if !found {
					box, found = p, true
				} else {
					box = box.Union(p)
				}
			}
		}
	}
	return box, found
}
