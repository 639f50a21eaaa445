//go:build linux

package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/internal/testkit"
)

// asUser runs the real asktray binary as a user the test made, with its
// data dir, the way that person runs it.
type asUser struct {
	t    *testing.T
	bin  string
	user testkit.User
	dir  string
}

func (u *asUser) command(args ...string) *exec.Cmd {
	cmd := exec.Command(u.bin, append(args, "--data-dir", u.dir)...) //nolint:gosec // the binary the test built
	cmd.Env = []string{"HOME=" + u.user.Home, "PATH=/usr/bin:/bin", armDelayEnv + "=0"}
	cmd.SysProcAttr = u.user.Credential()
	return cmd
}

// startRealApp makes a user with password, starts the real binary headless
// as that user and waits until it serves.
func startRealApp(t *testing.T, password string) *asUser {
	t.Helper()
	return startRealAppWith(t, password, nil)
}

// startRealAppWith is startRealApp with files (name to content) written
// into the user's data dir, owned by the user, before the app starts.
func startRealAppWith(t *testing.T, password string, files map[string]string) *asUser {
	t.Helper()
	testkit.NeedRoot(t, "to make a user with a known password")
	u := &asUser{t: t, bin: testkit.Give(t, testkit.Binary(t)), user: testkit.NewUser(t, password)}
	u.dir = filepath.Join(u.user.Home, "data")
	if len(files) > 0 {
		if err := os.Mkdir(u.dir, 0o700); err != nil {
			t.Fatal(err)
		}
		for name, content := range files {
			if err := os.WriteFile(filepath.Join(u.dir, name), []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if out, err := exec.Command("chown", "-R", fmt.Sprintf("%d:%d", u.user.UID, u.user.GID), u.dir).CombinedOutput(); err != nil {
			t.Fatalf("chown: %v %s", err, out)
		}
	}
	app := u.command("--headless", "--addr", "127.0.0.1:0")
	var stderr bytes.Buffer
	app.Stderr = &stderr
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = app.Process.Kill()
		_ = app.Wait()
	})
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if testkit.Run(t, u.command("url")).Code == 0 {
			return u
		}
		if time.Now().After(deadline) {
			t.Fatalf("the app did not come up as %s:\n%s", u.user.Name, &stderr)
		}
	}
}

// hook starts `asktray hook claude-code` as the user with a PermissionRequest
// for command, and returns the ID of its question and a channel with what
// the hook printed when it ends.
func (u *asUser) hook(command string) (string, <-chan string) {
	u.t.Helper()
	var p map[string]any
	_ = json.Unmarshal(recorded(u.t, "claude-code", "PermissionRequest"), &p)
	p["session_id"] = "s-" + command
	p["tool_input"] = map[string]any{"command": command}
	b, _ := json.Marshal(p)
	before := map[string]bool{}
	for _, q := range u.pending() {
		before[q.ID] = true
	}
	cmd := u.command("hook", "claude-code")
	cmd.Stdin = bytes.NewReader(b)
	out := make(chan string, 1)
	go func() {
		o, _ := cmd.Output()
		out <- string(o)
	}()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for _, q := range u.pending() {
			if !before[q.ID] && strings.Contains(q.Details, command) {
				return q.ID, out
			}
		}
	}
	u.t.Fatalf("the hook for %q asked nothing", command)
	return "", nil
}

func (u *asUser) pending() []control.PendingQuestion {
	u.t.Helper()
	r := testkit.Run(u.t, u.command("pending", "--json"))
	var qs []control.PendingQuestion
	if err := json.Unmarshal([]byte(r.Stdout), &qs); err != nil {
		u.t.Fatalf("pending --json: %v\n%+v", err, r)
	}
	return qs
}

// walk starts `asktray answer` on a new pseudo-terminal, the user's own
// controlling terminal in a session of its own.
func (u *asUser) walk() *ptyRun {
	u.t.Helper()
	return u.walkCmd("answer")
}

// walkCmd starts asktray with args on a new pseudo-terminal as the user.
func (u *asUser) walkCmd(args ...string) *ptyRun {
	u.t.Helper()
	cmd := u.command(args...)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
	if err != nil {
		u.t.Fatal(err)
	}
	p := &ptyRun{t: u.t, cmd: cmd, f: f, done: make(chan struct{})}
	go p.read()
	u.t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		f.Close()
	})
	return p
}

// TestCLI_RealPAM runs the real binary as a user with a known password and
// answers the hook's approvals on a terminal, checked by the machine's PAM:
// a wrong password is refused and the question stays pending; the right one
// allows (the agent's hook prints allow); the same terminal's next approval
// needs none (grace); another terminal does need it, and three wrong
// passwords lock it, even against the right one, while Deny still works.
func TestCLI_RealPAM(t *testing.T) {
	const password = "Tr0ub4dor&3 pam"
	u := startRealApp(t, password)
	q1, out1 := u.hook("make deploy-one")
	q2, out2 := u.hook("make deploy-two")
	w := u.walk()
	w.expect("deploy-one")
	w.send("1") // Allow
	w.expect("ready: ")
	w.send("not it\r")
	w.expect("refused: wrong password (1 of 3")
	w.expect("deploy-one") // still pending, shown again
	w.send("1")
	w.expect("ready: ")
	w.send(password + "\r")
	w.expect(q1 + ": answered")
	w.expect("deploy-two")
	w.send("1") // within this terminal's grace: no password
	w.expect(q2 + ": answered")
	for _, out := range []<-chan string{out1, out2} {
		if got := wait(t, out); !strings.Contains(got, `"behavior":"allow"`) {
			t.Errorf("the hook printed %q, want allow", got)
		}
	}
	if code, screen := w.wait(); code != 0 || strings.Contains(screen, password) {
		t.Fatalf("walk exit %d, or the password was echoed:\n%s", code, screen)
	}

	q3, out3 := u.hook("make deploy-three")
	w = u.walk() // a new terminal: the first one's grace does not count
	w.expect("deploy-three")
	for i := 1; i <= 3; i++ {
		w.send("1")
		w.expect("ready: ")
		w.send("guess\r")
		w.expect("refused: ")
	}
	w.expect("locked for 30s")
	w.send("1") // the right password would not be asked: the terminal is locked
	w.expect("is locked for")
	w.send("2") // Deny needs no password
	w.expect(q3 + ": declined")
	if got := wait(t, out3); !strings.Contains(got, `"behavior":"deny"`) {
		t.Errorf("the hook printed %q, want deny", got)
	}
	w.wait()
}

// TestCLI_RealPAMRulesRm: the real binary as a user with a known password,
// a deny rule under a broader allow rule. Removing the deny rule without a
// terminal is refused, a wrong password on a terminal is refused by the
// machine's PAM, and the hook stays denied; the right password removes it
// and the hook is then allowed by the allow rule.
func TestCLI_RealPAMRulesRm(t *testing.T) {
	const password = "rules Tr0ub4dor&3"
	u := startRealAppWith(t, password, map[string]string{policy.File: `{"away": false, "rules": [
	  {"id": "allowbash", "client": "claude-code", "action": "permission_request:Bash", "decision": "allow", "scope": "always", "created": "2026-12-01T10:00:00Z"},
	  {"id": "denydeploy", "client": "claude-code", "action": "permission_request:Bash", "decision": "deny", "scope": "always", "match": "command", "pattern": "make deploy", "created": "2026-12-01T10:00:00Z"}]}`})
	hookSays := func() string {
		t.Helper()
		var p map[string]any
		_ = json.Unmarshal(recorded(t, "claude-code", "PermissionRequest"), &p)
		p["tool_input"] = map[string]any{"command": "make deploy"}
		b, _ := json.Marshal(p)
		cmd := u.command("hook", "claude-code")
		cmd.Stdin = bytes.NewReader(b)
		out, _ := cmd.Output() // a rule decides at once
		return string(out)
	}
	if got := hookSays(); !strings.Contains(got, `"behavior":"deny"`) {
		t.Fatalf("before: the hook printed %q", got)
	}
	rm := u.command("rules", "rm", "denydeploy")
	rm.SysProcAttr.Setsid = true // no controlling terminal, as an agent's tool call
	if r := testkit.Run(t, rm); r.Code == 0 || !strings.Contains(r.Stderr, "the rule stays") {
		t.Fatalf("rules rm without a terminal: %+v", r)
	}
	w := u.walkCmd("rules", "rm", "denydeploy")
	w.expect("ready: ")
	w.send("not it\r")
	w.expect("refused: wrong password (1 of 3")
	w.wait()
	if got := hookSays(); !strings.Contains(got, `"behavior":"deny"`) {
		t.Fatalf("after a wrong password: the hook printed %q", got)
	}
	w = u.walkCmd("rules", "rm", "denydeploy")
	w.expect("ready: ")
	w.send(password + "\r")
	if code, screen := w.wait(); code != 0 || !strings.Contains(screen, "Removed rule denydeploy") || strings.Contains(screen, password) {
		t.Fatalf("the right password: exit %d\n%s", code, screen)
	}
	if got := hookSays(); !strings.Contains(got, `"behavior":"allow"`) {
		t.Fatalf("after the person removed the deny rule: the hook printed %q", got)
	}
}
