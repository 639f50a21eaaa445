package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/remote"
	"github.com/asktray/asktray/internal/testkit"
)

// TestCLI_RemoteOverSSH: 'asktray remote add' sets a host up over a real
// sshd (a scratch user on loopback), the running app connects it ('remote
// list' says connected), a hook run as that user asks the app, 'asktray
// pending' names the host, a deny with a note answered on the desktop
// reaches the hook's output, 'history --host' finds it, and 'remote rm'
// revokes the host: the list is empty and the next hook steps aside.
func TestCLI_RemoteOverSSH(t *testing.T) {
	testkit.NeedSSHD(t)
	u := testkit.NewUser(t, "")
	sshd := testkit.StartSSHD(t, u)
	hookBin := testkit.HookBinary(t)
	t.Setenv("ASKTRAY_SSH_COMMAND", sshd.Command)
	dir := shortTempDir(t)
	startApp(t, dir)

	if r := run(t, dir, "remote", "add", sshd.Host); r.code != 0 || !strings.Contains(r.stdout, "Added "+sshd.Host) ||
		!strings.Contains(r.stdout, "No asktray on "+sshd.Host+"'s PATH") ||
		!strings.Contains(r.stdout, "The app is connected to "+sshd.Host) && !strings.Contains(r.stdout, "still connecting to "+sshd.Host) {
		t.Fatalf("remote add: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	waitRemote(t, dir, func(s []remote.State) bool { return len(s) == 1 && s[0].State == remote.Connected })

	out, done := hookAs(t, hookBin, u)
	var q control.PendingQuestion
	waitRemote(t, dir, func([]remote.State) bool {
		var qs []control.PendingQuestion
		r := run(t, dir, "pending", "--json")
		if json.Unmarshal([]byte(r.stdout), &qs) != nil || len(qs) != 1 {
			return false
		}
		q = qs[0]
		return true
	})
	if q.Host != sshd.Host {
		t.Fatalf("pending question's host %q, want %q", q.Host, sshd.Host)
	}
	if r := run(t, dir, "pending"); !strings.Contains(r.stdout, "claude-code on "+sshd.Host[:20]) {
		t.Fatalf("'asktray pending' does not name the host:\n%s", r.stdout)
	}
	if r := run(t, dir, "answer", q.ID, "--decline", "--note", "not on the build box"); r.code != 0 {
		t.Fatalf("answer: %d %s", r.code, r.stderr)
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the hook did not end")
	}
	if s := out.String(); !strings.Contains(s, `"behavior":"deny"`) || !strings.Contains(s, "not on the build box") {
		t.Fatalf("the hook printed %q, want the deny with its note", s)
	}
	var items []control.Item
	if r := run(t, dir, "history", "--host", sshd.Host, "--json"); json.Unmarshal([]byte(r.stdout), &items) != nil || len(items) != 1 || items[0].Question.Host != sshd.Host {
		t.Fatalf("history --host: %s %s", r.stdout, r.stderr)
	}
	if r := run(t, dir, "history", "--host", ".", "--json"); json.Unmarshal([]byte(r.stdout), &items) != nil || len(items) != 0 {
		t.Fatalf("history --host . lists the host's question: %s", r.stdout)
	}

	hostDrops(t, dir, hookBin, u, sshd.Host)

	if r := run(t, dir, "remote", "rm", sshd.Host); r.code != 0 || !strings.Contains(r.stdout, "Removed") {
		t.Fatalf("remote rm: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if r := run(t, dir, "remote", "list"); !strings.Contains(r.stdout, "No remote hosts") {
		t.Fatalf("remote list after rm:\n%s", r.stdout)
	}
	start := time.Now()
	out, done = hookAs(t, hookBin, u)
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the hook did not end after rm")
	}
	if out.String() != "" || time.Since(start) > 5*time.Second {
		t.Fatalf("after rm the hook printed %q after %v", out.String(), time.Since(start))
	}
}

// hostDrops: the host's SSH connection dropped mid-question (its ssh
// killed) ends the question withdrawn because the host disconnected, as
// 'asktray history' says; the app connects the host again.
func hostDrops(t *testing.T, dir, hookBin string, u testkit.User, host string) {
	t.Helper()
	_, done := hookAs(t, hookBin, u)
	var id string
	waitRemote(t, dir, func([]remote.State) bool {
		var qs []control.PendingQuestion
		r := run(t, dir, "pending", "--json")
		if json.Unmarshal([]byte(r.stdout), &qs) != nil || len(qs) != 1 {
			return false
		}
		id = qs[0].ID
		return true
	})
	var pid int
	waitRemote(t, dir, func(s []remote.State) bool {
		if len(s) == 1 && s[0].State == remote.Connected {
			pid = s[0].PID
		}
		return pid > 0
	})
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil { // ssh under ASKTRAY_SSH_COMMAND's shell: the group
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the hook did not end after the connection dropped")
	}
	var it control.Item
	waitRemote(t, dir, func([]remote.State) bool {
		r := run(t, dir, "history", "--host", host, "--json")
		var items []control.Item
		if json.Unmarshal([]byte(r.stdout), &items) != nil || len(items) == 0 || items[0].Question.ID != id || items[0].Result == nil {
			return false
		}
		it = items[0]
		return true
	})
	if it.Result.Outcome != question.Withdrawn || it.Result.Reason != question.ReasonHostDisconnected {
		t.Fatalf("the question ended %+v, want withdrawn because the host disconnected", it.Result)
	}
	if r := run(t, dir, "history", "--host", host); !strings.Contains(r.stdout, "Withdrawn (host disconnected)") {
		t.Fatalf("'asktray history' does not say the host disconnected:\n%s", r.stdout)
	}
	waitRemote(t, dir, func(s []remote.State) bool { return len(s) == 1 && s[0].State == remote.Connected && s[0].PID != pid })
}

// waitRemote polls 'asktray remote list --json' until cond holds.
func waitRemote(t *testing.T, dir string, cond func([]remote.State) bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var s []remote.State
		r := run(t, dir, "remote", "list", "--json")
		if json.Unmarshal([]byte(r.stdout), &s) == nil && cond(s) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 60 s; remote list: %s %s", r.stdout, r.stderr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// hookAs runs the hook binary as u with Claude Code's recorded
// PermissionRequest; done closes when it has ended.
func hookAs(t *testing.T, bin string, u testkit.User) (*bytes.Buffer, chan struct{}) {
	t.Helper()
	payload, err := os.ReadFile("../hook/testdata/claude-code/PermissionRequest.json")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "hook", "claude-code", "--timeout", "60")
	cmd.SysProcAttr = u.Credential()
	cmd.Env = []string{"HOME=" + u.Home, "PATH=/usr/bin:/bin"}
	cmd.Dir = "/"
	cmd.Stdin = bytes.NewReader(payload)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-done })
	return &out, done
}

// TestCLI_RemoteRefusesBadInput: a host name ssh could read as an option,
// or that is no host name, is a usage error naming the part; removing an
// unknown host says so; no ssh runs for any of them.
func TestCLI_RemoteRefusesBadInput(t *testing.T) {
	dir := shortTempDir(t)
	t.Setenv("ASKTRAY_SSH_COMMAND", "false")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"remote", "add", "me@-oProxyCommand=touch /tmp/x"}, ExitUsage, "host name"},
		{[]string{"remote", "add", "box:99999"}, ExitUsage, "port"},
		{[]string{"remote", "add"}, ExitUsage, "usage"},
		{[]string{"remote", "frob"}, ExitUsage, "unknown remote command"},
		{[]string{"remote", "rm", "nowhere"}, ExitError, "no remote host"},
	} {
		r := run(t, dir, c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", c.args, r.code, r.stderr, c.code, c.want)
		}
	}
}
