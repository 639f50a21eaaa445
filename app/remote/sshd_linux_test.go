package remote

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/hookservice"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

// sshEnv is a real OpenSSH server on loopback whose scratch user is the
// remote host, and the desktop's side: a broker with the hook service, a
// data dir and the ssh command that reaches the host.
type sshEnv struct {
	user    testkit.User
	name    string // the host's name: user@127.0.0.1:port
	sshCmd  string // ASKTRAY_SSH_COMMAND for the test's keys
	dataDir string
	broker  *question.Broker
	asked   chan question.Question
	ended   chan question.Event
	hookBin string
	mgr     *Manager
}

func newSSHEnv(t testing.TB) *sshEnv {
	t.Helper()
	testkit.NeedSSHD(t)
	e := &sshEnv{user: testkit.NewUser(t, ""), dataDir: t.TempDir(),
		asked: make(chan question.Question, 64), ended: make(chan question.Event, 64)}
	sshd := testkit.StartSSHD(t, e.user)
	e.sshCmd, e.name = sshd.Command, sshd.Host
	e.hookBin = testkit.HookBinary(t)
	e.startBroker(t)
	return e
}

// startBroker makes the desktop's broker and hook service.
func (e *sshEnv) startBroker(t testing.TB) {
	pol, err := policy.Open(filepath.Join(e.dataDir, policy.File))
	if err != nil {
		t.Fatal(err)
	}
	e.broker = question.NewBroker(question.Config{Journal: historytest.New(t), Gate: pol.Gate})
	e.broker.Subscribe(func(ev question.Event) {
		switch ev.Type {
		case question.EventAsked:
			e.asked <- ev.Question
		case question.EventEnded:
			e.ended <- ev
		}
	})
	t.Cleanup(func() { _ = e.broker.Close() })
	settings := hookservice.Settings{Deadline: 2 * time.Minute}
	svc := &hookservice.Service{Broker: e.broker, Policy: pol, Settings: func() hookservice.Settings { return settings }}
	e.mgr = &Manager{DataDir: e.dataDir, Asker: svc, SSHCommand: e.sshCmd}
	t.Cleanup(e.mgr.Close)
}

// waitFor polls cond until it holds, failing t after limit.
func waitFor(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", limit, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// add sets the host up as 'asktray remote add' does and has the manager
// connect it, waiting until it is connected.
func (e *sshEnv) add(t testing.TB) Host {
	t.Helper()
	key := NewKey()
	dir, _, err := Setup(context.Background(), e.sshCmd, e.name, key)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(e.user.Home, ".local/share/asktray", datadir.RemoteDir)
	if dir != want {
		t.Fatalf("the host's channel dir is %q, want %q", dir, want)
	}
	h := Host{Name: e.name, Key: key, Dir: dir, Added: time.Now()}
	path := filepath.Join(e.dataDir, datadir.HostsFile)
	hs, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	hs.Put(h)
	if err := Save(path, hs); err != nil {
		t.Fatal(err)
	}
	if e.mgr.ctx == nil {
		if err := e.mgr.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
	} else if err := e.mgr.Sync(); err != nil {
		t.Fatal(err)
	}
	e.waitState(t, Connected)
	return h
}

// waitState waits until the host's connection is in state.
func (e *sshEnv) waitState(t testing.TB, state string) State {
	t.Helper()
	var got State
	waitFor(t, 30*time.Second, "the host to be "+state, func() bool {
		for _, s := range e.mgr.States() {
			if s.Name == e.name {
				got = s
			}
		}
		return got.State == state
	})
	return got
}

// hookRun is a hook process run as the host's user.
type hookRun struct {
	cmd         *exec.Cmd
	out, errOut bytes.Buffer
	done        chan error
	start       time.Time
}

// runHook starts the hook binary as user u (the host's user unless
// another) with the recorded payload of Claude Code's PermissionRequest.
func (e *sshEnv) runHook(t testing.TB, u testkit.User, extra ...string) *hookRun {
	t.Helper()
	payload, err := os.ReadFile("../hook/testdata/claude-code/PermissionRequest.json")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(e.hookBin, append([]string{"hook", "claude-code", "--timeout", "60"}, extra...)...)
	cmd.SysProcAttr = u.Credential()
	cmd.Env = []string{"HOME=" + u.Home, "PATH=/usr/bin:/bin"}
	cmd.Dir = "/"
	cmd.Stdin = bytes.NewReader(payload)
	h := &hookRun{cmd: cmd, done: make(chan error, 1), start: time.Now()}
	cmd.Stdout, cmd.Stderr = &h.out, &h.errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { h.done <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return h
}

// wait waits for the hook to end and returns what it printed.
func (h *hookRun) wait(t testing.TB, limit time.Duration) (string, time.Duration) {
	t.Helper()
	select {
	case err := <-h.done:
		if err != nil {
			t.Fatalf("hook: %v\n%s", err, h.errOut.String())
		}
		return h.out.String(), time.Since(h.start)
	case <-time.After(limit):
		t.Fatalf("the hook did not end within %v", limit)
	}
	return "", 0
}

// nextAsked waits for the next question the broker is asked.
func (e *sshEnv) nextAsked(t testing.TB) question.Question {
	t.Helper()
	select {
	case q := <-e.asked:
		return q
	case <-time.After(30 * time.Second):
		t.Fatal("no question was asked")
	}
	return question.Question{}
}

// endedOf waits for question id to end and returns its event.
func (e *sshEnv) endedOf(t testing.TB, id string) question.Event {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case ev := <-e.ended:
			if ev.Question.ID == id {
				return ev
			}
		case <-deadline:
			t.Fatalf("question %s did not end", id)
		}
	}
}

// curlAs runs curl as u against the host's socket, with the host's key
// when withKey, and returns the HTTP status curl saw (000: no connection).
func (e *sshEnv) curlAs(t testing.TB, u testkit.User, dir, method, path string, withKey bool) string {
	t.Helper()
	auth := ""
	if withKey {
		auth = `-H "Authorization: Bearer $(cat ` + filepath.Join(dir, datadir.RemoteKeyFile) + `)"`
	}
	script := `curl -s -o /dev/null -w '%{http_code}' --max-time 10 --unix-socket ` + filepath.Join(dir, datadir.RemoteSocket) +
		` -X ` + method + ` ` + auth + ` -d '{}' http://asktray` + path
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.SysProcAttr = u.Credential()
	cmd.Env = []string{"HOME=" + u.Home, "PATH=/usr/bin:/bin"}
	out, _ := cmd.Output()
	return strings.TrimSpace(string(out))
}

func run(t testing.TB, name string, args ...string) {
	t.Helper()
	if b, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, b)
	}
}
