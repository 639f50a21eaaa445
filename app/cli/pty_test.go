package cli

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/asktray/asktray/internal/testkit"
)

// ptyRun is an asktray command running on a new pseudo-terminal, its
// controlling terminal, as a person at a terminal runs it.
type ptyRun struct {
	t    *testing.T
	cmd  *exec.Cmd
	f    *os.File
	mu   sync.Mutex
	out  strings.Builder
	seen int // how much of out expect has consumed
	done chan struct{}
}

// startPTY runs the asktray command with args against dir on a new
// pseudo-terminal, with env added to its environment (armDelayEnv sets the
// arming delay).
func startPTY(t *testing.T, dir string, env []string, args ...string) *ptyRun {
	t.Helper()
	cmd := testkit.AsktrayCommand(append(args, "--data-dir", dir)...)
	cmd.Env = append(cmd.Env, env...)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
	if errors.Is(err, pty.ErrUnsupported) {
		t.Skip("no pseudo-terminals here: the CLI approves only on a unix terminal")
	} else if err != nil {
		t.Fatal(err)
	}
	p := &ptyRun{t: t, cmd: cmd, f: f, done: make(chan struct{})}
	go p.read()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		f.Close()
	})
	return p
}

// read keeps what the terminal shows until it closes; it runs on its own
// goroutine.
func (p *ptyRun) read() {
	defer close(p.done)
	b := make([]byte, 4096)
	for {
		n, err := p.f.Read(b)
		p.mu.Lock()
		p.out.Write(b[:n])
		p.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// expect waits until the output after what expect saw last holds want, and
// moves past it.
func (p *ptyRun) expect(want string) {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		p.mu.Lock()
		s := p.out.String()
		i := strings.Index(s[p.seen:], want)
		if i >= 0 {
			p.seen += i + len(want)
		}
		p.mu.Unlock()
		if i >= 0 {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("no %q on the terminal after what was expected before; it shows:\n%s", want, s)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (p *ptyRun) send(s string) {
	p.t.Helper()
	if _, err := p.f.WriteString(s); err != nil {
		p.t.Fatal(err)
	}
}

// wait waits for the command to end, killing it after 30 s, and returns its
// exit code and all it showed.
func (p *ptyRun) wait() (int, string) {
	p.t.Helper()
	stuck := time.AfterFunc(30*time.Second, func() { _ = p.cmd.Process.Kill() })
	defer stuck.Stop()
	err := p.cmd.Wait()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		return ee.ExitCode(), p.out.String()
	} else if err != nil {
		p.t.Fatal(err)
	}
	return 0, p.out.String()
}

// approveOnPTY answers question id with value through 'asktray answer ID
// --accept VALUE' on a terminal, typing the login password when asked.
func approveOnPTY(t *testing.T, dir, id, value string) {
	t.Helper()
	p := startPTY(t, dir, []string{armDelayEnv + "=0"}, "answer", id, "--accept", value)
	p.expect("type your login password")
	p.expect("ready: ")
	p.send(testPassword + "\r")
	code, out := p.wait()
	if code != 0 || !strings.Contains(out, id+": answered") {
		t.Fatalf("answer %s on a terminal: exit %d\n%s", id, code, out)
	}
	if strings.Contains(out, testPassword) {
		t.Fatalf("the password was echoed:\n%s", out)
	}
}
