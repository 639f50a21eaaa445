package hook

import (
	"path/filepath"
	"slices"
	"strings"
)

// Droid is Factory's Droid CLI, the droid command of the @factory/cli
// package (https://docs.factory.ai/reference/hooks-reference).
const Droid Agent = "droid"

// Factory Droid's hooks (what Droid 0.225.2 did, docs/hooks.md):
//
//   - PreToolUse, for every tool, before Droid's own approval, which waits
//     for it: its allow runs the call without Droid's prompt (even with
//     autonomy off), its deny's permissionDecisionReason is the tool's
//     result the model reads, no decision leaves the call to Droid's
//     autonomy level. So the tray holds as at Claude Code's PreToolUse: the
//     rules decide, a high-risk call (or one an ask rule matches) is asked
//     in the tray, the rest is Droid's own flow. Notification
//     (notification_type "permission_prompt") when its own prompt opens;
//     PostToolUse, UserPromptSubmit, Stop and SessionEnd end a question the
//     session moved past. Droid 0.225.2 has no PermissionRequest event
//     (its settings schema). Payloads are snake_case with hook_event_name
//     (not the camelCase some sources describe); its shell tool is Execute,
//     whose input adds the model's riskLevel.
//   - They go in "hooks" of ~/.factory/settings.json, matcher groups as
//     Claude Code's, the timeout in seconds. Droid also reads
//     ~/.factory/hooks.json, the events at its top level, and an event
//     there replaces that event's hooks from settings.json (observed), so
//     the doctor says when it holds one of asktray's events.
//   - Escape while the hook runs kills it, and Droid sends Stop; a no in
//     its own approval sends Stop too. Its MCP tools are named
//     SERVER___TOOL (three underscores; read in the binary, not observed
//     through a hook): Asktray's own, asktray___…, are never asked about.
//   - Trust: "hooksDisabled": true in "hooks" turns every hook off.
func init() {
	register(Spec{
		Name: Droid, Title: "Factory Droid", Program: "droid",
		Events: []Event{
			{Name: PreToolUse}, {Name: Notification}, {Name: PostToolUse},
			{Name: UserPromptSubmit}, {Name: Stop}, {Name: SessionEnd},
		},
		Answer: HookSpecific, GatesToolUse: true, OwnToolPrefix: "asktray___",
		ShellTools: []string{"Execute"},
		Settings: Settings{
			File: func(home string, _ func(string) string) string {
				return filepath.Join(home, ".factory", "settings.json")
			},
			CommandKey: "command", TimeoutKey: "timeout",
			Note: func(string) string {
				return "Factory Droid reads them at its next start (/hooks lists them). Its PreToolUse runs before its\n" +
					"own approval: your rules decide there, a high-risk call is asked in the tray, and everything\n" +
					"else is left to Droid's autonomy level. A hooks.json in ~/.factory that names the same events\n" +
					"replaces these (asktray doctor says so)."
			},
		},
		Trust: droidTrust,
	})
}

// droidTrust reads Droid's hook switch and whether a hooks.json shadows
// the events asktray installed in settings.json.
func droidTrust(env TrustEnv) []TrustLine {
	var out []TrustLine
	m, _, err := env.ReadJSON(env.HooksFile)
	switch {
	case err != nil:
		out = append(out, TrustLine{Status: TrustNote, File: env.HooksFile, Text: "cannot read it: " + err.Error()})
	case dig(m, "hooks", "hooksDisabled") == true:
		out = append(out, TrustLine{Status: TrustProblem, File: env.HooksFile, Key: "hooks.hooksDisabled",
			Text: "is true, so Factory Droid runs no asktray hook: take it out (or set it to false)"})
	default:
		out = append(out, TrustLine{Status: TrustFine, File: env.HooksFile, Text: "hooks are on (no hooks.hooksDisabled)"})
	}
	file := filepath.Join(filepath.Dir(env.HooksFile), "hooks.json")
	j, _, err := env.ReadJSON(file)
	if err != nil {
		out = append(out, TrustLine{Status: TrustNote, File: file, Text: "cannot read it: " + err.Error()})
		return out
	}
	var shadowed []string
	for _, f := range env.Found {
		if _, ok := j[f.Event]; ok && !slices.Contains(shadowed, f.Event) {
			shadowed = append(shadowed, f.Event)
		}
	}
	if len(shadowed) > 0 {
		out = append(out, TrustLine{Status: TrustProblem, File: file, Key: strings.Join(shadowed, ", "),
			Text: "replaces settings.json's hooks of the same events, so Factory Droid runs no asktray hook for them: take those events out of it, or copy asktray's handlers from settings.json into them"})
	}
	return out
}
