//go:build linux

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
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

// stepAsideBound is what these tests allow a hook to step aside from an
// app that does not acknowledge: the design is hook.Handshake (1 s) plus the
// process start; the machine is shared.
const stepAsideBound = 3 * time.Second

// frozenPayloads are a permission request of each agent, as the real agents
// send them (Copilot CLI names its event in hookName), run with the command
// line setup installs (no --timeout; Copilot CLI's with its --event).
var frozenPayloads = map[hook.Agent]string{
	hook.ClaudeCode: `{"session_id":"s-cc","cwd":"/w","permission_mode":"default","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"touch /tmp/never"}}`,
	hook.Codex:      `{"session_id":"s-cx","turn_id":"t1","cwd":"/w","hook_event_name":"PermissionRequest","model":"m","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"touch /tmp/never"}}`,
	hook.CopilotCLI: `{"hookName":"permissionRequest","sessionId":"s-cp","timestamp":1764720000000,"cwd":"/w","toolName":"bash","toolInput":{"command":"touch /tmp/never"}}`,
	hook.Kilo:       `{"directory":"/w","event":{"type":"permission.asked","properties":{"id":"per_2","sessionID":"s-kc","permission":"bash","patterns":["touch /tmp/never"],"metadata":{"command":"touch /tmp/never"},"always":["touch *"],"tool":{"messageID":"msg_1","callID":"call_1"}}}}`,
	hook.Opencode:   `{"directory":"/w","event":{"type":"permission.asked","properties":{"id":"per_1","sessionID":"s-oc","permission":"bash","patterns":["touch /tmp/never"],"metadata":{"command":"touch /tmp/never"},"always":["touch *"],"tool":{"messageID":"msg_1","callID":"call_1"}}}}`,
	hook.Droid:      `{"session_id":"s-dr","transcript_path":"/t","cwd":"/w","permission_mode":"off","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"rm -rf /tmp/never","riskLevel":"high","riskLevelReason":"r"}}`,
	hook.QwenCode:   `{"session_id":"s-qw","cwd":"/w","hook_event_name":"PermissionRequest","permission_mode":"default","prompt_id":"s-qw########1","tool_name":"run_shell_command","tool_input":{"command":"touch /tmp/never","description":"d"}}`,
	hook.GeminiCLI:  `{"session_id":"s-gm","cwd":"/w","hook_event_name":"BeforeTool","timestamp":"2026-12-05T03:33:59.441Z","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /tmp/never"}}`,
	hook.Cline:      `{"clineVersion":"","hookName":"tool_call","taskId":"conv_1","sessionContext":{"rootSessionId":"s-cl"},"workspaceRoots":["/w"],"workspaceInfo":{"rootPath":"/w"},"iteration":1,"tool_call":{"id":"call_1","name":"run_commands","input":{"commands":["rm -rf /tmp/never"]}}}`,
}

// geminiYolo is Gemini CLI's BeforeTool in yolo mode (named in the payload
// here; the real hook reads it from Gemini's command line).
const geminiYolo = `{"session_id":"s-gy","cwd":"/w","hook_event_name":"BeforeTool","permission_mode":"yolo","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /tmp/never"}}`

// realHook runs the real binary's `asktray hook AGENT` as installed, with
// stdin, and returns its result and how long it took.
func realHook(t *testing.T, bin, dir string, a hook.Agent, stdin string) (testkit.Result, time.Duration) {
	t.Helper()
	e := hook.Entries(a, bin, dir)[0]
	cmd := exec.Command(e.Args[0], e.Args[1:]...) //nolint:gosec // the binary the test built
	cmd.Stdin = strings.NewReader(stdin)
	cmd.SysProcAttr = noTerminal()
	start := time.Now()
	r := testkit.Run(t, cmd)
	return r, time.Since(start)
}

// TestHook_FrozenAppStepsAside (finding 1 of issue 25): the real app,
// stopped with SIGSTOP, still has its socket accept connections, and nobody
// answers. Each agent's hook, as setup installs it, prints no decision (so
// the agent asks in its own prompt) within the bound and says why on
// stderr. Once the app runs again, nothing is pending and nothing was
// allowed.
func TestHook_FrozenAppStepsAside(t *testing.T) {
	t.Parallel()
	bin := testkit.Binary(t)
	dir := shortTempDir(t)
	app := exec.Command(bin, "--headless", "--addr", "127.0.0.1:0", "--data-dir", dir) //nolint:gosec // the binary the test built
	var stderr bytes.Buffer
	app.Stderr = &stderr
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Process.Kill(); _ = app.Wait() })
	ctl := func(args ...string) testkit.Result {
		cmd := exec.Command(bin, append(args, "--data-dir", dir)...) //nolint:gosec // the binary the test built
		cmd.SysProcAttr = noTerminal()
		return testkit.Run(t, cmd)
	}
	for deadline := time.Now().Add(30 * time.Second); ctl("url").Code != 0; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the app did not come up: %s", stderr.String())
		}
	}
	// Answered while it runs: the hook reaches it.
	done := make(chan testkit.Result, 1)
	go func() { r, _ := realHook(t, bin, dir, hook.Codex, frozenPayloads[hook.Codex]); done <- r }()
	id := pendingID(t, ctl)
	if r := ctl("answer", id, "--decline"); r.Code != 0 {
		t.Fatalf("answer: %+v", r)
	}
	if r := wait(t, done); !strings.Contains(r.Stdout, `"behavior":"deny"`) {
		t.Fatalf("a running app's hook: %+v", r)
	}

	if err := app.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	for _, a := range hook.Agents() {
		r, took := realHook(t, bin, dir, a, frozenPayloads[a])
		t.Logf("%s: stepped aside after %v", a, took)
		if r.Code != 0 || r.Stdout != "" || took > stepAsideBound || !strings.Contains(r.Stderr, "did not acknowledge") {
			t.Errorf("%s, app stopped: %+v after %v", a, r, took)
		}
	}
	// In Gemini CLI's yolo mode no decision would run the call: the hook
	// sends it to Gemini's own prompt instead.
	if r, took := realHook(t, bin, dir, hook.GeminiCLI, geminiYolo); !strings.HasPrefix(r.Stdout, `{"decision":"ask"`) || took > stepAsideBound {
		t.Errorf("gemini-cli in yolo mode, app stopped: %+v after %v", r, took)
	}
	if err := app.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	var items []control.Item
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		r := ctl("pending", "--json")
		if strings.TrimSpace(r.Stdout) == "[]" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still pending after the app ran again: %+v", r)
		}
	}
	h := ctl("history", "--json")
	if err := json.Unmarshal([]byte(h.Stdout), &items); err != nil {
		t.Fatalf("history %+v: %v", h, err)
	}
	for _, it := range items {
		t.Logf("history: %s %s %+v", it.Question.Client.Name, it.Question.ID, it.Result)
		if it.Result == nil || it.Result.Outcome == question.Answered || it.Result.Outcome == question.AutoApproved {
			t.Errorf("after the stop: %+v", it)
		}
	}
}

// pendingID waits for the one pending question and returns its id.
func pendingID(t *testing.T, ctl func(...string) testkit.Result) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var qs []question.Question
		if r := ctl("pending", "--json"); json.Unmarshal([]byte(r.Stdout), &qs) == nil && len(qs) == 1 {
			return qs[0].ID
		}
		if time.Now().After(deadline) {
			t.Fatal("the hook's question never became pending")
		}
	}
}

// TestHook_SilentAppStepsAside: a process that is the app the instance file
// names, running the hook's own executable, accepts the connection, reads
// the request and never answers. The hook steps aside within the bound.
// An app older than the acknowledgement (it serves only POST /v1/hook)
// still gets the request there and its answer counts.
func TestHook_SilentAppStepsAside(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	payload := []byte(frozenPayloads[hook.ClaudeCode])
	for _, mode := range []string{fakeSilent, fakeOld} {
		dir := shortTempDir(t)
		if err := datadir.Ensure(dir); err != nil {
			t.Fatal(err)
		}
		startFakeServerMode(t, self, dir, mode)
		r := runHook(payload, "claude-code", "--data-dir", dir)
		switch mode {
		case fakeSilent:
			if r.code != 0 || r.out != "" || r.took > stepAsideBound || !strings.Contains(r.errOut, "did not acknowledge") {
				t.Errorf("silent app: %+v", r)
			}
		case fakeOld:
			if r.code != 0 || !strings.Contains(r.out, `"behavior":"allow"`) {
				t.Errorf("old app: %+v", r)
			}
		}
	}
}
