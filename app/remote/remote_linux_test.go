package remote

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

// stepAsideWithin bounds how long a hook may take to step aside when the
// desktop is gone: the docs promise a second; the bound leaves room for a
// loaded CI machine.
const stepAsideWithin = 5 * time.Second

// TestOverSSH runs the remote host end to end against a real OpenSSH
// server on loopback, the host being a scratch user reached as
// user@127.0.0.1 (another user on this machine is a host like any other):
// set-up, the hook run as that user asking and answered on the desktop
// (allow; deny with a note), the host that tries to answer, list, cancel or
// change rules, another user on the host, the connection dropped mid-
// question and its reconnection, the desktop's app gone, and 'remote rm'.
func TestOverSSH(t *testing.T) {
	e := newSSHEnv(t)
	h := e.add(t)

	t.Run("allow", func(t *testing.T) {
		run := e.runHook(t, e.user)
		q := e.nextAsked(t)
		if q.Host != e.name || !strings.HasPrefix(q.Client.SessionID, e.name+"/") {
			t.Fatalf("question host %q session %q, want host %q and its own session", q.Host, q.Client.SessionID, e.name)
		}
		if err := e.broker.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`), Via: question.ViaDialog}); err != nil {
			t.Fatal(err)
		}
		out, took := run.wait(t, 30*time.Second)
		if !strings.Contains(out, `"behavior":"allow"`) {
			t.Fatalf("the hook printed %q, want an allow (stderr %q)", out, run.errOut.String())
		}
		t.Logf("allowed through SSH in %v", took)
	})

	t.Run("deny with a note", func(t *testing.T) {
		run := e.runHook(t, e.user)
		q := e.nextAsked(t)
		if err := e.broker.Answer(q.ID, question.Response{Action: question.Decline, Note: "use npm ci instead", Via: question.ViaDialog}); err != nil {
			t.Fatal(err)
		}
		out, _ := run.wait(t, 30*time.Second)
		if !strings.Contains(out, `"behavior":"deny"`) || !strings.Contains(out, "use npm ci instead") {
			t.Fatalf("the hook printed %q, want a deny with the note", out)
		}
	})

	t.Run("the host only asks", func(t *testing.T) {
		run := e.runHook(t, e.user)
		q := e.nextAsked(t)
		for _, c := range []struct{ method, path string }{
			{"GET", "/v1/pending"}, {"GET", "/v1/questions/" + q.ID}, {"POST", "/v1/questions/" + q.ID + "/answer"},
			{"POST", "/v1/questions/" + q.ID + "/snooze"}, {"GET", "/v1/history"}, {"GET", "/v1/rules"},
			{"DELETE", "/v1/rules/x"}, {"POST", "/v1/rules"}, {"POST", "/v1/away"}, {"POST", "/v1/quit"}, {"POST", "/v1/hook"}, {"GET", "/v1/remotes"},
		} {
			if got := e.curlAs(t, e.user, h.Dir, c.method, c.path, true); got != "404" {
				t.Errorf("the host's %s %s with its key: %s, want 404", c.method, c.path, got)
			}
		}
		if got := e.curlAs(t, e.user, h.Dir, "POST", "/v2/hook", false); got != "401" {
			t.Errorf("a hook call without the key: %s, want 401", got)
		}
		if p := e.broker.Pending(); len(p) != 1 || p[0].ID != q.ID {
			t.Fatalf("pending after the host's attempts: %+v", p)
		}
		_ = e.broker.Answer(q.ID, question.Response{Action: question.Cancel, Via: question.ViaDialog})
		if out, _ := run.wait(t, 30*time.Second); strings.Contains(out, "allow") {
			t.Fatalf("a dismissed question allowed: %q", out)
		}
	})

	t.Run("another user on the host is refused", func(t *testing.T) {
		other := testkit.NewUser(t, "")
		run := e.runHook(t, other, "--data-dir", filepath.Dir(h.Dir))
		out, _ := run.wait(t, 30*time.Second)
		if out != "" {
			t.Fatalf("another user's hook printed %q", out)
		}
		if got := e.curlAs(t, other, h.Dir, "POST", "/v2/hook", false); got != "000" {
			t.Fatalf("another user reached the host's socket: HTTP %s", got)
		}
		select {
		case q := <-e.asked:
			t.Fatalf("another user asked %+v", q)
		default:
		}
	})

	t.Run("hook gone, host still connected", func(t *testing.T) {
		run := e.runHook(t, e.user)
		q := e.nextAsked(t)
		st := e.waitState(t, Connected)
		// The agent kills its hook (its own prompt was answered): the
		// question ends withdrawn, and not as the host's disconnection.
		if err := run.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		if ev := e.endedOf(t, q.ID); ev.Result == nil || ev.Result.Outcome != question.Withdrawn || ev.Result.Reason != "" {
			t.Fatalf("the question ended %+v, want withdrawn by the agent", ev.Result)
		}
		if now := e.waitState(t, Connected); now.PID != st.PID {
			t.Fatalf("the host's connection changed (ssh %d, then %d)", st.PID, now.PID)
		}
	})

	t.Run("connection dropped mid-question", func(t *testing.T) {
		run := e.runHook(t, e.user)
		q := e.nextAsked(t)
		st := e.waitState(t, Connected)
		// ssh dies (ASKTRAY_SSH_COMMAND runs it under a shell: the group).
		if err := syscall.Kill(-st.PID, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		dropped := time.Now()
		out, _ := run.wait(t, 30*time.Second)
		if out != "" {
			t.Fatalf("the hook printed %q after the connection dropped, want nothing (its agent asks)", out)
		}
		t.Logf("the hook stepped aside %v after the drop", time.Since(dropped))
		if ev := e.endedOf(t, q.ID); ev.Result == nil || ev.Result.Outcome != question.Withdrawn || ev.Result.Reason != question.ReasonHostDisconnected {
			t.Fatalf("the question ended %+v, want withdrawn because the host disconnected", ev.Result)
		}
		e.waitState(t, Connected) // reconnected after the back-off
	})

	t.Run("connection silent mid-question", func(t *testing.T) {
		run := e.runHook(t, e.user)
		q := e.nextAsked(t)
		st := e.waitState(t, Connected)
		// The hook took the acknowledgement: past its handshake it is
		// still waiting (without it, it would have stepped aside by then).
		select {
		case err := <-run.done:
			t.Fatalf("the hook ended before the desktop went silent: %v %q", err, run.out.String())
		case <-time.After(2 * hook.Handshake):
		}
		// ssh stops: the TCP connection stays open and carries nothing, as
		// when a network goes away without closing it.
		if err := syscall.Kill(-st.PID, syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		stopped := time.Now()
		out, _ := run.wait(t, hook.RemoteSilence+30*time.Second)
		took := time.Since(stopped)
		_ = syscall.Kill(-st.PID, syscall.SIGCONT)
		if out != "" || took < hook.RemoteSilence-hook.Heartbeat {
			t.Fatalf("the hook printed %q after %v of silence, want nothing after about %v", out, took, hook.RemoteSilence)
		}
		t.Logf("the hook stepped aside after %v of silence", took)
		if ev := e.endedOf(t, q.ID); ev.Result == nil || ev.Result.Outcome != question.Withdrawn {
			t.Fatalf("the question ended %+v, want withdrawn", ev.Result)
		}
	})

	t.Run("desktop app gone", func(t *testing.T) {
		e.mgr.Close()
		run := e.runHook(t, e.user)
		out, took := run.wait(t, 30*time.Second)
		if out != "" || took > stepAsideWithin {
			t.Fatalf("with the app gone the hook printed %q after %v, want nothing within %v", out, took, stepAsideWithin)
		}
		t.Logf("with the app gone the hook stepped aside in %v", took)
		if err := e.mgr.Sync(); err != nil {
			t.Fatal(err)
		}
		e.waitState(t, Connected)
	})

	t.Run("remote rm ends it", func(t *testing.T) {
		run := e.runHook(t, e.user)
		q := e.nextAsked(t)
		path := filepath.Join(e.dataDir, datadir.HostsFile)
		hs, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		hs.Remove(e.name)
		if err := Save(path, hs); err != nil {
			t.Fatal(err)
		}
		if err := e.mgr.Sync(); err != nil {
			t.Fatal(err)
		}
		out, _ := run.wait(t, 30*time.Second)
		if out != "" {
			t.Fatalf("the hook printed %q after rm", out)
		}
		if ev := e.endedOf(t, q.ID); ev.Result == nil || ev.Result.Outcome != question.Withdrawn || ev.Result.Reason != "" {
			t.Fatalf("the question ended %+v, want withdrawn (removed, not disconnected)", ev.Result)
		}
		if len(e.mgr.States()) != 0 {
			t.Fatalf("a removed host is still served: %+v", e.mgr.States())
		}
		if err := Teardown(t.Context(), e.sshCmd, h); err != nil {
			t.Fatal(err)
		}
		again := e.runHook(t, e.user)
		if out, took := again.wait(t, 30*time.Second); out != "" || took > stepAsideWithin {
			t.Fatalf("after rm the hook printed %q after %v", out, took)
		}
	})
}
