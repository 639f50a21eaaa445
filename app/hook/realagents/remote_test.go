//go:build realagents

package realagents

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

// TestClaudeCodeRemote (issue 36): the real Claude Code runs as a scratch
// user, a host set up from the desktop by 'asktray remote add
// USER@localhost:PORT' over a real sshd on loopback, and its Bash calls
// come to the desktop app through the host's SSH channel. remote add finds
// ~/.claude in the user's home and sets Claude Code's hooks up there with
// the host's asktray; then 'claude -p' as that user: the tray's allow runs
// the command, a deny with a note does not, and the model reads the note
// as the tool's result. Each question must name the host (set only by the
// app's socket for the host) and be asked by a hook that ran as the
// scratch user, which cannot reach the desktop's own socket; once the host
// is removed, the same call asks nobody (the hook steps aside and claude
// -p, which cannot prompt, denies by itself).
func TestClaudeCodeRemote(t *testing.T) {
	t.Parallel()
	requireAgents(t)
	testkit.NeedSSHD(t)
	u := testkit.NewUser(t, "")
	claudeBin := agentBin(t, "claude-code")
	if out, err := asUser(u, nil, "/", "/bin/sh", "-c", `test -x "$0" && test -r "$0"`, claudeBin).CombinedOutput(); err != nil {
		t.Fatalf("the scratch user cannot run %s (every dir above it must be 0755): %v %s", claudeBin, err, out)
	}
	bin := hostAsktray(t)
	work, recs := filepath.Join(u.Home, "work"), filepath.Join(u.Home, "hooks")
	for _, d := range []string{work, recs, filepath.Join(u.Home, ".claude")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(u.Home, ".claude.json"), mustJSON(map[string]any{
		"hasCompletedOnboarding": true, "theme": "dark", "numStartups": 3,
		"customApiKeyResponses": map[string]any{"approved": []string{claudeKey[len(claudeKey)-20:]}, "rejected": []string{}},
		"projects":              map[string]any{work: map[string]any{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}},
	}))
	if out, err := exec.Command("chown", "-R", u.Name+":", u.Home).CombinedOutput(); err != nil {
		t.Fatalf("chown: %v %s", err, out)
	}
	// The host's sessions find asktray (this test binary, acting as it)
	// on their PATH, as after installing the .deb there.
	sshd := testkit.StartSSHD(t, u, "SetEnv PATH="+bin+":/usr/bin:/bin "+testkit.ChildEnv)
	host := u.Name + "@localhost:" + strconv.Itoa(sshd.Port)
	model := startModel(t)
	data := tempDir(t)
	sshEnv := []string{"ASKTRAY_SSH_COMMAND=" + sshd.Command}
	app := startAppEnv(t, data, sshEnv)

	r := run(t, sshEnv, "remote", "add", host, "--data-dir", data)
	if r.Code != 0 || !strings.Contains(r.Stdout, "Set up claude-code's hooks on "+host) {
		t.Fatalf("asktray remote add %s: %+v", host, r)
	}
	t.Logf("remote add:\n%s", r.Stdout)
	settings, err := os.ReadFile(filepath.Join(u.Home, ".claude", "settings.json"))
	if err != nil || !strings.Contains(string(settings), filepath.Join(bin, "asktray")+" hook claude-code") {
		t.Fatalf("the host's ~/.claude/settings.json does not run the host's asktray (%v):\n%s", err, settings)
	}
	waitConnected(t, app, host)

	env := []string{"HOME=" + u.Home, "USER=" + u.Name, "PATH=" + bin + ":/usr/bin:/bin", "SHELL=/bin/bash", "LANG=C.UTF-8",
		testkit.ChildEnv, recordEnv + "=" + recs, "ANTHROPIC_BASE_URL=" + model.url, "ANTHROPIC_API_KEY=" + claudeKey,
		"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}
	c := remoteClaude{t: t, u: u, env: env, work: work, recs: recs, app: app, host: host}

	t.Run("allow", func(t *testing.T) {
		c.t, app.t = t, t
		path, p := c.start("remote-allow")
		q := c.asked(path)
		app.allow(q.ID)
		out := p()
		if !exists(path) || !strings.Contains(out, "REPLY<<ran-remote-allow") {
			t.Fatalf("allowed in the tray, the command ran: %v; claude -p printed:\n%s", exists(path), out)
		}
		c.hookSaid(path, `"behavior":"allow"`)
	})
	t.Run("deny with a note", func(t *testing.T) {
		c.t, app.t = t, t
		const note = "not on the build box, use the staging one"
		path, p := c.start("remote-deny")
		q := c.asked(path)
		app.answer(q.ID, "--decline", "--note", note)
		out := p()
		if exists(path) {
			t.Fatalf("denied in the tray, the command ran; claude -p printed:\n%s", out)
		}
		if !model.sentResult(note) {
			t.Fatalf("the model never read the note as the tool's result; claude -p printed:\n%s", out)
		}
		c.hookSaid(path, note)
	})
	t.Run("connection dropped mid-question", func(t *testing.T) {
		c.t, app.t = t, t
		path, p := c.start("remote-drop")
		q := c.asked(path)
		// The desktop's ssh for the host dies (the group: ASKTRAY_SSH_COMMAND
		// runs it under a shell).
		if err := syscall.Kill(-waitConnected(t, app, host), syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		out := p()
		if exists(path) {
			t.Fatalf("the connection dropped, and the command ran; claude -p printed:\n%s", out)
		}
		for _, h := range c.hooks(path) {
			if h.Stdout != "" {
				t.Fatalf("the hook printed %q after the connection dropped, want nothing (it steps aside)", h.Stdout)
			}
		}
		if res := app.waitEnded(q.ID, askBound); res.Outcome != question.Withdrawn || res.Reason != question.ReasonHostDisconnected {
			t.Fatalf("the question ended %+v, want withdrawn because the host disconnected", res)
		}
		waitConnected(t, app, host) // the app connects the host again
	})
	t.Run("history by host", func(t *testing.T) {
		var items []control.Item
		r := run(t, nil, "history", "--host", host, "--json", "--data-dir", data)
		if err := json.Unmarshal([]byte(r.Stdout), &items); err != nil {
			t.Fatalf("history --host %s: %v\n%+v", host, err, r)
		}
		found := 0
		for _, it := range items {
			if it.Question.Host != host {
				t.Fatalf("history --host %s lists a question of host %q", host, it.Question.Host)
			}
			if d := it.Question.Details + it.Question.Message; strings.Contains(d, "remote-allow") || strings.Contains(d, "remote-deny") {
				found++
			}
		}
		if found != 2 {
			t.Fatalf("history --host %s holds %d of the two questions:\n%s", host, found, r.Stdout)
		}
	})
	t.Run("removed host asks nobody", func(t *testing.T) {
		c.t, app.t = t, t
		if r := run(t, sshEnv, "remote", "rm", host, "--data-dir", data); r.Code != 0 {
			t.Fatalf("asktray remote rm: %+v", r)
		}
		path, p := c.start("remote-gone")
		out := p()
		if exists(path) {
			t.Fatalf("with the host removed the command ran; claude -p printed:\n%s", out)
		}
		if len(c.hooks(path)) == 0 {
			t.Fatalf("claude -p ran no hook for %s:\n%s", path, out)
		}
		for _, h := range c.hooks(path) {
			if h.Stdout != "" {
				t.Fatalf("with the host removed a hook printed %q, want nothing (it steps aside)", h.Stdout)
			}
		}
		for _, q := range app.pending() {
			if strings.Contains(q.Details+q.Message, path) {
				t.Fatalf("with the host removed the tray was asked: %+v", q)
			}
		}
	})
}

// remoteClaude runs 'claude -p' as the host's user.
type remoteClaude struct {
	t                *testing.T
	u                testkit.User
	work, recs, host string
	env              []string
	app              *appProc
}

// start runs claude -p as the host's user with a prompt that has the
// model run a command writing a marker file in the user's work dir; wait
// ends with claude -p and returns what it printed.
func (c *remoteClaude) start(name string) (path string, wait func() string) {
	c.t.Helper()
	t := c.t
	path = filepath.Join(c.work, name)
	w, out := claudePrintIn(t, c.work, c.env, c.u.Credential(), "echo ran-"+name+" > "+path+" && echo ran-"+name)
	return path, func() string {
		t.Helper()
		err := w()
		t.Logf("claude -p: %v", err)
		return out.String()
	}
}

// hooks are the hook runs recorded for a call about path.
func (c *remoteClaude) hooks(path string) []hookRecord {
	var out []hookRecord
	for _, r := range hookRecords(c.t, c.recs) {
		if strings.Contains(r.Stdin, path) && strings.Contains(r.Stdin, `"hook_event_name":"PermissionRequest"`) {
			out = append(out, r)
		}
	}
	return out
}

// asked waits for the pending question about path and checks that it
// names the host and its session is the host's own: the app's socket for
// the host sets both, whatever the hook sent.
func (c *remoteClaude) asked(path string) question.Question {
	c.t.Helper()
	q := c.app.waitQuestion(path, askBound)
	if q.Host != c.host || !strings.HasPrefix(q.Client.SessionID, c.host+"/") {
		c.t.Fatalf("the question names host %q, session %q; want the host %q (asked through its channel)", q.Host, q.Client.SessionID, c.host)
	}
	return q
}

// hookSaid checks that the PermissionRequest hook for path ran as the
// host's user and printed want (the desktop's decision, as it crossed back).
func (c *remoteClaude) hookSaid(path, want string) {
	c.t.Helper()
	hs := c.hooks(path)
	if len(hs) != 1 {
		c.t.Fatalf("%d PermissionRequest hooks recorded for %s, want 1", len(hs), path)
	}
	if hs[0].UID != int(c.u.UID) || !strings.Contains(hs[0].Stdout, want) {
		c.t.Fatalf("the hook ran as uid %d and printed %q; want uid %d and %q", hs[0].UID, hs[0].Stdout, c.u.UID, want)
	}
}

// waitConnected waits until the app says host is connected and returns
// the pid of its ssh for the host.
func waitConnected(t *testing.T, a *appProc, host string) int {
	t.Helper()
	var pid int
	if !waitUntil(60*time.Second, func() bool {
		r := run(t, nil, "remote", "list", "--json", "--data-dir", a.dir)
		var states []struct {
			Name, State string
			PID         int
		}
		if json.Unmarshal([]byte(r.Stdout), &states) != nil || len(states) != 1 || states[0].Name != host || states[0].State != "connected" {
			return false
		}
		pid = states[0].PID
		return pid > 0
	}) {
		t.Fatalf("the app did not connect %s within 60 s:\n%s", host, a.log.String())
	}
	return pid
}

// asUser is a command run as u in dir with exactly env.
func asUser(u testkit.User, env []string, dir, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...) //nolint:gosec // the pinned agent, or sh with a fixed script
	cmd.SysProcAttr = u.Credential()
	cmd.Env, cmd.Dir = env, dir
	return cmd
}

// hostAsktray is a dir the host's user may read holding asktray: a hard link
// of this test binary (a copy across file systems), which acts as asktray
// with testkit.ChildEnv set.
func hostAsktray(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "asktray-host") //nolint:usetesting // t.TempDir's parent is 0700
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil { //nolint:gosec // the host's user must reach it
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "asktray")
	if os.Link(exe, dst) != nil {
		b, err := os.ReadFile(exe)
		if err == nil {
			err = os.WriteFile(dst, b, 0o755) //nolint:gosec // an executable for the host's user
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dst, 0o755); err != nil { //nolint:gosec // the host's user runs it
		t.Fatal(err)
	}
	return dir
}
