//go:build linux

package xvfbtest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
)

// swaySession is a headless sway compositor with XWayland: Debian 12's sway
// 1.7 on wlroots 0.15, its headless backend (no GPU, the pixman renderer) and
// one virtual output. The app runs on it as on a person's sway desktop: its
// X11 build under XWayland, with WAYLAND_DISPLAY, SWAYSOCK and
// XDG_CURRENT_DESKTOP=sway set as sway's session sets them. Input goes
// through the compositor: keys and clicks from a virtual keyboard and a
// virtual pointer (wlInput).
type swaySession struct {
	runtime string   // XDG_RUNTIME_DIR, with sway's sockets
	env     []string // the session's environment, for Wayland clients
	log     string   // sway's stdout and stderr
	input   *wlInput // a keyboard and a mouse in sway's seat
}

// needSway fails the test when sway or its tools are missing in CI
// (.ci/deps.sh installs them), and skips it elsewhere.
func needSway(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"sway", "swaymsg", "Xwayland", "grim", "xhost", "xrandr", "xdpyinfo", "xkbcomp"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "" {
				t.Skipf("%s is missing (make deps installs it; CI runs this test)", tool)
			}
			t.Fatalf("%s is missing; .ci/deps.sh installs it: %v", tool, err)
		}
	}
}

// newSwaySession starts sway with one headless output (outputConf is its
// sway output settings, e.g. "resolution 1280x720 scale 1.5"), a private
// session bus with a fake notification server, and a tray host when tray is
// true (without one it is sway with no bar); the app is not started.
func newSwaySession(t *testing.T, tray bool, outputConf string) (*desktop, *swaySession) {
	t.Helper()
	needSway(t)
	need(t, "dbus-daemon", "xdotool")
	s := startSway(t, "output HEADLESS-1 position 0,0 "+outputConf)
	d := &desktop{bin: testkit.Binary(t), dataDir: filepath.Join(t.TempDir(), "data")}
	bus := testkit.StartBus(t)
	d.notes = noteLog{testkit.StartFakeNotifications(t, bus)}
	d.env = append(s.env, "DBUS_SESSION_BUS_ADDRESS="+bus, "LANG=C.UTF-8", "LANGUAGE=en")
	if tray {
		d.watcher = startFakeWatcher(t, d.env)
	}
	return d, s
}

// asSwayUser makes cmd run as the user sway runs as: sway 1.7 refuses to
// run as root ("Unable to drop root"), so under root (as in CI) that is
// nobody; otherwise the test's own user.
func asSwayUser(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if os.Geteuid() != 0 {
		return
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Fatalf("sway cannot run as root and there is no user nobody: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
}

// startSway starts sway with config conf (no bar: a bar is a tray host)
// and waits until it serves its IPC and XWayland takes connections.
func startSway(t *testing.T, conf string) *swaySession {
	t.Helper()
	// Not t.TempDir(): its parent is root's alone, and sway (as nobody)
	// must reach its own runtime dir.
	runtime, err := os.MkdirTemp("", "asktray-sway-") //nolint:usetesting // see above
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(runtime) })
	s := &swaySession{runtime: runtime, log: filepath.Join(t.TempDir(), "sway.log")}
	conf += "\nxwayland enable\nfont pango:DejaVu Sans 9\n"
	if err := os.WriteFile(filepath.Join(runtime, "sway.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	logf, err := os.Create(s.log)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	cmd := exec.Command("sway", "--config", filepath.Join(runtime, "sway.conf"))
	asSwayUser(t, cmd)
	if cmd.SysProcAttr != nil {
		if err := os.Chown(runtime, int(cmd.SysProcAttr.Credential.Uid), int(cmd.SysProcAttr.Credential.Gid)); err != nil {
			t.Fatal(err)
		}
	}
	base := environWithout("DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR")
	cmd.Env = append(base, "XDG_RUNTIME_DIR="+runtime, "HOME="+runtime,
		"WLR_BACKENDS=headless", "WLR_LIBINPUT_NO_DEVICES=1", "WLR_RENDERER=pixman")
	cmd.Stdout, cmd.Stderr = logf, logf
	c := startCompositor(t, "sway", cmd, s.log)
	exited := c.exited
	sock := s.waitIPC(t, exited)
	s.env = append(base, "XDG_RUNTIME_DIR="+runtime, "SWAYSOCK="+sock, "WAYLAND_DISPLAY=wayland-1",
		"XDG_CURRENT_DESKTOP=sway", "XDG_SESSION_TYPE=wayland")
	s.env = append(s.env, "DISPLAY="+s.xDisplay(t))
	if c.xwayland = xwaylandOf(envValue(s.env, "DISPLAY")); c.xwayland == 0 {
		t.Fatal("XWayland answers but no Xwayland process serves its display")
	}
	keymap := exec.Command("xkbcomp", "-xkb", envValue(s.env, "DISPLAY"), "-")
	km, err := keymap.Output()
	if err != nil {
		t.Fatalf("xkbcomp: the X server's keymap: %v", err)
	}
	in, err := dialWaylandInput(filepath.Join(runtime, "wayland-1"), km)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(in.close)
	s.input = in
	return s
}

// waitIPC waits until sway serves its IPC socket and returns its path;
// exited is sway's end.
func (s *swaySession) waitIPC(t *testing.T, exited chan error) string {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		socks, _ := filepath.Glob(filepath.Join(s.runtime, "sway-ipc.*.sock"))
		if len(socks) > 0 && exec.Command("swaymsg", "-s", socks[0], "-t", "get_version").Run() == nil {
			return socks[0]
		}
		select {
		case err := <-exited:
			exited <- err
			b, _ := os.ReadFile(s.log)
			t.Fatalf("sway exited: %v\n%s", err, b)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("sway did not serve its IPC within 60 s")
		}
	}
}

// xDisplay asks sway for the DISPLAY of its XWayland (sway sets it in the
// environment of what it runs), lets root's clients in when sway runs as
// nobody (XWayland 22 takes only its own user's connections), and waits
// until XWayland answers.
func (s *swaySession) xDisplay(t *testing.T) string {
	t.Helper()
	file := filepath.Join(s.runtime, "display")
	s.msg(t, "exec", `printf %s "$DISPLAY" >"$XDG_RUNTIME_DIR/display.new" && mv "$XDG_RUNTIME_DIR/display.new" "$XDG_RUNTIME_DIR/display"`)
	var display string
	for deadline := time.Now().Add(20 * time.Second); display == ""; time.Sleep(50 * time.Millisecond) {
		b, _ := os.ReadFile(file)
		display = string(b)
		if display == "" && time.Now().After(deadline) {
			t.Fatal("sway did not say its XWayland DISPLAY within 20 s")
		}
	}
	if os.Geteuid() == 0 {
		xhost := exec.Command("xhost", "+si:localuser:root")
		xhost.Env = append(s.env, "DISPLAY="+display)
		asSwayUser(t, xhost)
		if out, err := xhost.CombinedOutput(); err != nil {
			t.Fatalf("xhost: %v\n%s", err, out)
		}
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if exec.Command("xdpyinfo", "-display", display).Run() == nil {
			return display
		}
		if time.Now().After(deadline) {
			t.Fatalf("XWayland %s did not answer within 30 s", display)
		}
	}
}

// msg runs swaymsg with args and returns its output.
func (s *swaySession) msg(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("swaymsg", args...)
	cmd.Env = s.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("swaymsg %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// press presses and releases the key of evdev code (keyEnter, keyEsc)
// through sway: the window with sway's keyboard focus gets it.
func (s *swaySession) press(t *testing.T, code uint32) {
	t.Helper()
	if err := s.input.key(code, false); err != nil {
		t.Fatal(err)
	}
}

// typeText types text through sway, a key every 60 ms.
func (s *swaySession) typeText(t *testing.T, text string) {
	t.Helper()
	if err := s.input.typeText(text, 60*time.Millisecond); err != nil {
		t.Fatal(err)
	}
}

// screenshot saves the layout, or only the named output, as a PNG with
// grim (wlr-screencopy).
func (s *swaySession) screenshot(t *testing.T, path string, output ...string) {
	t.Helper()
	args := []string{path}
	if len(output) > 0 {
		args = []string{"-o", output[0], path}
	}
	cmd := exec.Command("grim", args...)
	cmd.Env = s.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("grim: %v\n%s", err, out)
	}
}

// waitPainted waits until the window v shows more than a blank rectangle:
// at least 20 colours in its own area, as sway draws it (grim). A window
// that stays blank (issue 37 item 4: the status window opened as a grey
// rectangle on sway until its layout changed) fails the test.
func (s *swaySession) waitPainted(t *testing.T, v swayView) {
	t.Helper()
	c := v.content()
	shot := filepath.Join(t.TempDir(), "window.png")
	colours := 0
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		cmd := exec.Command("grim", "-g", fmt.Sprintf("%d,%d %dx%d", c.X, c.Y, c.Width, c.Height), shot)
		cmd.Env = s.env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("grim: %v\n%s", err, out)
		}
		if colours = countColours(t, shot); colours >= 20 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q stayed blank for 20 s (%d colours at %v)", v.Name, colours, c)
		}
	}
}

// swayNode is the part of sway's layout tree (get_tree) the tests read.
type swayNode struct {
	Type     string     `json:"type"`
	Name     string     `json:"name"`
	Shell    string     `json:"shell"`
	Window   int64      `json:"window"` // the X11 window of an XWayland view
	Focused  bool       `json:"focused"`
	Rect     swayRect   `json:"rect"`        // with its border, below its title bar
	Content  swayRect   `json:"window_rect"` // the window's own, relative to Rect
	Deco     swayRect   `json:"deco_rect"`   // its title bar, above Rect
	Nodes    []swayNode `json:"nodes"`
	Floating []swayNode `json:"floating_nodes"`
}

type swayRect struct{ X, Y, Width, Height int }

// swayView is a window as sway holds it.
type swayView struct {
	swayNode
	floating bool
	output   swayRect // the output it is on, in layout coordinates
}

func (r swayRect) String() string {
	return fmt.Sprintf("%d,%d %d×%d", r.X, r.Y, r.Width, r.Height)
}

// content is the window's own area (without sway's title bar and border)
// in layout coordinates.
func (v swayView) content() swayRect {
	c := v.Content
	c.X += v.Rect.X
	c.Y += v.Rect.Y
	return c
}

// frame is the window with its title bar and border, in layout
// coordinates.
func (v swayView) frame() swayRect {
	f := v.Rect
	f.Y -= v.Deco.Height
	f.Height += v.Deco.Height
	return f
}

// contains reports whether o lies wholly inside r.
func (r swayRect) contains(o swayRect) bool {
	return o.X >= r.X && o.Y >= r.Y && o.X+o.Width <= r.X+r.Width && o.Y+o.Height <= r.Y+r.Height
}

// views lists the windows in sway's tree and the one with keyboard focus.
func (s *swaySession) views(t *testing.T) (all []swayView, focused *swayView) {
	t.Helper()
	var root swayNode
	if err := json.Unmarshal([]byte(s.msg(t, "-t", "get_tree")), &root); err != nil {
		t.Fatal(err)
	}
	var walk func(n swayNode, floating bool, output swayRect)
	walk = func(n swayNode, floating bool, output swayRect) {
		if n.Type == "output" {
			output = n.Rect
		}
		if (n.Type == "con" || n.Type == "floating_con") && n.Shell != "" {
			all = append(all, swayView{n, floating, output})
		}
		for _, c := range n.Nodes {
			walk(c, floating, output)
		}
		for _, c := range n.Floating {
			walk(c, true, output)
		}
	}
	walk(root, false, swayRect{})
	for i := range all {
		if all[i].Focused {
			focused = &all[i]
		}
	}
	return all, focused
}

// waitFocus waits until the window titled title has sway's keyboard focus.
func (s *swaySession) waitFocus(t *testing.T, title string) swayView {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		all, f := s.views(t)
		if f != nil && f.Name == title {
			return *f
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q did not get sway's keyboard focus within 30 s; sway holds %+v", title, all)
		}
	}
}

// waitView waits until sway holds a window titled title.
func (s *swaySession) waitView(t *testing.T, title string) swayView {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		all, _ := s.views(t)
		for _, v := range all {
			if v.Name == title {
				return v
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("sway holds no %q after 30 s: %+v", title, all)
		}
	}
}

// waitGone waits until sway holds no window titled title.
func (s *swaySession) waitGone(t *testing.T, title string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		all, _ := s.views(t)
		gone := true
		for _, v := range all {
			gone = gone && v.Name != title
		}
		if gone {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q stayed on screen: %+v", title, all)
		}
	}
}

// click clicks at x, y (layout coordinates) with the virtual pointer.
func (s *swaySession) click(t *testing.T, x, y int) {
	t.Helper()
	var root swayNode // its rect is the layout's
	if err := json.Unmarshal([]byte(s.msg(t, "-t", "get_tree")), &root); err != nil {
		t.Fatal(err)
	}
	if err := s.input.click(x, y, root.Rect.Width, root.Rect.Height); err != nil {
		t.Fatal(err)
	}
}
