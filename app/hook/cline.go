package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Cline is Cline's CLI, the cline command of the cline package (its
// binary in @cline/cli-linux-x64 and the other platforms' packages).
const Cline Agent = "cline"

// Cline's route to the tray (what Cline 3.0.65 did, docs/hooks.md):
//
//   - Its desktop approval mode (CLINE_TOOL_APPROVAL_MODE=desktop) writes
//     no request file in 3.0.65, in its terminal UI or a one-shot run, so
//     the tray answers its PreToolUse hook: an executable file named
//     PreToolUse in ~/.cline/hooks ($CLINE_DIR replaces ~/.cline), run
//     before each tool call, in every approval setting, and waited for.
//     Its payload is Cline's own, {"hookName": "tool_call", "taskId",
//     "sessionContext": {"rootSessionId"}, "workspaceInfo": {"rootPath"},
//     "tool_call": {"id", "name", "input"}, …}; its shell tool is
//     run_commands, {"commands": [...]}.
//   - The hook can allow nothing: printing nothing leaves the call to
//     Cline's own setting (auto-approve, on by default, runs it unasked;
//     with it off Cline asks in its own prompt after the hook), and
//     {"cancel": true, "errorMessage": NOTE} stops the whole task before
//     the call runs; the model never reads NOTE, and the terminal UI shows
//     nothing of it. So the tray's allow is final only with auto-approve
//     on, and a call the tray asked about and got no answer for is stopped
//     (RunsUndecided).
//   - Cline gives up on the hook after 120 s and then runs the call under
//     its own setting, a limit no setting changes (HookLimit): the entry
//     passes --timeout 120, so the tray's question ends before.
//   - Escape while the hook runs sends no event and does not end the hook;
//     Cline aborts the call once the hook returns. Its other hook files
//     (TaskStart, PostToolUse, TaskComplete, SessionShutdown, …) are not
//     installed: none tells when the person moved on.
//   - It names MCP tools SERVER__TOOL (read in its binary, not observed
//     through a hook): Asktray's own, asktray__…, are never asked about.
//   - Cline runs every file of the event's name, extensions aside
//     (PreToolUse, PreToolUse.sh, …), one after another: a person's own
//     PreToolUse is kept (Plugin.Shared) and can live beside asktray's as
//     PreToolUse.sh.
func init() {
	register(Spec{
		Name: Cline, Title: "Cline",
		Events:    []Event{{Name: PreToolUse}},
		Spellings: map[string]string{"tool_call": PreToolUse},
		Answer:    CancelOnly, GatesToolUse: true, RunsUndecided: true, HookLimit: clineHookLimit, OwnToolPrefix: "asktray__",
		ShellTools: []string{"run_commands"},
		Unwrap:     unwrapCline, Trust: clineTrust,
		Preface: "Cline waits for this answer. Allow leaves the call to Cline's own auto-approve setting (on, it runs). " +
			"Deny stops Cline's whole task before the call runs; Cline cannot pass your note to its model (Asktray keeps it in history). " +
			"Unanswered by the deadline (2 minutes at most: Cline waits no longer), the task is stopped; a dismissal leaves the call to Cline.",
		Settings: Settings{
			File: func(home string, getenv func(string) string) string {
				return filepath.Join(clineDir(home, getenv), "hooks", "PreToolUse")
			},
			CommandKey: "command", TimeoutKey: "timeout", OwnFile: true,
			Plugin: &Plugin{Source: clineHookSource, Read: readClineHook,
				Shared: "it is your own PreToolUse hook: rename it PreToolUse.sh (or .py or .js after its language; Cline runs both), then run this again"},
			Note: func(file string) string {
				return fmt.Sprintf("Start Cline again: it runs %s before each tool call. Your rules\n"+
					"decide there, a high-risk call is asked in the tray, everything else is Cline's own. Keep Cline's\n"+
					"auto-approve on (its default): with it off Cline asks again after the tray's allow. The tray's deny\n"+
					"stops the whole task (Cline has no deny its model reads); left unanswered, so does the question;\n"+
					"with Asktray not running, the call is Cline's.", file)
			},
		},
	})
}

// clineHookLimit is how long Cline 3.0.65 waits for a PreToolUse hook, in
// seconds (its toolCallTimeoutMs, 120000, which nothing sets).
const clineHookLimit = 120

// clineDir is $CLINE_DIR, or ~/.cline.
func clineDir(home string, getenv func(string) string) string {
	if d := strings.TrimSpace(getenv("CLINE_DIR")); d != "" {
		return d
	}
	return filepath.Join(home, ".cline")
}

// clinePayload is what Cline hands its PreToolUse hook.
type clinePayload struct {
	HookName       string `json:"hookName"`
	TaskID         string `json:"taskId"`
	SessionContext struct {
		RootSessionID string `json:"rootSessionId"`
	} `json:"sessionContext"`
	WorkspaceRoots []string `json:"workspaceRoots"`
	WorkspaceInfo  struct {
		RootPath string `json:"rootPath"`
	} `json:"workspaceInfo"`
	ToolCall *struct {
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"tool_call"`
}

// unwrapCline turns Cline's payload into the snake_case shape Parse reads:
// the session is Cline's root session (one per running Cline; each prompt
// is a task of it), the working directory its workspace root, and
// run_commands' commands one shell command, a line each. A payload with no
// hookName (the doctor's test request) passes unchanged. Errors name the
// field at fault.
func unwrapCline(data []byte) ([]byte, error) {
	var in clinePayload
	if len(data) == 0 || data[0] != '{' || json.Unmarshal(data, &in) != nil || in.HookName == "" {
		return data, nil
	}
	if in.HookName != "tool_call" {
		return nil, fmt.Errorf("hookName: %q is not tool_call (asktray answers Cline's PreToolUse only)", in.HookName)
	}
	if in.ToolCall == nil || in.ToolCall.Name == "" {
		return nil, errors.New("tool_call.name: required")
	}
	input := in.ToolCall.Input
	if in.ToolCall.Name == "run_commands" {
		b, _ := json.Marshal(map[string]string{"command": strings.Join(clineCommands(input), "\n")}) // strings always encode
		input = b
	}
	cwd := in.WorkspaceInfo.RootPath
	if cwd == "" && len(in.WorkspaceRoots) > 0 {
		cwd = in.WorkspaceRoots[0]
	}
	return json.Marshal(map[string]any{
		"hook_event_name": in.HookName,
		"session_id":      first(in.SessionContext.RootSessionID, in.TaskID),
		"cwd":             cwd,
		"tool_name":       in.ToolCall.Name,
		"tool_use_id":     in.ToolCall.ID,
		"tool_input":      input,
	})
}

// clineCommands reads run_commands' input in each shape Cline 3.0.65
// takes: {"commands": [...]}, one command or a list of them, each a shell
// line or {"command": EXE, "args": [...]}; {"command"|"cmd": LINE}; or the
// list or line itself.
func clineCommands(raw json.RawMessage) []string {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		var out []string
		for _, c := range list {
			out = append(out, clineCommands(c)...)
		}
		return out
	}
	var line string
	if json.Unmarshal(raw, &line) == nil {
		return []string{line}
	}
	var obj struct {
		Commands json.RawMessage `json:"commands"`
		Command  string          `json:"command"`
		Cmd      string          `json:"cmd"`
		Args     []string        `json:"args"`
	}
	if json.Unmarshal(raw, &obj) != nil {
		return nil
	}
	if len(obj.Commands) > 0 {
		return clineCommands(obj.Commands)
	}
	if obj.Command == "" {
		return []string{obj.Cmd}
	}
	words := []string{obj.Command}
	if len(obj.Args) > 0 {
		words = []string{shellQuote(obj.Command)}
		for _, a := range obj.Args {
			words = append(words, shellQuote(a))
		}
	}
	return []string{strings.Join(words, " ")}
}
