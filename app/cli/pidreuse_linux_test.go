//go:build linux

package cli

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

// connectPassEnv makes the test binary connect to the control socket it
// names, make one call so that the connection waits for the next, hand the
// connection to its parent over fd 3 (SCM_RIGHTS) and exit: a short-lived
// child of an agent.
const connectPassEnv = "ASKTRAY_TEST_CONNECT_AND_PASS"

// init runs the connectPassEnv child before TestMain does anything else.
func init() {
	if sock := os.Getenv(connectPassEnv); sock != "" && testkit.IsChild() {
		os.Exit(connectAndPass(sock))
	}
}

// connectAndPass is the child side of connectPassEnv.
func connectAndPass(sock string) int {
	c, err := net.Dial("unix", sock)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := fmt.Fprint(c, "GET /v1/status HTTP/1.1\r\nHost: asktray\r\n\r\n"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	resp.Body.Close()
	f, err := c.(*net.UnixConn).File()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := unix.Sendmsg(3, []byte{0}, unix.UnixRights(int(f.Fd())), nil, 0); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestControl_PIDReuseTakesNoGrace is issue 33 item 1 against the real
// binary, as the agent did it: a short-lived child connects to the control
// socket, makes one call and exits, leaving the connection with the agent.
// The person answers another approval on their terminal with the password,
// which opens that terminal's grace, then runs a command in its foreground
// that the kernel gives the child's old pid (here forced with ns_last_pid,
// as the agent forced it by forking through the pid space). The agent then
// allows its own approval on the old connection with no password: it must
// be refused, since the process that connected is gone, and the approval
// stays pending. On f02af39, which read /proc/PID/stat of the pid only when
// the request came, it was answered "via terminal".
func TestControl_PIDReuseTakesNoGrace(t *testing.T) {
	testkit.NeedRoot(t, "to write /proc/sys/kernel/ns_last_pid")
	dir := shortTempDir(t)
	p := startApp(t, dir,
		question.Question{Kind: question.KindApproval, Client: question.Client{Name: "claude-code", SessionID: "agent"},
			Tool: "request_approval", Origin: question.OriginApproval, Action: "Drop the production database", Message: "Drop the production database", Risk: question.RiskHigh},
		question.Question{Kind: question.KindApproval, Client: question.Client{Name: "claude-code", SessionID: "person"},
			Tool: "request_approval", Origin: question.OriginApproval, Action: "Run the tests", Message: "Run the tests"})
	ids := p.askedIDs(t, 2)
	conn, pid := leftConnection(t, filepath.Join(dir, datadir.SocketFile))

	sh := startShell(t)
	sh.send(fmt.Sprintf("%q answer %s --accept '\"allow\"' --data-dir %q\n", os.Args[0], ids[1], dir))
	sh.expect("type your login password")
	sh.expect("ready: ")
	sh.send(testPassword + "\r")
	sh.expect(ids[1] + ": answered")
	sh.reuse(pid)

	body := `{"action":"accept","value":"allow","terminal_confirmed":true}`
	fmt.Fprintf(conn, "POST /v1/questions/%s/answer HTTP/1.1\r\nHost: asktray\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		ids[0], len(body), body)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("the app hung up instead of answering on the agent's connection (not what this test checks): %v", err)
	}
	defer resp.Body.Close()
	b := make([]byte, 4096)
	n, _ := resp.Body.Read(b)
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(b[:n]), "needs_person") {
		t.Fatalf("an allow on a connection whose process is gone, its pid now in the person's terminal: %s %s", resp.Status, b[:n])
	}
	if r := run(t, dir, "pending", "--json"); !strings.Contains(r.stdout, ids[0]) {
		t.Fatalf("the agent's approval is no longer pending: %+v", r)
	}
}

// leftConnection runs a child that connects to the socket, makes one call
// and exits, and returns the connection it left and its pid, reaped.
func leftConnection(t *testing.T, sock string) (net.Conn, int) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	mine, theirs := os.NewFile(uintptr(fds[0]), "mine"), os.NewFile(uintptr(fds[1]), "theirs")
	defer mine.Close()
	cmd := testkit.AsktrayCommand()
	cmd.Env = append(cmd.Env, connectPassEnv+"="+sock)
	cmd.ExtraFiles = []*os.File{theirs}
	cmd.SysProcAttr = noTerminal()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the connecting child: %v\n%s", err, out)
	}
	theirs.Close()
	oob := make([]byte, unix.CmsgSpace(4))
	_, oobn, _, _, err := unix.Recvmsg(fds[0], make([]byte, 1), oob, 0)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		t.Fatalf("no connection from the child: %v", err)
	}
	got, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(got) != 1 {
		t.Fatalf("no connection from the child: %v", err)
	}
	f := os.NewFile(uintptr(got[0]), "conn")
	c, err := net.FileConn(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, cmd.Process.Pid
}

// shell is an interactive sh on a new pseudo-terminal, its session leader:
// the person's terminal.
type shell struct {
	t    *testing.T
	cmd  *exec.Cmd
	f    *os.File
	mu   sync.Mutex
	out  strings.Builder
	seen int
}

func startShell(t *testing.T) *shell {
	t.Helper()
	cmd := exec.Command("sh", "-i")
	cmd.Env = append(os.Environ(), testkit.ChildEnv, armDelayEnv+"=0", "PS1=$ ")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 250})
	if err != nil {
		t.Fatal(err)
	}
	s := &shell{t: t, cmd: cmd, f: f}
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := f.Read(b)
			s.mu.Lock()
			s.out.Write(b[:n])
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		f.Close()
	})
	return s
}

func (s *shell) send(text string) {
	s.t.Helper()
	if _, err := s.f.WriteString(text); err != nil {
		s.t.Fatal(err)
	}
}

// expect waits until what the terminal showed after the last expect holds want.
func (s *shell) expect(want string) {
	s.t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		s.mu.Lock()
		out := s.out.String()
		i := strings.Index(out[s.seen:], want)
		if i >= 0 {
			s.seen += i + len(want)
		}
		s.mu.Unlock()
		if i >= 0 {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("no %q on the terminal; it shows:\n%s", want, out)
		}
	}
}

// reuse runs sleep in the shell's foreground with pid pid: ns_last_pid is
// set to the pid before it from the shell itself, right before it forks.
// Another process of the machine may take the pid first; it tries again.
func (s *shell) reuse(pid int) {
	s.t.Helper()
	for range 50 {
		s.send(fmt.Sprintf("echo %d > /proc/sys/kernel/ns_last_pid; sleep 60\n", pid-1))
		if s.runsSleep(pid) {
			return
		}
		s.send("\x03")
		s.expect("$ ")
	}
	s.t.Fatalf("could not get pid %d for a command in the terminal", pid)
}

// runsSleep waits up to a second for pid to be a sleep in the shell's session.
func (s *shell) runsSleep(pid int) bool {
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) > 5 && f[1] == "(sleep)" && f[5] == strconv.Itoa(s.cmd.Process.Pid) {
			return true
		}
		if len(f) > 1 && f[1] != "(sh)" {
			return false // another process took it
		}
	}
	return false
}
