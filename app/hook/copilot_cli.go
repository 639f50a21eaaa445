package hook

import (
	"fmt"
	"path/filepath"
	"strings"
)

// CopilotCLI is GitHub's Copilot CLI
// (https://docs.github.com/en/copilot/reference/hooks-reference).
const CopilotCLI Agent = "copilot-cli"

// Copilot CLI's hooks:
//
//   - permissionRequest, which also runs before the prompt; notification;
//     and the tool and session events that show the session moved on,
//     which withdraw its notices (Copilot CLI 1.0.102 names these among its
//     hooks). Its payloads are camelCase, the event in hookName, the tool's
//     input in toolArgs (an object encoded as a string) unless configured
//     with PascalCase event names. Its userPromptSubmitted, postToolUse and
//     agentStop payloads name no event (1.0.102), so each entry passes
//     --event.
//   - They go in any *.json in ~/.copilot/hooks/ ($COPILOT_HOME/hooks/),
//     {"version": 1, "hooks": {event: [{"type": "command", "bash": C,
//     "powershell": C, "timeoutSec": SECONDS}]}}; asktray keeps its own
//     file there, asktray.json.
//   - Its answer: {"behavior":"allow"|"deny","message":...}
//     (https://docs.github.com/en/copilot/reference/hooks-reference#permissionrequest-decision-control).
//   - Its shell tools, bash and powershell, take a command like Claude
//     Code's Bash (https://docs.github.com/en/copilot/reference/hooks-reference#tool-names-for-hook-matching).
//   - Trust: "disableAllHooks" in settings.json; the folders it trusts are
//     "trustedFolders" in config.json (1.0.102; "trusted_folders" before,
//     https://docs.github.com/en/copilot/how-tos/copilot-cli/set-up-copilot-cli/configure-copilot-cli).
func init() {
	register(Spec{
		Name: CopilotCLI, Title: "Copilot CLI", Program: "copilot",
		Events: []Event{
			{Name: "permissionRequest"}, {Name: "notification"}, {Name: "postToolUse"}, {Name: "postToolUseFailure"},
			{Name: "userPromptSubmitted"}, {Name: "agentStop"}, {Name: "sessionEnd"},
		},
		Spellings: map[string]string{
			"permissionRequest":   PermissionRequest,
			"notification":        Notification,
			"preToolUse":          PreToolUse,
			"postToolUse":         PostToolUse,
			"postToolUseFailure":  PostToolUseFailure,
			"userPromptSubmitted": UserPromptSubmit,
			"agentStop":           Stop,
			"sessionEnd":          SessionEnd,
		},
		CamelCase: true, PassesEvent: true, Answer: BehaviorOnly, ShellTools: []string{"bash", "powershell"},
		Settings: Settings{
			File: func(home string, getenv func(string) string) string {
				return filepath.Join(copilotHome(home, getenv), "hooks", "asktray.json")
			},
			Flat: true, CommandKey: "bash", TimeoutKey: "timeoutSec", PowerShellKey: "powershell",
			Comments: true, Version: 1, OwnFile: true,
			Note: func(file string) string {
				return fmt.Sprintf("Copilot CLI reads the hooks in %s at its next start.", filepath.Dir(file))
			},
		},
		Trust: copilotTrust,
	})
}

func copilotHome(home string, getenv func(string) string) string {
	if d := getenv("COPILOT_HOME"); d != "" {
		return d
	}
	return filepath.Join(home, ".copilot")
}

// copilotTrust reads Copilot CLI's hook switch and folder trust.
func copilotTrust(env TrustEnv) []TrustLine {
	home := filepath.Dir(filepath.Dir(env.HooksFile))
	settings := filepath.Join(home, "settings.json")
	var out []TrustLine
	add := func(s TrustStatus, file, key, text string) {
		out = append(out, TrustLine{Status: s, File: file, Key: key, Text: text})
	}
	if m, _, err := env.ReadJSON(settings); err != nil {
		add(TrustNote, settings, "", "cannot read it: "+err.Error())
	} else if m["disableAllHooks"] == true {
		add(TrustProblem, settings, "disableAllHooks", "is true, so Copilot CLI runs no asktray hook: take it out (or set it to false)")
	} else {
		add(TrustFine, settings, "", "hooks are on (no disableAllHooks)")
	}
	if env.Cwd == "" {
		return out
	}
	cfg := filepath.Join(home, "config.json")
	m, _, err := env.ReadJSON(cfg)
	if err != nil {
		add(TrustNote, cfg, "", "cannot read it: "+err.Error())
		return out
	}
	for _, k := range []string{"trustedFolders", "trusted_folders"} {
		for _, dir := range stringList(m[k]) {
			if Within(env.Cwd, dir) {
				add(TrustFine, cfg, k, "Copilot CLI trusts "+env.Cwd)
				return out
			}
		}
	}
	add(TrustNote, cfg, "trustedFolders", env.Cwd+" is not among the folders Copilot CLI trusts: it asks you at its start there, and runs nothing before you trust it")
	return out
}

// stringList is v's strings when v is a JSON list.
func stringList(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Within reports whether dir is root or below it. It does not block.
func Within(dir, root string) bool {
	if root == "" {
		return false
	}
	rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(dir))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
