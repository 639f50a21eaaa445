package winetest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/settings"
	"github.com/asktray/asktray/internal/testkit"
)

// wine is the chroot that .ci/wine.sh set up, its fresh Wine prefix and
// the exe to run, all named by the script's environment.
type wine struct {
	root   string // the chroot, on the host
	prefix string // WINEPREFIX, inside the chroot
	exe    string // asktray.exe, inside the chroot
	// display is the X display every command of the prefix gets once a
	// test started a desktop app on it; see (*wine).command.
	display string
}

// newWine returns the Wine that .ci/wine.sh set up, or skips the test when
// it is not running under that script (CI always runs it there).
func newWine(t *testing.T) *wine {
	t.Helper()
	w := &wine{root: os.Getenv("ASKTRAY_WINE_ROOT"), prefix: os.Getenv("ASKTRAY_WINE_PREFIX"), exe: os.Getenv("ASKTRAY_WINE_EXE")}
	if w.root == "" {
		t.Skip("ASKTRAY_WINE_ROOT is not set: these tests run under .ci/wine.sh, which .ci/run calls after make windows")
	}
	if w.prefix == "" || w.exe == "" {
		t.Fatal("ASKTRAY_WINE_ROOT is set but ASKTRAY_WINE_PREFIX or ASKTRAY_WINE_EXE is not; run the tests through .ci/wine.sh")
	}
	if _, err := os.Stat(filepath.Join(w.root, w.exe)); err != nil {
		t.Fatalf("the exe is missing (make windows builds it): %v", err)
	}
	return w
}

// command returns a command that runs name args in the chroot with the
// prefix, on X display (none when ""), its output unread.
func (w *wine) command(display string, extraEnv []string, name string, args ...string) *exec.Cmd {
	// All processes of a prefix share one Wine session, whose desktop is
	// made by the first of them: a CLI command with no display that wins
	// the race against a desktop app's start would leave the app a desktop
	// it cannot draw on ("Failed to create helper window", then a panic in
	// GLFW). So once a desktop app runs, every command gets its display.
	if display == "" {
		display = w.display
	}
	env := []string{"-C", "/", "LANG=C.UTF-8", "HOME=/root", "USER=root", "WINEPREFIX=" + w.prefix, "WINEDEBUG=-all", "DISPLAY=" + display}
	env = append(env, extraEnv...)
	cmd := exec.Command("chroot", append([]string{w.root, "env"}, append(append(env, name), args...)...)...)
	cmd.Env = []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
	// The first wine command of a prefix starts wineserver, which inherits
	// its output and outlives it: stop reading a moment after it exits.
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// result is what a finished command printed and its exit code.
type result struct {
	code           int
	stdout, stderr string
}

// run runs the exe with args under Wine (no display) and waits up to a
// minute for it.
func (w *wine) run(t *testing.T, args ...string) result {
	t.Helper()
	return w.runCmd(t, w.command("", nil, "wine", append([]string{w.exe}, args...)...))
}

func (w *wine) runCmd(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		err = <-done
		t.Fatalf("%v did not end within a minute (killed: %v); stderr:\n%s", cmd.Args, err, errb.String())
	}
	r := result{stdout: out.String(), stderr: errb.String()}
	if errors.Is(err, exec.ErrWaitDelay) { // it exited; wineserver still holds its output
		return result{code: cmd.ProcessState.ExitCode(), stdout: r.stdout, stderr: r.stderr}
	}
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

// dataDir is a data dir for one app: where the host sees it and the
// Windows path the exe is given (Wine's drive Z: is the chroot's root).
type dataDir struct{ host, win string }

func (w *wine) newDataDir(t *testing.T) dataDir {
	t.Helper()
	rel := filepath.Join("tmp", "asktray-winetest", fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano()))
	host := filepath.Join(w.root, rel)
	if err := os.MkdirAll(filepath.Dir(host), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(host) })
	return dataDir{host: host, win: `Z:\` + strings.ReplaceAll(rel, "/", `\`)}
}

// cli runs an asktray command against the app of data dir d.
func (w *wine) cli(t *testing.T, d dataDir, args ...string) result {
	t.Helper()
	return w.run(t, append(args, "--data-dir", d.win)...)
}

// app is asktray.exe running under Wine.
type app struct {
	cmd    *exec.Cmd
	exited chan struct{}
	stderr bytes.Buffer
	dir    dataDir
	url    string
	token  string
}

// start runs the app on data dir d (on display, or headless when display
// is "") and waits until its control pipe answers `url --json`. It marks
// the first run done first (settings.WelcomedFile), so no first-run window
// comes up in the Wine desktop. When the test ends it is asked to quit, or
// killed if it does not.
func (w *wine) start(t *testing.T, d dataDir, display string, extraEnv []string, args ...string) *app {
	t.Helper()
	if err := os.MkdirAll(d.host, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d.host, settings.WelcomedFile), []byte("winetest\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if display != "" {
		w.display = display
	}
	args = append([]string{w.exe, "--data-dir", d.win, "--addr", "127.0.0.1:0"}, args...)
	a := &app{cmd: w.command(display, extraEnv, "wine", args...), exited: make(chan struct{}), dir: d}
	a.cmd.Stdout, a.cmd.Stderr = &a.stderr, &a.stderr
	if err := a.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = a.cmd.Wait(); close(a.exited) }()
	t.Cleanup(func() {
		select {
		case <-a.exited:
		default:
			w.cli(t, d, "quit")
			select {
			case <-a.exited:
			case <-time.After(15 * time.Second):
				_ = a.cmd.Process.Kill()
				<-a.exited
			}
		}
		if t.Failed() {
			l, _ := os.ReadFile(filepath.Join(d.host, "log", "asktray.log"))
			t.Logf("app output:\n%s\napp log:\n%s", a.stderr.String(), l)
		}
	})
	deadline := time.Now().Add(90 * time.Second)
	for {
		r := w.cli(t, d, "url", "--json")
		if r.code == 0 {
			var u struct{ URL, Token string }
			if err := jsonDecode(r.stdout, &u); err == nil && u.URL != "" {
				a.url, a.token = u.URL, u.Token
				return a
			}
		}
		select {
		case <-a.exited:
			t.Fatalf("the app exited before it served: %v\n%s", a.cmd.ProcessState, a.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the app did not answer url --json within 90 s: %+v", r)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// waitExit waits up to timeout for the app's process to end and returns its exit code.
func (a *app) waitExit(t *testing.T, timeout time.Duration) int {
	t.Helper()
	select {
	case <-a.exited:
		return a.cmd.ProcessState.ExitCode()
	case <-time.After(timeout):
		t.Fatalf("the app still runs after %v", timeout)
		return -1
	}
}

// instance reads the app's instance file from the host.
func (a *app) instance() (datadir.Instance, error) { return datadir.ReadInstance(a.dir.host) }

// log returns the app's log so far.
func (a *app) log() string {
	b, _ := os.ReadFile(filepath.Join(a.dir.host, "log", "asktray.log"))
	return string(b)
}

// waitLog waits up to timeout for the app's log to contain s.
func (a *app) waitLog(t *testing.T, s string, timeout time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(timeout); !strings.Contains(a.log(), s); {
		if time.Now().After(deadline) {
			t.Fatalf("the app's log has no %q after %v", s, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// client connects the official Go SDK MCP client to the app with its token.
func (a *app) client(t *testing.T, name string) *sdk.ClientSession {
	t.Helper()
	return testkit.ConnectMCP(t, a.url, a.token, name, 30*time.Second)
}

// startXvfb starts an X server on the host on a display it picks
// (-displayfd); Wine in the chroot reaches it through /tmp/.X11-unix, which
// .ci/wine.sh binds there. It is stopped when the test ends.
func startXvfb(t *testing.T) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset") // no reset as the last client leaves: see ui/xvfbtest startXvfb
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatalf("Xvfb (make deps installs it): %v", err)
	}
	w.Close()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	_ = r.SetReadDeadline(time.Now().Add(20 * time.Second))
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatalf("Xvfb did not say which display it took: %v", err)
	}
	return ":" + strings.TrimSpace(line)
}

// x runs an X tool on the host against display.
func x(t *testing.T, display, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return strings.TrimSpace(string(out))
}
