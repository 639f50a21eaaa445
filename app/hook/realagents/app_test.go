//go:build realagents

package realagents

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

var (
	exeOnce sync.Once
	exePath string
	exeErr  error
)

// asktrayExe is this test binary under the name asktray (a hard link, or a
// copy across file systems), so that 'asktray config' writes a hook command
// that setup recognizes as its own and the agents run it.
func asktrayExe(t *testing.T) string {
	t.Helper()
	exeOnce.Do(func() {
		var dir string
		// One link for every test of the process; TestMain's testkit.Main
		// does not remove it, the machine's temp cleanup does (it is a
		// hard link: no space).
		if dir, exeErr = os.MkdirTemp("", "asktray-exe"); exeErr != nil { //nolint:usetesting // outlives each test
			return
		}
		exePath = filepath.Join(dir, "asktray")
		if exeErr = os.Link(os.Args[0], exePath); exeErr == nil {
			return
		}
		var b []byte
		if b, exeErr = os.ReadFile(os.Args[0]); exeErr == nil {
			exeErr = os.WriteFile(exePath, b, 0o700) //nolint:gosec // the test binary itself
		}
	})
	if exeErr != nil {
		t.Fatal(exeErr)
	}
	return exePath
}

// asktrayCmd runs asktray (this test binary) with args and env added.
func asktrayCmd(t *testing.T, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(asktrayExe(t), args...) //nolint:gosec // the test binary itself
	cmd.Env = append(append(os.Environ(), testkit.ChildEnv), env...)
	return cmd
}

// run runs asktray with args and waits for it.
func run(t *testing.T, env []string, args ...string) testkit.Result {
	t.Helper()
	return testkit.Run(t, asktrayCmd(t, env, args...))
}

// appProc is a headless app on a data dir; it can be stopped, started again
// on the same dir, and frozen.
type appProc struct {
	t   *testing.T
	dir string
	cmd *exec.Cmd
	ctl *control.Client
	log *testkit.SyncBuffer
	env []string // added to the app's environment
	mu  sync.Mutex
}

func startApp(t *testing.T, dir string) *appProc {
	t.Helper()
	return startAppEnv(t, dir, nil)
}

// startAppEnv is startApp with env added to the app's environment.
func startAppEnv(t *testing.T, dir string, env []string) *appProc {
	t.Helper()
	a := &appProc{t: t, dir: dir, env: env, ctl: control.NewClient(filepath.Join(dir, datadir.SocketFile))}
	a.start()
	t.Cleanup(func() {
		a.cont()
		a.stop()
	})
	return a
}

// start starts the app and waits until its control socket answers.
func (a *appProc) start() {
	a.t.Helper()
	cmd := asktrayCmd(a.t, a.env, "--headless", "--addr", "127.0.0.1:0", "--data-dir", a.dir)
	a.log = &testkit.SyncBuffer{}
	cmd.Stderr = a.log
	if err := cmd.Start(); err != nil {
		a.t.Fatal(err)
	}
	a.mu.Lock()
	a.cmd = cmd
	a.mu.Unlock()
	// Serving, and named by the instance file, which a hook reads to check
	// the socket's server (the socket serves a moment before it is written).
	ok := waitUntil(30*time.Second, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, err := a.ctl.Status(ctx)
		in, ierr := datadir.ReadInstance(a.dir)
		return err == nil && ierr == nil && in.PID == cmd.Process.Pid
	})
	if !ok {
		a.t.Fatalf("the app did not serve within 30 s:\n%s", a.log.String())
	}
}

// stop ends the app (SIGTERM) and waits for it.
func (a *appProc) stop() {
	a.mu.Lock()
	cmd := a.cmd
	a.cmd = nil
	a.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

// cont resumes the app after a SIGSTOP.
func (a *appProc) cont() { a.signal(syscall.SIGCONT) }

func (a *appProc) signal(s syscall.Signal) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cmd != nil {
		_ = a.cmd.Process.Signal(s)
	}
}

// pending lists the app's pending questions.
func (a *appProc) pending() []question.Question {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	qs, err := a.ctl.Pending(ctx)
	if err != nil {
		a.t.Fatalf("pending: %v", err)
	}
	return qs
}

// waitQuestion waits until a question whose details hold s is pending.
func (a *appProc) waitQuestion(s string, limit time.Duration) question.Question {
	a.t.Helper()
	var found question.Question
	if !waitUntil(limit, func() bool {
		for _, q := range a.pending() {
			if strings.Contains(q.Details+q.Message, s) {
				found = q
				return true
			}
		}
		return false
	}) {
		a.t.Fatalf("no pending question about %q within %v", s, limit)
	}
	return found
}

// waitEnded waits until question id has ended and returns its result.
func (a *appProc) waitEnded(id string, limit time.Duration) question.Result {
	a.t.Helper()
	var res question.Result
	if !waitUntil(limit, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		it, err := a.ctl.Get(ctx, id)
		if err != nil || it.Result == nil {
			return false
		}
		res = *it.Result
		return true
	}) {
		a.t.Fatalf("question %s still open after %v", id, limit)
	}
	return res
}

// item is question id as the app's history holds it; ok is false when the
// app cannot say.
func (a *appProc) item(id string) (control.Item, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	it, err := a.ctl.Get(ctx, id)
	if err != nil {
		return control.Item{}, false
	}
	return it, true
}

// answer answers question id as a person does at the command line:
// `asktray answer ID` with flags.
func (a *appProc) answer(id string, flags ...string) {
	a.t.Helper()
	r := run(a.t, nil, append([]string{"answer", id, "--data-dir", a.dir}, flags...)...)
	if r.Code != 0 {
		a.t.Fatalf("asktray answer %s %v: %+v", id, flags, r)
	}
}

// testPassword is the login password the app in this test binary accepts
// (personcheck.SetTestVerifier in child): an approval from a terminal needs
// it.
const testPassword = "realagents-password"

var confirmRE = regexp.MustCompile(`To confirm, type "([^"]+)"`)

const passwordPrompt = "To allow, type your login password"

// armDelay is the CLI's arming delay (app/cli's defaultArmDelay): the
// terminal takes the password only once it has been quiet this long after
// the prompt.
const armDelay = time.Second

// allow allows approval id as a person does at a terminal: `asktray answer
// ID --accept '"allow"'` on a pseudo-terminal, with the CLI's own arming
// delay. It types the login password (or the word it asks for) as soon as
// the prompt shows, before it is armed: that must be dropped (the terminal
// says "ready: " an arming delay after the last key, and nothing is
// answered yet); then once more, which allows.
func (a *appProc) allow(id string) {
	a.t.Helper()
	cmd := asktrayCmd(a.t, nil, "answer", id, "--accept", `"allow"`, "--data-dir", a.dir)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
	if err != nil {
		a.t.Fatal(err)
	}
	defer f.Close()
	out := &testkit.SyncBuffer{}
	go func() { _, _ = io.Copy(out, f) }()
	fail := func(format string, args ...any) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		a.t.Fatalf(format+"\n%s", append(args, out.String())...)
	}
	var typed string
	if !waitUntil(15*time.Second, func() bool {
		s := out.String()
		if strings.Contains(s, passwordPrompt) {
			typed = testPassword
		} else if m := confirmRE.FindStringSubmatch(s); m != nil {
			typed = m[1]
		}
		return typed != ""
	}) {
		fail("asktray answer %s on a terminal did not ask to confirm:", id)
	}
	early := time.Now()
	_, _ = f.Write([]byte(typed + "\r"))
	if !waitUntil(15*time.Second, func() bool { return strings.Contains(out.String(), "ready: ") }) {
		fail("asktray answer %s: never ready for the password:", id)
	}
	if armed := time.Since(early); armed < armDelay-100*time.Millisecond || strings.Contains(out.String(), id+": answered") {
		fail("asktray answer %s took the password typed before it was armed (ready %v after it; arming delay %v):", id, armed.Round(10*time.Millisecond), armDelay)
	}
	_, _ = f.Write([]byte(typed + "\r"))
	err = cmd.Wait()
	answered := waitUntil(5*time.Second, func() bool { return strings.Contains(out.String(), id+": answered") })
	if err != nil || !answered {
		a.t.Fatalf("asktray answer %s on a terminal: %v\n%s", id, err, out.String())
	}
}
