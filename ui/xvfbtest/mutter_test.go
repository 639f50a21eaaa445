//go:build linux

package xvfbtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/asktray/asktray/internal/testkit"
)

// newMutterSession starts GNOME's compositor, Debian 12's mutter 43
// (--headless --wayland, one virtual monitor of 1280×720, no GPU), with
// XWayland, on a private session bus with a fake notification server and,
// when tray is true, a tray host (without one it is stock GNOME without
// the AppIndicator extension); the app is not started. The app's X11 build
// runs under mutter's XWayland, with XDG_CURRENT_DESKTOP=GNOME.
func newMutterSession(t *testing.T, tray bool) *desktop {
	t.Helper()
	for _, tool := range []string{"mutter", "Xwayland", "xdpyinfo", "xwininfo", "import"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "" {
				t.Skipf("%s is missing (make deps installs it; CI runs this test)", tool)
			}
			t.Fatalf("%s is missing; .ci/deps.sh installs it: %v", tool, err)
		}
	}
	need(t, "dbus-daemon", "xdotool")
	d := &desktop{bin: testkit.Binary(t), dataDir: filepath.Join(t.TempDir(), "data")}
	bus := testkit.StartBus(t)
	runtime := t.TempDir()
	logPath := filepath.Join(t.TempDir(), "mutter.log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	base := append(environWithout("DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "XAUTHORITY"),
		"XDG_RUNTIME_DIR="+runtime, "DBUS_SESSION_BUS_ADDRESS="+bus)
	cmd := exec.Command("mutter", "--headless", "--wayland", "--virtual-monitor", "1280x720", "--wayland-display", "wayland-asktray")
	cmd.Env = base
	cmd.Stdout, cmd.Stderr = logf, logf
	c := startCompositor(t, "mutter", cmd, logPath)
	exited := c.exited
	display, auth := waitMutterX(t, logPath, runtime, exited)
	if c.xwayland = xwaylandOf(display); c.xwayland == 0 {
		t.Fatal("XWayland answers but no Xwayland process serves its display")
	}
	d.env = append(base, "DISPLAY="+display, "XAUTHORITY="+auth, "WAYLAND_DISPLAY=wayland-asktray",
		"XDG_CURRENT_DESKTOP=GNOME", "XDG_SESSION_TYPE=wayland", "LANG=C.UTF-8", "LANGUAGE=en")
	d.notes = noteLog{testkit.StartFakeNotifications(t, bus)}
	if tray {
		d.watcher = startFakeWatcher(t, d.env)
	}
	return d
}

// waitMutterX waits until mutter says which X display its XWayland serves
// ("Using public X11 display :N"), writes its Xauthority file, and XWayland
// answers; exited is mutter's end.
func waitMutterX(t *testing.T, logPath, runtime string, exited chan error) (display, auth string) {
	t.Helper()
	said := regexp.MustCompile(`Using public X11 display (:\d+)`)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		b, _ := os.ReadFile(logPath)
		auths, _ := filepath.Glob(filepath.Join(runtime, ".mutter-Xwaylandauth.*"))
		if m := said.FindSubmatch(b); m != nil && len(auths) > 0 {
			display, auth = string(m[1]), auths[0]
			x := exec.Command("xdpyinfo", "-display", display)
			x.Env = append(os.Environ(), "XAUTHORITY="+auth)
			if x.Run() == nil {
				return display, auth
			}
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("mutter exited: %v\n%s", err, b)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("mutter's XWayland did not answer within 60 s:\n%s", b)
		}
	}
}

// mutterKeys is a remote desktop session of mutter's
// (org.gnome.Mutter.RemoteDesktop, which GNOME's screen sharing uses): keys
// sent through it come from mutter's own virtual keyboard, to the window
// with mutter's keyboard focus. mutter ends the session when its D-Bus
// connection closes, so it keeps one for the test.
type mutterKeys struct{ session dbus.BusObject }

func startMutterKeys(t *testing.T, d *desktop) *mutterKeys {
	t.Helper()
	conn, err := dbus.Connect(envValue(d.env, "DBUS_SESSION_BUS_ADDRESS"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	var path dbus.ObjectPath
	if err := conn.Object("org.gnome.Mutter.RemoteDesktop", "/org/gnome/Mutter/RemoteDesktop").
		Call("org.gnome.Mutter.RemoteDesktop.CreateSession", 0).Store(&path); err != nil {
		t.Fatalf("mutter's remote desktop: %v", err)
	}
	k := &mutterKeys{conn.Object("org.gnome.Mutter.RemoteDesktop", path)}
	if call := k.session.Call("org.gnome.Mutter.RemoteDesktop.Session.Start", 0); call.Err != nil {
		t.Fatalf("start mutter's remote desktop session: %v", call.Err)
	}
	// A headless mutter has no keyboard until the session's first key
	// makes its virtual one, and the keys that come while the clients take
	// the new keyboard up are lost (seen: "abc" typed arrived as "c"); a
	// Shift pressed now, before any client, makes the keyboard a real one
	// has from the start.
	k.press(t, keysymShiftL)
	return k
}

// press presses and releases the key of X keysym (0xff0d is Return). It
// blocks until mutter has taken both.
func (k *mutterKeys) press(t *testing.T, keysym uint32) {
	t.Helper()
	for _, down := range []bool{true, false} {
		if call := k.session.Call("org.gnome.Mutter.RemoteDesktop.Session.NotifyKeyboardKeysym", 0, keysym, down); call.Err != nil {
			t.Fatalf("key %#x: %v", keysym, call.Err)
		}
	}
}

const (
	keysymReturn = 0xff0d
	keysymShiftL = 0xffe1
)

// frameOf returns the geometry of the frame mutter put around X window w
// (its parent, with the title bar mutter draws), and its id.
func (d *desktop) frameOf(t *testing.T, w string) (id string, x, y, width, height int) {
	t.Helper()
	tree := d.x(t, "xwininfo", "-tree", "-id", w)
	m := regexp.MustCompile(`Parent window id: (0x[0-9a-f]+)`).FindStringSubmatch(tree)
	if m == nil {
		t.Fatalf("no parent of %s:\n%s", w, tree)
	}
	info := d.x(t, "xwininfo", "-id", m[1])
	field := func(name string) int {
		f := regexp.MustCompile(name + `:\s+(-?\d+)`).FindStringSubmatch(info)
		if f == nil {
			t.Fatalf("no %s in:\n%s", name, info)
		}
		v, _ := strconv.Atoi(f[1])
		return v
	}
	return m[1], field("Absolute upper-left X"), field("Absolute upper-left Y"), field("Width"), field("Height")
}

// TestMutterDialogKeyboard: on GNOME's compositor (mutter 43, headless,
// XWayland) a question's dialog appears typed as a dialog, framed by mutter
// and wholly on the 1280×720 monitor, and takes the keyboard; a Return sent
// through mutter's remote desktop before it armed answers nothing, one
// after answers Yes. Clicks are not tested here: XTEST clicks (xdotool)
// did not reach the app's window under mutter's XWayland 22.1, and neither
// did the remote desktop's relative moves and button (its absolute moves need a screen cast stream,
// which needs PipeWire). ASKTRAY_SCREENSHOTS=DIR keeps the dialog in its
// frame (nothing here captures mutter's screen: no PipeWire, no GNOME Shell).
func TestMutterDialogKeyboard(t *testing.T) {
	d := newMutterSession(t, true)
	keys := startMutterKeys(t, d)
	d.armDelay(t, 2500)
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	c := d.client(t, "e2e-agent")
	res := testkit.CallToolAsync(c, "ask_confirm", map[string]any{"question": "Run the **database migration** now?"})
	w := d.waitFocused(t, "e2e-agent asks")
	keys.press(t, keysymReturn)
	if l := d.waitArmedLine(t, 1); strings.Contains(l, "arming_restarts=0") || sinceShown(t, l) < 2500 {
		t.Fatalf("the early Return did not reach the dialog, or it armed before 2.5 s: %s", l)
	}
	select {
	case got := <-res:
		t.Fatalf("a Return before the dialog armed answered it: %v", got)
	default:
	}
	if typ := d.x(t, "xprop", "-id", w, "_NET_WM_WINDOW_TYPE"); !strings.Contains(typ, "_NET_WM_WINDOW_TYPE_DIALOG") {
		t.Errorf("window type %q", typ)
	}
	frame, x, y, width, height := d.frameOf(t, w)
	if x < 0 || y < 0 || x+width > 1280 || y+height > 720 {
		t.Errorf("the dialog in its frame (%d,%d %d×%d) is not wholly on the 1280×720 monitor", x, y, width, height)
	}
	if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" {
		time.Sleep(time.Second) // let it paint the armed buttons
		d.x(t, "import", "-window", frame, filepath.Join(dir, "mutter-dialog.png"))
	}
	keys.press(t, keysymReturn)
	if got := testkit.WaitToolResult(t, res, 30*time.Second); got["confirmed"] != true || got["via"] != "dialog" {
		t.Fatalf("Return once armed: client got %v", got)
	}
	if l := d.answeredLine(t, 1); !strings.Contains(l, "control=Yes input=key:") {
		t.Fatalf("not answered by a key: %s", l)
	}
}

// TestMutterNoTrayHostTellsOnce: on GNOME's compositor with no tray host
// (stock GNOME without the AppIndicator extension) the status window opens
// by itself and one notification names the extension.
// ASKTRAY_SCREENSHOTS=DIR keeps the status window in its frame.
func TestMutterNoTrayHostTellsOnce(t *testing.T) {
	d := newMutterSession(t, false)
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	w := d.waitWindow(t, "Asktray", 30*time.Second)
	var told []string
	for deadline := time.Now().Add(20 * time.Second); len(told) == 0; time.Sleep(50 * time.Millisecond) {
		for _, n := range d.notes.notes() {
			if n.Summary == "Asktray has no tray icon here" {
				told = append(told, n.Body)
			}
		}
		if len(told) == 0 && time.Now().After(deadline) {
			t.Fatalf("no notification of the missing tray: %+v", d.notes.notes())
		}
	}
	if len(told) != 1 || !strings.Contains(told[0], "AppIndicator and KStatusNotifierItem Support") {
		t.Fatalf("told %q", told)
	}
	if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" {
		time.Sleep(time.Second) // let it paint
		frame, _, _, _, _ := d.frameOf(t, w)
		d.x(t, "import", "-window", frame, filepath.Join(dir, "mutter-no-tray.png"))
	}
}
