package hook

import (
	"fmt"
	"path/filepath"
)

// QwenCode is Qwen Code, the qwen command of the @qwen-code/qwen-code
// package (https://qwenlm.github.io/qwen-code-docs/en/users/features/hooks/).
const QwenCode Agent = "qwen"

// Qwen Code's hooks (what Qwen Code 0.24.4 did, docs/hooks.md):
//
//   - PermissionRequest, which Qwen runs before it draws its own prompt and
//     waits for: an allow runs the call once, a deny's message is the
//     tool's result the model reads, no decision opens Qwen's prompt. It
//     fires only where Qwen's mode would ask (default mode; auto mode when
//     its classifier hands a call back to the person; never in yolo).
//     Escape while the hook runs cancels the call and kills the hook's
//     process, which ends the tray question. Its PreToolUse runs only once
//     a call is approved, so an allow there skips nothing: it is not
//     installed. Notification (notification_type "permission_prompt") when
//     its own prompt opens; PostToolUse, PostToolUseFailure,
//     UserPromptSubmit, Stop and SessionEnd end a tray question the session
//     moved past. Payloads are Claude Code's, snake_case, its tool names
//     Gemini CLI's (run_shell_command, write_file, replace).
//   - They go in "hooks" of ~/.qwen/settings.json ($QWEN_HOME replaces
//     ~/.qwen), matcher groups as Claude Code's. A command hook's timeout is
//     in seconds, but any value of 1000 or more is read as milliseconds
//     (its older unit), so asktray's day-long timeout is written in
//     milliseconds. The file takes comments, not trailing commas; Qwen adds
//     "$version" to it at its start.
//   - Its answer is Claude Code's PermissionRequest decision.
//   - Its MCP tools are named mcp__SERVER__TOOL: Asktray's own are never
//     asked about.
//   - Trust: "disableAllHooks": true turns every hook off.
func init() {
	register(Spec{
		Name: QwenCode, Title: "Qwen Code", Program: "qwen",
		Events: []Event{
			{Name: PermissionRequest}, {Name: Notification}, {Name: PostToolUse}, {Name: PostToolUseFailure},
			{Name: UserPromptSubmit}, {Name: Stop}, {Name: SessionEnd},
		},
		Answer: HookSpecific, NamesMCPTools: true,
		ShellTools: []string{"run_shell_command"},
		Settings: Settings{
			File: func(home string, getenv func(string) string) string {
				dir := filepath.Join(home, ".qwen")
				if d := getenv("QWEN_HOME"); d != "" {
					dir = d
				}
				return filepath.Join(dir, "settings.json")
			},
			CommandKey: "command", TimeoutKey: "timeout", TimeoutMS: true, Comments: true, NoTrailingCommas: true,
			Note: func(string) string {
				return "Qwen Code reads them at its next start (/hooks lists them). It asks the tray before it shows\n" +
					"its own prompt, which opens only when the tray gives no answer. It asks in its default mode\n" +
					"(--approval-mode default); in auto mode only what its classifier hands back, in yolo nothing."
			},
		},
		Trust: qwenTrust,
	})
}

// qwenTrust reads Qwen Code's hook switch in the user's and the project's
// settings, and the approval mode they set (yolo asks nothing).
func qwenTrust(env TrustEnv) []TrustLine {
	files := []string{env.HooksFile}
	if env.Cwd != "" {
		files = append(files, filepath.Join(env.Cwd, ".qwen", "settings.json"))
	}
	var out []TrustLine
	off := false
	for _, file := range files {
		m, _, err := env.ReadJSON(file)
		if err != nil {
			out = append(out, TrustLine{Status: TrustNote, File: file, Text: "cannot read it: " + err.Error()})
			continue
		}
		if m["disableAllHooks"] == true {
			off = true
			out = append(out, TrustLine{Status: TrustProblem, File: file, Key: "disableAllHooks",
				Text: "is true, so Qwen Code runs no asktray hook: take it out (or set it to false)"})
		}
		if mode, _ := dig(m, "tools", "approvalMode").(string); mode == "yolo" || mode == "auto" {
			out = append(out, TrustLine{Status: TrustNote, What: "mode", File: file, Key: "tools.approvalMode",
				Text: fmt.Sprintf("is %q: %s", mode, qwenModes[mode])})
		}
	}
	if !off {
		out = append(out, TrustLine{Status: TrustFine, File: env.HooksFile, Text: "hooks are on (no disableAllHooks)"})
	}
	return out
}

// qwenModes says what reaches the tray in Qwen Code's modes that ask
// less than its default.
var qwenModes = map[string]string{
	"yolo": "Qwen Code runs every call unasked, so nothing reaches the tray",
	"auto": "Qwen Code's classifier decides, and only a call it hands back to the person reaches the tray",
}
