package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/hookservice"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// hookApp is a control socket served the way the app serves it, with a
// broker and a policy, in a data dir the hook command finds.
type hookApp struct {
	dir   string
	b     *question.Broker
	pol   *policy.Policy
	store history.Store
	asked chan question.Question
}

func newHookApp(t *testing.T) *hookApp {
	t.Helper()
	dir := shortTempDir(t)
	if err := datadir.Ensure(dir); err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Open(filepath.Join(dir, policy.File))
	if err != nil {
		t.Fatal(err)
	}
	h := &hookApp{dir: dir, pol: pol, store: historytest.New(t), asked: make(chan question.Question, 8)}
	h.b = question.NewBroker(question.Config{Journal: h.store, Gate: pol.Gate})
	h.b.Subscribe(func(ev question.Event) {
		if ev.Type == question.EventAsked {
			h.asked <- ev.Question
		}
	})
	hooks := &hookservice.Service{Broker: h.b, Policy: pol,
		Settings: func() hookservice.Settings { return hookservice.Settings{Deadline: time.Minute} }}
	s := &control.Server{Broker: h.b, Store: h.store, Policy: pol, Hooks: hooks, Status: func() control.Status { return control.Status{} }}
	if err := s.Listen(filepath.Join(dir, datadir.SocketFile)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = s.Shutdown(context.Background())
		_ = h.b.Close()
	})
	// The hook answers only to the process the instance file names.
	writeInstancePID(t, dir, os.Getpid())
	return h
}

// writeInstancePID writes an instance file naming pid into dir, as the app
// that serves dir's socket does.
func writeInstancePID(t *testing.T, dir string, pid int) {
	t.Helper()
	b, _ := json.Marshal(datadir.Instance{PID: pid, DataDir: dir})
	if err := os.WriteFile(filepath.Join(dir, datadir.InstanceFile), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

type hookRun struct {
	code        int
	out, errOut string
	took        time.Duration
}

// runHook runs `asktray hook ARGS` in this process with stdin.
func runHook(stdin []byte, args ...string) hookRun {
	var out, errOut bytes.Buffer
	start := time.Now()
	code := Main(context.Background(), append([]string{"hook"}, args...), IO{In: bytes.NewReader(stdin), Out: &out, Err: &errOut}, nil)
	return hookRun{code, out.String(), errOut.String(), time.Since(start)}
}

func goHook(stdin []byte, args ...string) <-chan hookRun {
	ch := make(chan hookRun, 1)
	go func() { ch <- runHook(stdin, args...) }()
	return ch
}

func recorded(t *testing.T, a hook.Agent, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "hook", "testdata", string(a), file+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func wait[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal("timed out")
	}
	var zero T
	return zero
}

// TestHook_RecordedPayloads feeds each agent's recorded PermissionRequest to
// the command, answers in the tray (the broker) or with `asktray answer`,
// and checks the exact output.
func TestHook_RecordedPayloads(t *testing.T) {
	t.Parallel()
	h := newHookApp(t)
	cases := []struct {
		agent       hook.Agent
		file        string
		extra       []string
		allow, deny string
	}{
		{hook.ClaudeCode, "PermissionRequest", nil,
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`,
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"The user denied this action in Asktray. Their note: \"keep node_modules\". Do not do it, and do not try to reach the same result another way; ask the user or continue without it."}}}`},
		{hook.Codex, "PermissionRequest", nil,
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`,
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"The user denied this action in Asktray. Their note: \"keep node_modules\". Do not do it, and do not try to reach the same result another way; ask the user or continue without it."}}}`},
		{hook.CopilotCLI, "permissionRequest", []string{"--event", "permissionRequest"},
			`{"behavior":"allow"}`,
			`{"behavior":"deny","message":"The user denied this action in Asktray. Their note: \"keep node_modules\". Do not do it, and do not try to reach the same result another way; ask the user or continue without it."}`},
	}
	for _, c := range cases {
		args := append([]string{string(c.agent), "--data-dir", h.dir}, c.extra...)
		run := goHook(recorded(t, c.agent, c.file), args...)
		q := wait(t, h.asked)
		if q.Client.Name != string(c.agent) || q.Tool != hook.Tool || !strings.Contains(q.Details, "**Working directory:**") {
			t.Fatalf("%s: question %+v", c.agent, q)
		}
		if err := h.b.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`), Via: question.ViaDialog}); err != nil {
			t.Fatal(err)
		}
		if r := wait(t, run); r.code != 0 || strings.TrimSpace(r.out) != c.allow || r.errOut != "" {
			t.Errorf("%s allow: %+v\nwant %s", c.agent, r, c.allow)
		}
		run = goHook(recorded(t, c.agent, c.file), args...)
		q = wait(t, h.asked)
		var out, errOut bytes.Buffer
		if code := Main(context.Background(), []string{"answer", q.ID, "--decline", "--note", "keep node_modules", "--data-dir", h.dir}, IO{Out: &out, Err: &errOut}, nil); code != 0 {
			t.Fatalf("answer: %d %s", code, errOut.String())
		}
		if r := wait(t, run); r.code != 0 || strings.TrimSpace(r.out) != c.deny {
			t.Errorf("%s deny: %+v\nwant %s", c.agent, r, c.deny)
		}
	}
}

// TestHook_PrintsNothingWhenItCannotAsk: no app, malformed input, away, a
// timeout: exit 0 and no output, quickly, so the agent asks in its prompt.
func TestHook_PrintsNothingWhenItCannotAsk(t *testing.T) {
	t.Parallel()
	payload := recorded(t, hook.ClaudeCode, "PermissionRequest")
	for _, a := range hook.Agents() {
		r := runHook(payload, string(a), "--data-dir", filepath.Join(t.TempDir(), "none"), "--event", "permissionRequest")
		if r.code != 0 || r.out != "" || r.errOut != "" || r.took > time.Second {
			t.Errorf("%s, no app: %+v", a, r)
		}
	}
	h := newHookApp(t)
	for _, bad := range []string{"", "not json", `{"hook_event_name":"PermissionRequest"}`, `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":"rm"}`} {
		r := runHook([]byte(bad), "claude-code", "--data-dir", h.dir)
		if r.code != 0 || r.out != "" || strings.Count(r.errOut, "\n") != 1 || !strings.HasPrefix(r.errOut, "asktray hook: ") {
			t.Errorf("malformed %q: %+v", bad, r)
		}
	}
	// An agent that leaves stdin open: the payload is the first JSON value.
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.Close() })
	go func() { _, _ = pw.Write(payload) }()
	var out, errOut bytes.Buffer
	start := time.Now()
	if code := Main(context.Background(), []string{"hook", "codex", "--timeout", "4", "--data-dir", h.dir}, IO{In: pr, Out: &out, Err: &errOut}, nil); code != 0 || out.Len() != 0 || time.Since(start) > 3*time.Second {
		t.Errorf("stdin left open: %d %q %q after %v", code, out.String(), errOut.String(), time.Since(start))
	}
	if q := wait(t, h.asked); q.Client.Name != "codex" {
		t.Errorf("asked %+v", q)
	}
	if r := runHook(payload, "cursor", "--data-dir", h.dir); r.code != 0 || r.out != "" || strings.Count(r.errOut, "\n") != 1 {
		t.Errorf("unknown agent: %+v", r)
	}
	// A timeout: the agent's hook timeout of 4 s leaves a 1 s wait.
	r := runHook(payload, "claude-code", "--timeout", "4", "--data-dir", h.dir)
	if r.code != 0 || r.out != "" || r.took > 3*time.Second {
		t.Errorf("timeout: %+v", r)
	}
	q := wait(t, h.asked)
	if _, res, _ := h.b.Get(q.ID); res == nil || res.Outcome != question.Withdrawn || res.Reason != question.ReasonTimeout {
		t.Errorf("after the timeout: %+v", res)
	}
	if err := h.pol.SetAway(true); err != nil {
		t.Fatal(err)
	}
	if r := runHook(payload, "codex", "--data-dir", h.dir); r.code != 0 || r.out != "" || r.took > time.Second {
		t.Errorf("away: %+v", r)
	}
}

// TestHook_SaysWhenItHasNoDataDir: without a data dir to find (no
// --data-dir, no ASKTRAY_DATA_DIR, no home) the hook prints nothing and says
// why in one line on stderr, as its doc promises.
func TestHook_SaysWhenItHasNoDataDir(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the data dir falls back to the home dir only on Linux and the BSDs")
	}
	t.Setenv("ASKTRAY_DATA_DIR", "")
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "")
	r := runHook(recorded(t, hook.ClaudeCode, "PermissionRequest"), "claude-code")
	if r.code != 0 || r.out != "" || strings.Count(r.errOut, "\n") != 1 || !strings.HasPrefix(r.errOut, "asktray hook: data dir: ") {
		t.Fatalf("no data dir: %+v", r)
	}
}

// TestHook_SessionMovedOnClosesTheApproval: the person answers in Claude
// Code's terminal; its PostToolUse hook ends the tray question.
func TestHook_SessionMovedOnClosesTheApproval(t *testing.T) {
	t.Parallel()
	h := newHookApp(t)
	run := goHook(recorded(t, hook.ClaudeCode, "PermissionRequest"), "claude-code", "--data-dir", h.dir)
	q := wait(t, h.asked)
	if r := runHook(recorded(t, hook.ClaudeCode, "PostToolUse"), "claude-code", "--data-dir", h.dir); r.code != 0 || r.out != "" {
		t.Fatalf("PostToolUse: %+v", r)
	}
	if r := wait(t, run); r.code != 0 || r.out != "" {
		t.Fatalf("the waiting hook printed %+v", r)
	}
	rec, err := h.store.Get(context.Background(), q.ID)
	if err != nil || rec.Result == nil || rec.Result.Outcome != question.Withdrawn || rec.Result.Reason != question.ReasonAnsweredInAgent {
		t.Fatalf("history: %+v %v", rec.Result, err)
	}
}

// TestHook_ParentExitEndsTheQuestion: the agent exits while the hook waits.
// Not parallel: it stands in for getppid.
func TestHook_ParentExitEndsTheQuestion(t *testing.T) {
	h := newHookApp(t)
	parent := make(chan int, 1)
	parent <- os.Getppid()
	getppid = func() int {
		p := <-parent
		parent <- p
		return p
	}
	parentPoll = 10 * time.Millisecond
	parentOf = func(int) (int, bool) { return 0, false }
	t.Cleanup(func() { getppid, parentOf, parentPoll = os.Getppid, procParent, 200*time.Millisecond })
	run := goHook(recorded(t, hook.Codex, "PermissionRequest"), "codex", "--data-dir", h.dir)
	q := wait(t, h.asked)
	<-parent
	parent <- 1 // re-parented to init
	if r := wait(t, run); r.code != 0 || r.out != "" {
		t.Fatalf("hook printed %+v", r)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, res, _ := h.b.Get(q.ID); res != nil {
			if res.Outcome != question.Withdrawn {
				t.Fatalf("outcome %+v", res)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the question stayed open after the agent exited")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestHook_ShellParentExitEndsTheQuestion: the agent ran the hook through a
// shell that stays; the agent exits and the shell is re-parented.
// Not parallel: it stands in for parentOf.
func TestHook_ShellParentExitEndsTheQuestion(t *testing.T) {
	h := newHookApp(t)
	grand := make(chan int, 1)
	grand <- 4242
	parentOf = func(int) (int, bool) {
		g := <-grand
		grand <- g
		return g, true
	}
	parentPoll = 10 * time.Millisecond
	t.Cleanup(func() { parentOf, parentPoll = procParent, 200*time.Millisecond })
	run := goHook(recorded(t, hook.Codex, "PermissionRequest"), "codex", "--data-dir", h.dir)
	q := wait(t, h.asked)
	<-grand
	grand <- 1
	if r := wait(t, run); r.code != 0 || r.out != "" {
		t.Fatalf("hook printed %+v", r)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, res, _ := h.b.Get(q.ID); res != nil && res.Outcome == question.Withdrawn {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the question stayed open after the agent exited")
		}
	}
}

func TestProcParent(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc on this system")
	}
	if p, ok := procParent(os.Getpid()); !ok || p != os.Getppid() {
		t.Fatalf("procParent(self) = %d, %v; want %d", p, ok, os.Getppid())
	}
	if _, ok := procParent(1 << 30); ok {
		t.Fatal("a missing process has a parent")
	}
}

// runStdin is run with stdin.
func runStdin(t *testing.T, dir string, stdin []byte, args ...string) result {
	t.Helper()
	cmd := exec.Command(os.Args[0], append(args, "--data-dir", dir)...)
	cmd.Env = append(os.Environ(), "ASKTRAY_TEST_CHILD=1")
	cmd.SysProcAttr = noTerminal()
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	return result{code, out.String(), errb.String()}
}

// TestHook_Processes runs the hook as the agent does, a process reading
// stdin, against a running app process, declined with `asktray answer`;
// the decision is in the history with the session and working directory.
func TestHook_Processes(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	payload := recorded(t, hook.ClaudeCode, "PermissionRequest")
	if r := runStdin(t, dir, payload, "hook", "claude-code"); r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Fatalf("no app: %+v", r)
	}
	startApp(t, dir)
	done := make(chan result, 1)
	go func() { done <- runStdin(t, dir, payload, "hook", "claude-code") }()
	var id string
	for deadline := time.Now().Add(20 * time.Second); id == ""; time.Sleep(20 * time.Millisecond) {
		var qs []question.Question
		if r := run(t, dir, "pending", "--json"); r.code == 0 && json.Unmarshal([]byte(r.stdout), &qs) == nil && len(qs) == 1 {
			id = qs[0].ID
		}
		select {
		case r := <-done:
			// A machine loaded enough (race-built processes, parallel
			// tests) that the app took over hook.Handshake to acknowledge:
			// the hook stepped aside, as it must; ask again.
			if id != "" || r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "stepping aside") {
				t.Fatalf("the hook ended before it was answered: %+v", r)
			}
			t.Logf("the hook stepped aside (%s); again", strings.TrimSpace(r.stderr))
			go func() { done <- runStdin(t, dir, payload, "hook", "claude-code") }()
		default:
		}
		if id == "" && time.Now().After(deadline) {
			t.Fatal("the hook's question never became pending")
		}
	}
	// Approving needs a terminal (an agent must not approve through the
	// CLI); declining does not.
	if r := run(t, dir, "answer", id, "--decline", "--note", "not now"); r.code != 0 {
		t.Fatalf("answer: %+v", r)
	}
	r := wait(t, done)
	if want := `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"The user denied this action in Asktray. Their note: \"not now\". Do not do it, and do not try to reach the same result another way; ask the user or continue without it."}}}` + "\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("hook: %+v", r)
	}
	h := run(t, dir, "history", "--client", "claude-code", "--json")
	var items []control.Item
	if err := json.Unmarshal([]byte(h.stdout), &items); err != nil || len(items) != 1 {
		t.Fatalf("history %s %v", h.stdout, err)
	}
	it := items[0]
	if it.Result == nil || it.Result.Outcome != question.Declined || it.Question.Client.SessionID != "abc123" || !strings.Contains(it.Question.Details, "/home/u/app") {
		t.Fatalf("history item %+v", it)
	}
}

// TestHook_InstalledEntryWaitsForAnyDeadline: the entry setup writes has no
// --timeout (finding 7 of issue 25: the entry must not change with the
// deadline), so without one the hook may wait as long as the longest deadline
// a person can set; the app holds it to the person's own.
func TestHook_InstalledEntryWaitsForAnyDeadline(t *testing.T) {
	t.Parallel()
	if hook.MaxDeadline != question.MaxTimeout {
		t.Fatalf("hook.MaxDeadline %v, question.MaxTimeout %v", hook.MaxDeadline, question.MaxTimeout)
	}
	if w := hookWait(0); w < question.MaxTimeout || w+hook.Margin != time.Duration(hook.InstalledTimeout())*time.Second {
		t.Errorf("wait without --timeout: %v", w)
	}
	if w := hookWait(40); w != 37*time.Second {
		t.Errorf("wait with --timeout 40: %v", w)
	}
}

// TestHook_CopilotEventFromHookName runs the command line setup installs for
// Copilot CLI (no --event) on a payload that names its event in hookName, as
// Copilot CLI 1.0.102 sends it (finding 8 of issue 25).
func TestHook_CopilotEventFromHookName(t *testing.T) {
	t.Parallel()
	h := newHookApp(t)
	args := hook.Entries(hook.CopilotCLI, "asktray", h.dir)[0].Args[2:]
	payload := []byte(`{"hookName":"permissionRequest","sessionId":"cp-1","timestamp":1764720000000,"cwd":"/w","toolName":"bash","toolInput":{"command":"ls"}}`)
	run := goHook(payload, args...)
	q := wait(t, h.asked)
	if q.Client.Name != "copilot-cli" || q.Client.SessionID != "cp-1" {
		t.Fatalf("question %+v", q)
	}
	if err := h.b.Answer(q.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`), Via: question.ViaDialog}); err != nil {
		t.Fatal(err)
	}
	if r := wait(t, run); r.code != 0 || strings.TrimSpace(r.out) != `{"behavior":"allow"}` {
		t.Errorf("allow: %+v", r)
	}
}
