//go:build realagents

package realagents

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

// cline is Cline's terminal UI with the fake model as its
// openai-compatible provider, asktray's hooks/PreToolUse as 'asktray config
// cline --hooks --write' installs it and an ask rule for its shell tool,
// run_commands: every command comes to the tray from the hook, which Cline
// waits for before anything else. Cline's auto-approve is on at the start
// (its default), where the tray's allow is final and its deny stops the
// task; the later turns turn it off (Shift+Tab), where Cline asks in its own
// prompt ("Cline needs permission / Approve tool call?") after the hook.
var cline = agentSpec{
	name:      "cline",
	beforeApp: func(s *session) { askRule(s, "cline", "run_commands") },
	setup:     clineSetup,
	argv:      func(s *session) []string { return []string{agentBin(s.t, "cline")} },
	ready:     "What can I do for you?",
	firstRun:  func(s *session) { s.t.Cleanup(func() { stopClineHub(s) }) },
	ownPrompt: "Approve tool call?",
	no:        []string{"n"},
	yes:       []string{"y"},
	stop:      []string{"Escape"},
}

// TestCline (issue 34): the real Cline. With auto-approve on: allow (the
// command runs) and deny (the task stops before it runs). With auto-approve
// off: the tray's allow is asked again in Cline's own prompt, a dismissal
// leaves the call to that prompt, and with the app down or frozen the hook
// prints nothing within about a second and Cline asks itself. Each turn
// fails unless a hook ran for its call.
func TestCline(t *testing.T) {
	t.Parallel()
	s := startSession(t, cline)
	runTurns(t, s, []scenario{
		{"allow", allow}, {"deny stops the task", clineDeny},
		{"auto-approve off", clineAutoApproveOff}, {"allowed, then asked again", clineAskedTwice},
		{"dismiss", dismiss}, {"app down", appDown}, {"app frozen", appFrozen},
		{"Escape, then quit, while the tray asks", clineQuit},
	})
}

// clineSetup writes Cline's provider (the fake model), its settings and
// its notices as seen, and returns its environment: no auto-update, and its
// hub daemon, which its terminal UI starts and which outlives it, on a port
// of its own.
func clineSetup(s *session) []string {
	dir := filepath.Join(s.home, ".cline", "data")
	writeFile(s.t, filepath.Join(dir, "settings", "providers.json"), mustJSON(map[string]any{
		"version": 1, "lastUsedProvider": "openai-compatible",
		"providers": map[string]any{"openai-compatible": map[string]any{
			"settings":  map[string]any{"provider": "openai-compatible", "apiKey": "fake", "model": fakeModel, "baseUrl": s.model.url + "/v1"},
			"updatedAt": "2026-12-05T00:00:00.000Z", "tokenSource": "manual",
		}},
	}))
	writeFile(s.t, filepath.Join(dir, "settings", "global-settings.json"), `{"telemetryOptOut": true, "autoUpdateEnabled": false}`)
	writeFile(s.t, filepath.Join(dir, "settings", "cli-notices.json"), `{"shown": {"cline-cli-cline-pass-intro": true, "cline-cli-desktop-launch": true}}`)
	writeFile(s.t, filepath.Join(dir, "cache", "feature-flags.json"), `{}`)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	return []string{"CLINE_NO_AUTO_UPDATE=1", "CLINE_BUILD_ENV=production", "CLINE_DISABLE_CLINE_PASS_NOTICE=1",
		"CLINE_HUB_PORT=" + strconv.Itoa(port)}
}

// stopClineHub kills the hub daemon this session's Cline started (its
// command line names the session's working folder), which outlives Cline.
func stopClineHub(s *session) {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range procs {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		argv := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		if strings.Contains(strings.Join(argv, " "), "--cline-hub-daemon") && strings.Contains(strings.Join(argv, " "), "--cwd "+s.work) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
			s.t.Logf("stopping Cline's hub daemon, pid %d", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// clineDeny: the person denies with a note; the hook prints Cline's cancel,
// the command does not run and the task stops: no result of the call ever
// reaches the model, nor the note (Cline has no way to pass it on).
func clineDeny(t *testing.T, s *session) {
	path, cmd := s.marker("deny")
	s.ask(cmd)
	q := s.app.waitQuestion(path, askBound)
	if !strings.Contains(q.Details, "Deny stops Cline's whole task") {
		t.Errorf("the dialog does not say what a deny does: %q", q.Details)
	}
	note := "not-now-cline"
	s.app.answer(q.ID, "--decline", "--note", note)
	var rec hookRecord
	if !waitUntil(askBound, func() bool {
		for _, r := range s.hooksFor(path) {
			rec = r
			return true
		}
		return false
	}) {
		t.Fatal("no hook run was recorded for the call")
	}
	if !strings.Contains(rec.Stdout, `"cancel":true`) || !strings.Contains(rec.Stdout, note) {
		t.Errorf("the hook printed %q, want Cline's cancel with the note", rec.Stdout)
	}
	// Cancelled, the call never runs and the model hears nothing more; let
	// through, it ran and its result reached the model within a second or
	// two (the allow turn): five seconds of neither is the task stopped.
	if waitUntil(5*time.Second, func() bool { return exists(path) || s.model.sentResult(path) || s.model.sentResult(note) }) {
		t.Errorf("the task went on after the deny: the command ran %v, its result reached the model %v, the note %v",
			exists(path), s.model.sentResult(path), s.model.sentResult(note))
	}
	if res := s.app.waitEnded(q.ID, time.Second); res.Outcome != question.Declined || !strings.Contains(res.Note, note) {
		t.Errorf("result %+v, want declined with the note kept", res)
	}
}

// clineQuit: Escape while the tray asks sends no event, so the question
// stays open; quitting Cline (Ctrl+C, pressed again while it runs) ends
// the hook's parent, and the question ends withdrawn by the agent. Nothing
// ran.
func clineQuit(t *testing.T, s *session) {
	path, cmd := s.marker("quit")
	s.ask(cmd)
	q := s.app.waitQuestion(path, askBound)
	s.term.keys("Escape")
	if waitUntil(3*time.Second, func() bool { it, ok := s.app.item(q.ID); return ok && it.Result != nil }) {
		t.Errorf("the question ended at Escape, which Cline 3.0.65 tells no hook: docs/hooks.md says it stays")
	}
	s.spec.stop = []string{"C-c"}
	at := time.Now()
	s.stopTurn(q.ID)
	res := s.app.waitEnded(q.ID, askBound)
	if res.Outcome != question.Withdrawn || res.DecidedBy != question.ByAgent {
		t.Errorf("after Cline quit the question ended %+v, want withdrawn by the agent", res)
	}
	t.Logf("the question ended %v after the first Ctrl+C", res.DecidedAt.Sub(at).Round(10*time.Millisecond))
	if exists(path) {
		t.Errorf("the command ran")
	}
}

// clineAutoApproveOff turns Cline's auto-approve off (Shift+Tab) for the
// turns after it.
func clineAutoApproveOff(t *testing.T, s *session) {
	s.term.expect("Auto-approve all enabled", 5*time.Second)
	s.term.keys("BTab")
	s.term.expect("Auto-approve all disabled", 10*time.Second)
}

// clineAskedTwice: with auto-approve off, the tray's allow prints nothing
// and Cline asks in its own prompt all the same: the person is asked
// twice. A no there stops the call.
func clineAskedTwice(t *testing.T, s *session) {
	path, cmd := s.marker("twice")
	s.ask(cmd)
	q := s.app.waitQuestion(path, askBound)
	s.app.allow(q.ID)
	s.term.expect(s.spec.ownPrompt, askBound)
	for _, r := range s.hooksFor(path) {
		if r.Stdout != "" {
			t.Errorf("the hook printed %q for the tray's allow, want nothing", r.Stdout)
		}
	}
	s.sayNo()
	if exists(path) {
		t.Errorf("the command ran after a no in Cline's own prompt")
	}
}
