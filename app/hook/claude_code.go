package hook

import "path/filepath"

// ClaudeCode is Anthropic's Claude Code (https://code.claude.com/docs/en/hooks).
const ClaudeCode Agent = "claude-code"

// Claude Code's hooks:
//
//   - PreToolUse, for every tool, which fires in every permission mode
//     (auto, Claude Code's default since 2.1.283, fires PermissionRequest
//     almost never): the person's rules decide there, a high-risk call or
//     one an ask rule matches is asked in the tray, anything else is left at
//     once to Claude Code's mode; it also answers Claude's own
//     multiple-choice questions (AskUserQuestion). PermissionRequest asks
//     what Manual mode would ask in the terminal; Notification tells;
//     PermissionDenied records what auto mode blocked; the session events
//     end a tray question the terminal answered first (Claude Code shows
//     its own dialog while a PermissionRequest hook runs and does not stop
//     the hook: https://github.com/anthropics/claude-code/issues/15433).
//   - They go in "hooks" of ~/.claude/settings.json ($CLAUDE_CONFIG_DIR
//     replaces ~/.claude): {"hooks": {EVENT: [{"matcher": M, "hooks":
//     [{"type": "command", "command": C, "timeout": SECONDS}]}]}}
//     (https://code.claude.com/docs/en/hooks#configuration).
//   - Its answer: {"hookSpecificOutput":{"hookEventName":"PermissionRequest",
//     "decision":{"behavior":"allow"}}}, with updatedPermissions when the
//     person picked one of its own permission_suggestions; deny carries
//     message (https://code.claude.com/docs/en/hooks#permissionrequest-decision-control).
//     Its PreToolUse: {"hookSpecificOutput":{"hookEventName":"PreToolUse",
//     "permissionDecision":"allow"|"deny","permissionDecisionReason":...}};
//     an AskUserQuestion answer is a PreToolUse allow whose updatedInput is
//     the original input plus "answers".
//   - Trust: "disableAllHooks": true in a settings file turns every hook
//     off; "allowManagedHooksOnly" in managed settings
//     (managed-settings.json in /etc/claude-code, /Library/Application
//     Support/ClaudeCode or C:\Program Files\ClaudeCode) leaves only managed
//     ones (https://code.claude.com/docs/en/settings; both keys are in
//     Claude Code 2.1.332's settings schema).
func init() {
	register(Spec{
		Name: ClaudeCode, Title: "Claude Code", Program: "claude",
		Events: []Event{
			{Name: PermissionRequest}, {Name: Notification}, {Name: PostToolUse}, {Name: PostToolUseFailure},
			{Name: UserPromptSubmit}, {Name: Stop}, {Name: SessionEnd}, {Name: PreToolUse}, {Name: PermissionDenied},
		},
		Answer: HookSpecific, RemembersRules: true, AnswersQuestions: true, AsksToo: true, GatesToolUse: true, NamesMCPTools: true,
		Settings: Settings{
			File: func(home string, getenv func(string) string) string {
				dir := filepath.Join(home, ".claude")
				if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
					dir = d
				}
				return filepath.Join(dir, "settings.json")
			},
			CommandKey: "command", TimeoutKey: "timeout",
			Note: func(string) string {
				return "Claude Code reads them at its next start (/hooks lists them). It shows its own prompt in the\n" +
					"terminal too: the first answer wins, and an answer in the terminal closes the tray question."
			},
		},
		Trust: func(env TrustEnv) []TrustLine { return append(claudeTrust(env), claudeState(env)...) },
	})
}

// claudeTrust reads disableAllHooks (and managed allowManagedHooksOnly).
func claudeTrust(env TrustEnv) []TrustLine {
	files := []string{env.HooksFile, filepath.Join(claudeManagedDir(env.GOOS), "managed-settings.json")}
	if env.Cwd != "" {
		files = append(files, filepath.Join(env.Cwd, ".claude", "settings.json"), filepath.Join(env.Cwd, ".claude", "settings.local.json"))
	}
	var out []TrustLine
	off := false
	for i, file := range files {
		m, _, err := env.ReadJSON(file)
		if err != nil {
			out = append(out, TrustLine{Status: TrustNote, File: file, Text: "cannot read it: " + err.Error()})
			continue
		}
		keys := []string{"disableAllHooks"}
		if i == 1 {
			keys = append(keys, "allowManagedHooksOnly")
		}
		for _, k := range keys {
			if m[k] == true {
				off = true
				out = append(out, TrustLine{Status: TrustProblem, File: file, Key: k,
					Text: "is true, so Claude Code runs no asktray hook: take it out (or set it to false)"})
			}
		}
	}
	if !off {
		out = append(out, TrustLine{Status: TrustFine, File: env.HooksFile, Text: "hooks are on (no disableAllHooks)"})
	}
	return out
}

func claudeManagedDir(goos string) string {
	switch goos {
	case "darwin":
		return "/Library/Application Support/ClaudeCode"
	case "windows":
		return `C:\Program Files\ClaudeCode`
	}
	return "/etc/claude-code"
}
