package xvfbtest

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/settings"
	"github.com/asktray/asktray/internal/testkit"
)

// desktop is one private X display and session bus with a fake
// notification server, and the asktray binary running on them.
type desktop struct {
	bin, dataDir string
	env          []string
	notes        noteLog
	watcher      *fakeWatcher // the session's tray host; nil in a bare session
	app          *exec.Cmd
	stderrPath   string // where the app's stdout and stderr go
	stderr       string // the file holding the app's stdout and stderr
	url, token   string
	// firstRun leaves the data dir without the first-run mark
	// (settings.WelcomedFile), so the app shows its first-run window; every
	// other start finds the mark, which start writes, and shows none.
	firstRun bool
}

// TestMain removes the asktray binary that testkit.Binary built.
func TestMain(m *testing.M) {
	os.Exit(testkit.Main(m, nil))
}

func need(t testing.TB, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is missing; make deps installs it: %v", tool, err)
		}
	}
}

// newDesktop starts Xvfb on a free display and a private session bus with a
// fake notification server, then the app.
func newDesktop(t testing.TB, appArgs ...string) *desktop {
	t.Helper()
	d := newSession(t)
	d.start(t, d.bin, append([]string{"--data-dir", d.dataDir, "--addr", "127.0.0.1:0"}, appArgs...)...)
	return d
}

// newSession starts Xvfb on a free display and a private session bus with
// a fake notification server and a tray host (d.watcher), as a desktop
// with a panel has; the app is not started.
func newSession(t testing.TB) *desktop {
	t.Helper()
	d := newBareSession(t)
	d.watcher = startFakeWatcher(t, d.env)
	return d
}

// newBareSession is newSession with no tray host, as on GNOME without the
// AppIndicator extension or sway without a bar.
func newBareSession(t testing.TB) *desktop {
	t.Helper()
	return newBareSessionOn(t, "1280x800x24")
}

// newBareSessionOn is newBareSession on a screen of geometry WxHxD, its
// X server started with xvfbArgs too.
func newBareSessionOn(t testing.TB, geometry string, xvfbArgs ...string) *desktop {
	t.Helper()
	need(t, "Xvfb", "dbus-daemon", "xdotool", "xwininfo")
	d := &desktop{bin: testkit.Binary(t), dataDir: filepath.Join(t.TempDir(), "data")}
	display := startXvfb(t, geometry, xvfbArgs...)
	bus := testkit.StartBus(t)
	d.notes = noteLog{testkit.StartFakeNotifications(t, bus)}
	d.env = append(os.Environ(), "DISPLAY="+display, "DBUS_SESSION_BUS_ADDRESS="+bus, "LANG=C.UTF-8", "LANGUAGE=en")
	return d
}

// start runs the app as name args (which must use d.dataDir) in the session
// and waits until it serves; it is stopped when the test ends. Unless
// d.firstRun, it marks the first run done first.
func (d *desktop) start(t testing.TB, name string, args ...string) {
	t.Helper()
	if !d.firstRun {
		if err := os.MkdirAll(d.dataDir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d.dataDir, settings.WelcomedFile), []byte("xvfbtest\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	d.app = exec.Command(name, args...)
	d.app.Env = d.env
	logf, _ := os.Create(filepath.Join(t.TempDir(), "app.stderr"))
	d.stderrPath = logf.Name()
	d.app.Stdout, d.app.Stderr = logf, logf
	d.stderr = logf.Name()
	if err := d.app.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = d.app.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = d.app.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = d.app.Process.Kill()
			<-done
		}
		if t.Failed() {
			b, _ := os.ReadFile(logf.Name())
			l, _ := os.ReadFile(filepath.Join(d.dataDir, "log", "asktray.log"))
			t.Logf("app stderr:\n%s\napp log:\n%s", b, l)
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, err := d.cli("url", "--json")
		if err == nil {
			var u struct{ URL, Token string }
			if json.Unmarshal([]byte(out), &u) == nil {
				d.url, d.token = u.URL, u.Token
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("app did not come up: %v %s", err, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// cli runs an asktray command against the desktop's app.
func (d *desktop) cli(args ...string) (string, error) {
	cmd := exec.Command(d.bin, append(args, "--data-dir", d.dataDir)...)
	cmd.Env = d.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// x runs an X tool on the desktop's display.
func (d *desktop) x(t testing.TB, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = d.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// waitWindow waits for a mapped window whose title is title and returns its id.
func (d *desktop) waitWindow(t testing.TB, title string, timeout time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		cmd := exec.Command("xdotool", "search", "--onlyvisible", "--name", "^"+title+"$")
		cmd.Env = d.env
		out, _ := cmd.Output()
		if ids := strings.Fields(string(out)); len(ids) > 0 {
			return ids[len(ids)-1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no window %q after %v", title, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// windowGone reports whether no visible window has the title.
func (d *desktop) windowGone(title string) bool {
	cmd := exec.Command("xdotool", "search", "--onlyvisible", "--name", "^"+title+"$")
	cmd.Env = d.env
	out, _ := cmd.Output()
	return strings.TrimSpace(string(out)) == ""
}

// screenshot saves the whole screen as a PNG.
func (d *desktop) screenshot(t testing.TB, path string) {
	t.Helper()
	need(t, "import")
	d.x(t, "import", "-window", "root", path)
}

// client connects the official Go SDK client over HTTP with the token.
func (d *desktop) client(t testing.TB, name string) *sdk.ClientSession {
	t.Helper()
	return testkit.ConnectMCP(t, d.url, d.token, name, 10*time.Second)
}

// startXvfb starts an X server on a display it picks itself (-displayfd),
// so stale locks left by killed servers never make the tests run out of
// displays, and stops it with SIGTERM so that it removes its own lock.
// -noreset: without it the server resets as its last client leaves (the
// xdpyinfo that checks it is up), and a client connecting in that moment
// is dropped: a CI run's openbox failed "to open the display" so.
func startXvfb(t testing.TB, geometry string, args ...string) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command("Xvfb", append([]string{"-displayfd", "3", "-screen", "0", geometry, "-nolisten", "tcp", "-noreset"}, args...)...)
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	_ = r.SetReadDeadline(time.Now().Add(20 * time.Second))
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatalf("Xvfb did not say which display it took: %v", err)
	}
	display := ":" + strings.TrimSpace(line)
	deadline := time.Now().Add(10 * time.Second)
	for exec.Command("xdpyinfo", "-display", display).Run() != nil {
		if time.Now().After(deadline) {
			t.Fatalf("Xvfb %s did not start", display)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return display
}

// noteLog is a desktop's fake notification server; notes lists what it
// was asked to show.
type noteLog struct{ *testkit.FakeNotifications }

func (l noteLog) notes() []testkit.Note { return l.Shown() }
