package remote

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/asktray/asktray/app/datadir"
)

// readyLine is what the host's side of the connection prints once its
// socket points at this connection's forward.
const readyLine = "asktray-ready"

// Back-off between attempts to connect: doubling from backoffMin to
// backoffMax, and from backoffMin again after a connection that lasted
// backoffReset.
const (
	backoffMin   = time.Second
	backoffMax   = 30 * time.Second
	backoffReset = 30 * time.Second
)

// carrier keeps one host's SSH connection up: ssh forwards a new socket in
// the host's channel dir to the app's socket for the host, and a shell
// there points the host's socket (RemoteSocket) at it and waits for the
// connection to end.
type carrier struct {
	host   Host
	target Target
	local  string // the app's socket for the host
	sshCmd string // ASKTRAY_SSH_COMMAND, or "" for ssh
	// changed, if set, is called after each change of state.
	changed func()

	mu    sync.Mutex
	state State
}

func (c *carrier) set(state, errText string, pid int) {
	c.mu.Lock()
	c.state = State{Name: c.host.Name, State: state, Error: errText, Since: time.Now(), PID: pid}
	c.mu.Unlock()
	if c.changed != nil {
		c.changed()
	}
}

func (c *carrier) get() State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state
}

// pid is the running ssh process's pid, 0 when none runs.
func (c *carrier) pid() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state.State == Down {
		return 0
	}
	return c.state.PID
}

// run connects, and reconnects with back-off, until ctx ends. It blocks.
func (c *carrier) run(ctx context.Context) {
	wait := backoffMin
	for ctx.Err() == nil {
		start := time.Now()
		err := c.once(ctx)
		if ctx.Err() != nil {
			return
		}
		if time.Since(start) > backoffReset {
			wait = backoffMin
		}
		c.set(Down, errText(err, wait), 0)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, backoffMax)
	}
}

func errText(err error, wait time.Duration) string {
	s := "retrying in " + wait.String()
	if err != nil {
		s = err.Error() + "; " + s
	}
	return s
}

// once runs one ssh connection until it ends or ctx ends. It blocks.
func (c *carrier) once(ctx context.Context) error {
	c.set(Connecting, "", 0)
	cmd := c.command()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	// The host's shell waits on stdin: it stays open, with nothing sent,
	// until ssh ends.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	defer stdin.Close()
	var stderr tailBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start ssh: %w", err)
	}
	pid := cmd.Process.Pid
	c.set(Connecting, "", pid)
	stop := context.AfterFunc(ctx, func() { _ = syscall.Kill(-pid, syscall.SIGTERM) })
	defer stop()
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == readyLine {
			c.set(Connected, "", pid)
		}
	}
	err = cmd.Wait()
	if last := stderr.last(); last != "" {
		return errors.New(last)
	}
	if err != nil {
		return fmt.Errorf("ssh: %w", err)
	}
	return errors.New("ssh ended")
}

// command is the ssh command for one connection, in a process group of
// its own (so that ending it ends a wrapper's ssh too).
func (c *carrier) command() *exec.Cmd {
	nonce := NewKey()[:16]
	sock := "desktop-" + nonce + ".sock"
	opts := []string{"-o", "ExitOnForwardFailure=yes", "-o", "ServerAliveInterval=10", "-o", "ServerAliveCountMax=3",
		"-R", c.host.Dir + "/" + sock + ":" + c.local}
	cmd := sshCommand(context.Background(), c.sshCmd, c.target, opts, hostScript(c.host.Dir, sock))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// sshCommand runs remoteCmd on t through ssh (or sshCmd through the shell
// with ssh's arguments, as GIT_SSH_COMMAND runs), never asking for a
// password or a host key on a terminal (BatchMode), with opts before the
// destination; ctx's end kills it.
func sshCommand(ctx context.Context, sshCmd string, t Target, opts []string, remoteCmd string) *exec.Cmd {
	args := append([]string{"-T", "-o", "BatchMode=yes"}, opts...)
	if t.Port != 0 {
		args = append(args, "-p", strconv.Itoa(t.Port))
	}
	args = append(args, "--", t.Dest, remoteCmd)
	if sshCmd != "" {
		return exec.CommandContext(ctx, "/bin/sh", append([]string{"-c", sshCmd + ` "$@"`, "ssh"}, args...)...) //nolint:gosec // the person's ASKTRAY_SSH_COMMAND, run as git runs GIT_SSH_COMMAND

	}
	return exec.CommandContext(ctx, "ssh", args...) //nolint:gosec // ssh, its destination checked by ParseName
}

// hostScript is the command the host's shell runs once the forward is up:
// point the host's socket at this connection's socket, drop the sockets of
// earlier connections, say so, and wait for the connection to end (stdin
// closes). Its only variable parts are the dir the host reported and a
// random hex name.
func hostScript(dir, sock string) string {
	return "cd " + shellQuote(dir) + " && umask 077 && ln -sf " + sock + " " + datadir.RemoteSocket + ".new" +
		" && mv -f " + datadir.RemoteSocket + ".new " + datadir.RemoteSocket + " && for f in desktop-*.sock; do [ \"$f\" = " + sock +
		" ] || rm -f \"$f\"; done && echo " + readyLine + " && exec cat >/dev/null"
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// tailBuffer keeps the last line written to it (ssh's last complaint).
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > 4096 {
		b.buf = b.buf[len(b.buf)-4096:]
	}
	return len(p), nil
}

func (b *tailBuffer) last() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(b.buf)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
