package hook

import (
	"fmt"
	"path/filepath"
	"strings"
)

// GeminiCLI is Google's Gemini CLI (https://geminicli.com/docs/hooks/).
const GeminiCLI Agent = "gemini-cli"

// Gemini CLI's hooks (what Gemini CLI 0.61.0 did, docs/hooks.md):
//
//   - BeforeTool, for every tool, before Gemini's own policy check. Its
//     deny stops the call and its reason reaches the model; its "ask" opens
//     Gemini's own confirmation even where the mode would run the call; its
//     allow does not skip that confirmation, which Gemini's default,
//     auto_edit and plan modes show for a shell command or an edit. So the
//     tray asks only in yolo mode, where its answer is final: the person's
//     rules decide, a high-risk call (or one an ask rule matches) is asked
//     in the tray, the rest runs as yolo says, and a question the person
//     left (dismissed, timed out, the app down) goes to Gemini's own
//     prompt. In the other modes the tray asks nothing: a deny rule denies,
//     and a call it would have asked about opens Gemini's confirmation with
//     Asktray's warning. The payload names no mode; Mode reads it from
//     Gemini's command line (--yolo, -y, --approval-mode yolo), so a switch
//     to yolo with Ctrl+Y inside a session is not seen (the tray then only
//     denies and warns), and a switch out of a session started in yolo
//     leaves an allow that Gemini asks again.
//   - Notification (notification_type "ToolPermission") when its own
//     confirmation opens; AfterTool, BeforeAgent (the next prompt),
//     AfterAgent (the turn ended) and SessionEnd end a tray question the
//     session moved past. Escape while the hook runs cancels the call but
//     neither stops the hook nor sends an event: the tray question ends
//     with the session's next prompt or its end.
//   - They go in "hooks" of ~/.gemini/settings.json ($GEMINI_CLI_HOME
//     replaces the home directory), matcher groups as Claude Code's, the
//     timeout in milliseconds.
//   - Its MCP tools are named mcp_SERVER_TOOL: Asktray's own are never
//     asked about.
//   - Trust: hooksConfig.enabled false turns hooks off; a folder it does not
//     trust keeps Gemini in its default mode (and its project hooks off).
func init() {
	register(Spec{
		Name: GeminiCLI, Title: "Gemini CLI", Program: "gemini",
		Events: []Event{
			{Name: "BeforeTool"}, {Name: "Notification"}, {Name: "AfterTool"},
			{Name: "BeforeAgent"}, {Name: "AfterAgent"}, {Name: "SessionEnd"},
		},
		Spellings: map[string]string{
			"BeforeTool": PreToolUse, "AfterTool": PostToolUse, "BeforeAgent": UserPromptSubmit, "AfterAgent": Stop,
		},
		Answer: DecisionOnly, GatesToolUse: true, OwnToolPrefix: "mcp_asktray_",
		ShellTools: []string{"run_shell_command"},
		Approves:   func(mode string) bool { return mode == GeminiYolo },
		Mode:       geminiMode,
		Settings: Settings{
			File: func(home string, getenv func(string) string) string {
				if d := getenv("GEMINI_CLI_HOME"); d != "" {
					home = d
				}
				return filepath.Join(home, ".gemini", "settings.json")
			},
			CommandKey: "command", TimeoutKey: "timeout", TimeoutMS: true, Comments: true, NoTrailingCommas: true,
			Note: func(string) string {
				return "Gemini CLI reads them at its next start (/hooks lists them). Its allow never skips its own\n" +
					"prompt, so the tray asks only when Gemini runs in yolo mode (--yolo, --approval-mode yolo),\n" +
					"where the tray's answer is final. In its other modes your deny rules still deny, and a\n" +
					"high-risk call opens Gemini's own prompt with Asktray's warning; nothing is asked twice."
			},
		},
		Trust: geminiTrust,
	})
}

// GeminiYolo is Gemini CLI's mode that runs every call unasked.
const GeminiYolo = "yolo"

// geminiMode reads Gemini CLI's approval mode from the command line of the
// nearest ancestor that is Gemini (its launcher starts a second node with
// the same arguments, which runs the hooks): "yolo" for --yolo, -y or
// --approval-mode yolo; the mode --approval-mode names; "default" for a
// Gemini command line with neither; "" when no ancestor is Gemini.
func geminiMode(ancestors [][]string) string {
	for _, argv := range ancestors {
		if !isGemini(argv) {
			continue
		}
		mode := "default"
		for i, a := range argv {
			switch {
			case a == "--yolo" || a == "-y":
				mode = GeminiYolo
			case a == "--approval-mode" && i+1 < len(argv):
				mode = argv[i+1]
			case strings.HasPrefix(a, "--approval-mode="):
				mode = strings.TrimPrefix(a, "--approval-mode=")
			}
		}
		return mode
	}
	return ""
}

// isGemini reports whether argv runs Gemini CLI: its bundle under node, or
// its launcher.
func isGemini(argv []string) bool {
	for i, a := range argv {
		if i > 2 {
			break
		}
		base := filepath.Base(a)
		if base == "gemini" || base == "gemini.js" || strings.Contains(a, "@google/gemini-cli") {
			return true
		}
	}
	return false
}

// geminiTrust reads Gemini CLI's hook switch and whether it trusts the
// folder (without trust it keeps the default mode, where the tray asks
// nothing).
func geminiTrust(env TrustEnv) []TrustLine {
	var out []TrustLine
	add := func(s TrustStatus, file, key, text string) {
		out = append(out, TrustLine{Status: s, File: file, Key: key, Text: text})
	}
	m, _, err := env.ReadJSON(env.HooksFile)
	switch {
	case err != nil:
		add(TrustNote, env.HooksFile, "", "cannot read it: "+err.Error())
	case dig(m, "hooksConfig", "enabled") == false:
		add(TrustProblem, env.HooksFile, "hooksConfig.enabled", "is false, so Gemini CLI runs no asktray hook: take it out (or set it to true)")
	default:
		add(TrustFine, env.HooksFile, "", "hooks are on (hooksConfig.enabled is not false)")
	}
	if env.Cwd == "" || err != nil || dig(m, "security", "folderTrust", "enabled") == false || env.Getenv("GEMINI_CLI_TRUST_WORKSPACE") == "true" {
		return out
	}
	file := env.Getenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
	if file == "" {
		file = filepath.Join(filepath.Dir(env.HooksFile), "trustedFolders.json")
	}
	folders, _, err := env.ReadJSON(file)
	if err != nil {
		add(TrustNote, file, "", "cannot read it: "+err.Error())
		return out
	}
	best, level := "", ""
	for dir, v := range folders { // the longest folder that holds the project decides
		lv, _ := v.(string)
		holds := dir
		if lv == "TRUST_PARENT" {
			holds = filepath.Dir(dir)
		}
		if Within(env.Cwd, holds) && len(dir) > len(best) {
			best, level = dir, lv
		}
	}
	if level == "TRUST_FOLDER" || level == "TRUST_PARENT" {
		add(TrustFine, file, best, fmt.Sprintf("Gemini CLI trusts %s (%s)", env.Cwd, level))
		return out
	}
	add(TrustNote, file, best, env.Cwd+" is not a folder Gemini CLI trusts: it asks at its start there, and in a folder it does not trust it stays in its default mode, where the tray asks nothing (deny rules and warnings only)")
	return out
}

// dig is m's value at the path of keys, nil when a step is missing.
func dig(m map[string]any, keys ...string) any {
	var v any = m
	for _, k := range keys {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[k]
	}
	return v
}
