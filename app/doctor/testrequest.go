package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"time"

	"github.com/asktray/asktray/app/clientsetup"
	"github.com/asktray/asktray/app/hook"
)

// testTimeout bounds one test request: the hook returns within a second
// when the app does not answer, so this is only for a command that hangs.
const testTimeout = 15 * time.Second

// testRequest runs the installed command of agent's permission hook (the
// first event asktray installs) as the agent runs it, through a shell, with
// a hook.Doctor payload on stdin. The app shows it as a notice and the hook
// prints its id; Env.Notice confirms the app shows it. A test never asks and
// never allows anything.
func testRequest(ctx context.Context, r *Report, env Env, h clientsetup.Hooks, found []clientsetup.FoundHook) {
	f, ok := permissionHook(h, found)
	if !ok {
		return
	}
	line := Line{Client: string(h.Agent), What: "test", File: h.Path, Key: f.Key + "." + settingsOf(h.Agent).CommandKey}
	if !env.Server.Running {
		line.Status, line.Text = Note, "no test request sent: Asktray is not running"
		r.add(line)
		return
	}
	if runtime.GOOS == "windows" {
		line.Status, line.Text = Note, "no test request sent: on Windows the agents run hooks through shells this check does not pick"
		r.add(line)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, testTimeout)
	defer cancel()
	run := env.Run
	if run == nil {
		run = runProcess
	}
	stdout, stderr, err := run(ctx, shellFor(h.Agent, f.Command), doctorPayload(h.Agent, env.Cwd, h.Path))
	var ack hook.DoctorAck
	switch {
	case json.Unmarshal(bytes.TrimSpace(stdout), &ack) != nil || !ack.Received || ack.QuestionID == "":
		why := firstLine(string(stderr))
		if why == "" && err != nil {
			why = err.Error()
		}
		if why == "" {
			why = "it printed nothing"
		}
		line.Status, line.Text = Problem, fmt.Sprintf("a test request through this command did not reach Asktray (%s): run 'asktray config %s --hooks --write'", why, h.Agent)
	case env.Notice != nil && env.Notice(ctx, ack.QuestionID) != nil:
		line.Status, line.Text = Problem, fmt.Sprintf("the test request reached a server, but Asktray shows no notice %s: %v", ack.QuestionID, env.Notice(ctx, ack.QuestionID))
	default:
		line.Status, line.Text = Fine, fmt.Sprintf("a test request through this command reached Asktray; the tray shows it as a notice (%s), nothing was allowed", ack.QuestionID)
	}
	r.add(line)
}

// permissionHook is the handler of the agent's permission event, the one
// that matters most.
func permissionHook(h clientsetup.Hooks, found []clientsetup.FoundHook) (clientsetup.FoundHook, bool) {
	perm := hook.Events(h.Agent)[0]
	for _, f := range found {
		if f.Event == perm {
			return f, true
		}
	}
	if len(found) > 0 {
		return found[0], true
	}
	return clientsetup.FoundHook{}, false
}

// shellFor is how the agent runs a hook command line: one whose command
// key is "bash" (Copilot CLI) with bash, the others through sh.
func shellFor(a hook.Agent, cmd string) []string {
	if settingsOf(a).CommandKey == "bash" {
		if _, err := exec.LookPath("bash"); err == nil {
			return []string{"bash", "-c", cmd}
		}
	}
	return []string{"sh", "-c", cmd}
}

// doctorPayload is the test request, in the agent's own spelling: a
// camelCase payload (hook.Spec.CamelCase) names the event in hookName.
func doctorPayload(a hook.Agent, cwd, file string) []byte {
	p := map[string]string{"cwd": cwd, "message": file}
	if sp, _ := hook.Lookup(a); sp.CamelCase {
		p["hookName"], p["sessionId"] = hook.Doctor, "asktray-doctor"
	} else {
		p["hook_event_name"], p["session_id"] = hook.Doctor, "asktray-doctor"
	}
	b, _ := json.Marshal(p) // strings always encode
	return b
}

// runProcess runs argv with stdin and returns what it printed.
func runProcess(ctx context.Context, argv []string, stdin []byte) (stdout, stderr []byte, err error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...) //nolint:gosec // the hook command the agent itself runs, from its own config file
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	return out.Bytes(), errb.Bytes(), err
}

// stdioInit is the MCP initialize request the stdio test sends.
const stdioInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"asktray-doctor","version":"1"}}}` + "\n"

// stdioTest starts a stdio entry's command line (argv, 'asktray stdio …')
// as the client would, sends MCP's initialize and waits for the app's
// answer, then closes its stdin, which ends the bridge and its session. It
// returns "" when the app answered, or why not. It blocks at most
// testTimeout.
func stdioTest(ctx context.Context, argv []string) string {
	ctx, cancel := context.WithTimeout(ctx, testTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...) //nolint:gosec // the client's own command line for asktray stdio, from its config file
	in, err := cmd.StdinPipe()
	if err != nil {
		return err.Error()
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err.Error()
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return err.Error()
	}
	defer func() { _ = cmd.Wait() }()
	defer in.Close()
	if _, err := io.WriteString(in, stdioInit); err != nil {
		return err.Error()
	}
	dec := json.NewDecoder(out)
	for {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Result *struct {
				ServerInfo struct{ Name string } `json:"serverInfo"`
			} `json:"result"`
			Error *struct{ Message string } `json:"error"`
		}
		if err := dec.Decode(&msg); err != nil {
			if why := firstLine(errb.String()); why != "" {
				return why
			}
			return "no answer to initialize: " + err.Error()
		}
		switch {
		case string(msg.ID) != "1":
			continue
		case msg.Error != nil:
			return "initialize: " + msg.Error.Message
		case msg.Result == nil:
			return "initialize: an empty answer"
		}
		return ""
	}
}
