//go:build realagents

package realagents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// agentSpec is what the suite needs to know about one agent.
type agentSpec struct {
	name string // as asktray names it: claude-code, codex, copilot-cli
	// setup writes the agent's own config into s.home (the fake model as
	// its provider, its folder trusted) and returns its environment.
	setup func(s *session) []string
	argv  func(s *session) []string
	// ready is what the screen shows once the agent takes a prompt, and
	// readyWithin how soon (60 s when 0).
	ready       string
	readyWithin time.Duration
	// promptWithin is how soon the model must get a prompt after its
	// Enter (5 s when 0).
	promptWithin time.Duration
	// ownPrompt is what the screen shows while the agent asks in its own
	// permission prompt.
	ownPrompt string
	// no and yes answer the agent's own prompt; stop stops a turn whose
	// hook is running.
	no, yes, stop []string
	// noNote, when not "", is what the agent shows after no while it takes
	// a note for the model (Kilo 7.7.9: "Tell Kilo what to do
	// differently"); Enter then rejects without one.
	noNote string
	// ownPromptBeside is whether the agent shows its own prompt while the
	// hook runs (Claude Code), rather than only once it gave no decision.
	ownPromptBeside bool
	// stepAside, when not "", starts what the hook prints when it steps
	// aside (the app down or frozen, a dismissal): Gemini CLI's ask in yolo
	// mode, where printing nothing would run the call.
	stepAside string
	// notifiesFirst says the agent runs its notification hook, and waits
	// for it, before it draws its own prompt (Gemini CLI 0.61.0): with the
	// app frozen that hook waits out its handshake too.
	notifiesFirst bool
	// drawSlack is how much longer than stepAside the agent may take to
	// draw its own prompt once its hook stepped aside: Qwen Code's UI had
	// marked the call as waiting for approval but drew its prompt over 3 s
	// later at load 28 on 2 cores (2026-12-05).
	drawSlack time.Duration
	// eventAfterNo says the agent sends an event of the session (its
	// turn's end) after a no in its own prompt, which ends the tray's
	// notice of that prompt (Qwen Code); Claude Code and Copilot CLI send
	// none.
	eventAfterNo bool
	// noticeWords are what the tray's notice of the agent's notification
	// says; "" when the agent has no notification event (Codex).
	noticeWords string
	// more are the scenarios the agent runs after the shared ones.
	more []scenario
	// firstRun answers what the agent asks on its first start, if anything
	// (Codex's review of the new hook).
	firstRun func(s *session)
	// beforeApp, if set, prepares the data dir before the app first starts
	// (the person's standing rules).
	beforeApp func(s *session)
	// warmUp, when not nil, runs a first turn once the agent is ready, so
	// that the scenarios' bounds do not count what only a session's first
	// turn does (opencode's session, title and tools).
	warmUp func(s *session)
}

// session is one agent running in a terminal with a scratch HOME, its hooks
// installed by 'asktray config AGENT --hooks --write', a headless app
// answering them and the fake model as its provider.
type session struct {
	t                      *testing.T
	spec                   agentSpec
	home, work, data, recs string
	model                  *model
	app                    *appProc
	term                   *term
	env                    []string
	// notice is the notice the notification scenario left in the tray,
	// which the session's next event withdraws; "" when none.
	notice string
}

// prepareSession sets everything up for an agent session: its HOME with the
// hooks installed, the app, the fake model and the agent's environment.
func prepareSession(t *testing.T, spec agentSpec) *session {
	t.Helper()
	requireAgents(t)
	root := tempDir(t)
	s := &session{t: t, spec: spec, home: filepath.Join(root, "home"), work: filepath.Join(root, "work"),
		data: filepath.Join(root, "data"), recs: filepath.Join(root, "hooks")}
	// The agent's own TMPDIR, removed with the test: the Bun-built binaries of
	// opencode, Kilo and Cline unpack a 13 MB native library (miniaudio) into
	// it on every start and never remove it (111 of them, 990 MB, had piled
	// up in /tmp here).
	tmp := filepath.Join(root, "tmp")
	for _, d := range []string{s.home, s.work, s.recs, tmp} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { s.savePayloads(root) })
	s.model = startModel(t)
	if spec.beforeApp != nil {
		spec.beforeApp(s)
	}
	s.app = startApp(t, s.data)
	base := []string{"HOME=" + s.home, "PATH=/usr/local/bin:/usr/bin:/bin", "TERM=xterm-256color", "LANG=C.UTF-8",
		"SHELL=/bin/bash", "USER=" + os.Getenv("USER"), "TMPDIR=" + tmp}
	if r := run(t, base, "config", spec.name, "--hooks", "--write", "--data-dir", s.data); r.Code != 0 {
		t.Fatalf("asktray config %s --hooks --write: %+v", spec.name, r)
	}
	s.env = append(append(base, "ASKTRAY_TEST_CHILD=1", recordEnv+"="+s.recs), spec.setup(s)...)
	return s
}

// startSession sets everything up and starts the agent in its terminal.
func startSession(t *testing.T, spec agentSpec) *session {
	t.Helper()
	s := prepareSession(t, spec)
	s.term = startTerm(t, s.work, s.env, spec.argv(s)...)
	if spec.firstRun != nil {
		spec.firstRun(s)
	}
	limit := 60 * time.Second
	if spec.readyWithin > 0 {
		limit = spec.readyWithin
	}
	s.term.expect(spec.ready, limit)
	if spec.warmUp != nil {
		spec.warmUp(s)
	}
	return s
}

// ask types a prompt that makes the model run command, and presses Enter
// again while the model has not seen it (an agent still starting up takes
// the text but not the Enter).
func (s *session) ask(command string) {
	s.t.Helper()
	prompt := "RUN<<" + command + ">>"
	s.term.typeLine(prompt)
	limit := 5 * time.Second
	if s.spec.promptWithin > 0 {
		limit = s.spec.promptWithin
	}
	for range 3 {
		if waitUntil(limit, func() bool { return s.model.saw(prompt) }) {
			return
		}
		// A TUI busy with its last turn may drop what was typed: type it
		// again when the screen does not show it, else press Enter again.
		if strings.Contains(s.term.screen(), lineTail(prompt)) {
			s.term.keys("Enter")
		} else {
			s.t.Logf("the terminal lost the typed prompt; typing it again")
			s.term.typeLine(prompt)
		}
	}
	s.t.Fatalf("the model never got the prompt %q", prompt)
}

// marker is a file in the working directory that command writes; the
// command's output is ran-NAME. (A redirection is what makes Claude Code
// ask: it runs `echo x | tee FILE` in its folder without asking.)
func (s *session) marker(name string) (path, command string) {
	path = filepath.Join(s.work, name)
	return path, "echo ran-" + name + " > " + path + " && echo ran-" + name
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// hooksFor are the recorded hook runs whose stdin holds s.
func (s *session) hooksFor(sub string) []hookRecord {
	var out []hookRecord
	for _, r := range hookRecords(s.t, s.recs) {
		if strings.Contains(r.Stdin, sub) {
			out = append(out, r)
		}
	}
	return out
}
