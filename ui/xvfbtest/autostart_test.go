package xvfbtest

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asktray/asktray/app/autostart"
	"github.com/godbus/dbus/v5"
)

// TestStartAtLogin: the real binary started as the XDG autostart entry says
// (its Exec line, as the session would run it) serves MCP, shows no window,
// and puts its icon and menu in the tray once a tray host appears, as when
// the panel starts after it at login. Starting the entry again while it
// runs exits 0 and still shows no window.
func TestStartAtLogin(t *testing.T) {
	d := newBareSession(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if err := autostart.SetStartAtLogin(true, d.bin, []string{autostart.BackgroundFlag, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0"}); err != nil {
		t.Fatal(err)
	}
	entry, err := autostart.XDGPath()
	if err != nil {
		t.Fatal(err)
	}
	argv := execLine(t, entry)
	if argv[0] != d.bin || !slices.Contains(argv, autostart.BackgroundFlag) {
		t.Fatalf("Exec line %q", argv)
	}
	d.start(t, argv[0], argv[1:]...)
	d.checkTrayAndNoWindow(t)

	// The entry run again (a second login, a second autostart) leaves the
	// running app alone and shows nothing.
	again := exec.Command(argv[0], argv[1:]...)
	again.Env = d.env
	out, err := again.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "nothing to do") {
		t.Fatalf("second start at login: %v\n%s", err, out)
	}
	time.Sleep(time.Second) // what a show would have done has had time to map a window
	if shown := d.visibleWindows(t); len(shown) > 0 {
		t.Fatalf("a second start at login showed windows %q", shown)
	}
}

// TestLauncherStart: started as the package's launcher does (Exec=asktray,
// no flags), the app also comes up in the tray with no window.
func TestLauncherStart(t *testing.T) {
	d := newDesktop(t)
	d.checkTrayAndNoWindow(t)
}

// checkTrayAndNoWindow checks that the app serves MCP, registers its tray
// item and menu with a tray host that appears after it (as a panel starting
// later at login does), and has mapped no window.
func (d *desktop) checkTrayAndNoWindow(t *testing.T) {
	t.Helper()
	// Agents can use it at once.
	s := d.client(t, "login-agent")
	tools, err := s.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) == 0 {
		t.Fatalf("tools/list: %v", err)
	}

	// The panel comes up after the app: the app registers its item with it.
	w := d.watcher
	if w == nil {
		w = startFakeWatcher(t, d.env)
	}
	reg := w.wait(t, 20*time.Second)
	conn, err := dbus.Connect(envValue(d.env, "DBUS_SESSION_BUS_ADDRESS"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var pid uint32
	if err := conn.BusObject().Call("org.freedesktop.DBus.GetConnectionUnixProcessID", 0, reg.sender).Store(&pid); err != nil || int(pid) != d.app.Process.Pid {
		t.Fatalf("the tray item was registered by pid %d (%v), not the app (%d)", pid, err, d.app.Process.Pid)
	}
	d.menuOf(t, reg.sender).with(t, "Settings…", "Quit")
	if shown := d.visibleWindows(t); len(shown) > 0 {
		t.Fatalf("the start showed windows %q", shown)
	}
}

// visibleWindows returns the names of the mapped windows with a name.
func (d *desktop) visibleWindows(t testing.TB) []string {
	t.Helper()
	cmd := exec.Command("xdotool", "search", "--onlyvisible", "--name", ".")
	cmd.Env = d.env
	out, _ := cmd.Output() // exit 1: none found
	var names []string
	for id := range strings.FieldsSeq(string(out)) {
		names = append(names, d.x(t, "xdotool", "getwindowname", id))
	}
	return names
}

// execLine reads the Exec key of a desktop entry and splits it into words
// as the Desktop Entry Specification says: string escapes first, then
// double-quoted arguments with \" \` \$ \\ escapes, then %% for %.
func execLine(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var value string
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Exec="); ok {
			value = strings.ReplaceAll(v, `\\`, `\`)
		}
	}
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(value); i++ {
		c := value[i]
		switch {
		case quoted && c == '\\' && i+1 < len(value):
			i++
			cur.WriteByte(value[i])
		case c == '"':
			quoted, inWord = !quoted, true
		case c == ' ' && !quoted:
			if inWord {
				words = append(words, strings.ReplaceAll(cur.String(), "%%", "%"))
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, strings.ReplaceAll(cur.String(), "%%", "%"))
	}
	if len(words) == 0 || quoted {
		t.Fatalf("bad Exec line in %s:\n%s", path, b)
	}
	return words
}

func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if rest, ok := strings.CutPrefix(kv, key+"="); ok {
			v = rest
		}
	}
	return v
}

// fakeWatcher owns org.kde.StatusNotifierWatcher on the private bus, as a
// panel's tray host does, and records the items that register.
type fakeWatcher struct {
	mu   sync.Mutex
	got  []registration
	seen chan struct{}
}

type registration struct{ sender, path string }

func (w *fakeWatcher) RegisterStatusNotifierItem(path string, sender dbus.Sender) *dbus.Error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.got = append(w.got, registration{string(sender), path})
	if len(w.got) == 1 {
		close(w.seen)
	}
	return nil
}

func (w *fakeWatcher) RegisterStatusNotifierHost(string) *dbus.Error { return nil }

func (w *fakeWatcher) wait(t testing.TB, timeout time.Duration) registration {
	t.Helper()
	select {
	case <-w.seen:
	case <-time.After(timeout):
		t.Fatalf("no tray item registered within %v", timeout)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.got[0]
}

func startFakeWatcher(t testing.TB, env []string) *fakeWatcher {
	t.Helper()
	conn, err := dbus.Connect(envValue(env, "DBUS_SESSION_BUS_ADDRESS"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	w := &fakeWatcher{seen: make(chan struct{})}
	if err := conn.Export(w, "/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.RequestName("org.kde.StatusNotifierWatcher", dbus.NameFlagDoNotQueue); err != nil {
		t.Fatal(err)
	}
	return w
}
