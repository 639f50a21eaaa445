package hook

// What Claude Code will do with the hooks, read from its own files (part
// of its Spec.Trust):
//
//   - whether `claude` is installed: on PATH, or where its native installer
//     puts it (~/.local/bin/claude, ~/.claude/local/claude);
//   - the permission mode it starts in: permissions.defaultMode in managed
//     settings, the project's .claude/settings.local.json, its
//     .claude/settings.json, then the user's settings
//     (https://code.claude.com/docs/en/settings, that precedence), else its
//     built-in default, auto (Claude Code 2.1.283 and later);
//   - whether the folder is trusted: ~/.claude.json (or
//     $CLAUDE_CONFIG_DIR/.claude.json) keeps projects[DIR].hasTrustDialogAccepted,
//     and a trusted folder above counts. Observed with 2.1.332
//     (TestClaudeCodeUntrustedWorkspace in app/hook/realagents): in an
//     untrusted folder an interactive claude shows its trust dialog first and
//     runs nothing, no hook either, until it is accepted, which records the
//     folder; claude -p shows no dialog and runs the hooks.

import (
	"os"
	"path/filepath"
)

// claudeBuiltinMode is the mode Claude Code starts in when no settings file
// names one (2.1.283 and later; 2.1.332 observed).
const claudeBuiltinMode = "auto"

// claudeModeReach says what reaches the tray in each of Claude Code's
// permission modes, with the hooks installed (docs/hooks.md, the mode table).
var claudeModeReach = map[string]string{ //nolint:gosec // G101 (a mode word such as "auto" or "default" read as a credential): sentences about permission modes, not secrets
	"auto": "your allow and deny rules decide, a high-risk call or one an ask rule matches comes to the tray, " +
		"Claude's own questions are asked there, and auto mode's classifier decides the rest (what it blocks is in the history)",
	"default": "your rules decide, a high-risk call comes to the tray, and every other call Claude Code would ask about " +
		"comes to the tray too, once (Manual mode)",
	"manual":            "your rules decide, a high-risk call comes to the tray, and every other call Claude Code would ask about comes to the tray too, once",
	"acceptEdits":       "your rules decide, a high-risk call comes to the tray; edits in the project run unasked and other calls Claude Code asks about come to the tray",
	"plan":              "your rules decide and a high-risk call comes to the tray; Claude reads only while it plans",
	"dontAsk":           "your rules decide and a high-risk call comes to the tray; anything else that would ask is denied by Claude Code",
	"bypassPermissions": "your rules decide and a high-risk call comes to the tray; everything else runs unasked",
}

// claudeState adds what Claude Code will do with the hooks: whether it is
// installed, the mode it starts in and what reaches the tray then, and
// whether env.Cwd is a workspace it trusts.
func claudeState(env TrustEnv) []TrustLine {
	var out []TrustLine
	if p := findClaude(env); p == "" {
		out = append(out, TrustLine{Status: TrustProblem, What: "agent",
			Text: "claude is not installed (not on PATH, nor in ~/.local/bin): the hooks do nothing until it is; install Claude Code (npm install -g @anthropic-ai/claude-code)"})
	}
	mode, from := claudeMode(env)
	text := "starts in " + mode + " mode (" + from + "): " + claudeModeReach[mode]
	if claudeModeReach[mode] == "" {
		text = "starts in " + mode + " mode (" + from + "), which Asktray does not know"
	}
	out = append(out, TrustLine{Status: TrustNote, What: "mode", Text: text})
	if env.Cwd == "" {
		return out
	}
	if dir, ok := claudeTrusted(env); !ok {
		out = append(out, TrustLine{Status: TrustNote, What: "workspace", File: claudeStatePath(env),
			Text: env.Cwd + " is not a folder Claude Code trusts yet: claude shows its trust dialog there first and runs nothing, hooks included, until you accept it (start claude there once); claude -p skips the dialog and runs the hooks"})
	} else if dir != env.Cwd {
		out = append(out, TrustLine{Status: TrustFine, What: "workspace", File: claudeStatePath(env), Text: "trusted through " + dir})
	}
	return out
}

// findClaude returns where the claude executable is, or "".
func findClaude(env TrustEnv) string {
	dirs := filepath.SplitList(env.Getenv("PATH"))
	if env.Home != "" {
		dirs = append(dirs, filepath.Join(env.Home, ".local", "bin"), filepath.Join(env.Home, ".claude", "local"))
	}
	name := "claude"
	if env.GOOS == "windows" {
		name = "claude.exe"
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && (env.GOOS == "windows" || st.Mode()&0o111 != 0) {
			return p
		}
	}
	return ""
}

// claudeMode returns the permission mode Claude Code starts in, and where
// that comes from.
func claudeMode(env TrustEnv) (mode, from string) {
	files := []string{filepath.Join(claudeManagedDir(env.GOOS), "managed-settings.json")}
	if env.Cwd != "" {
		files = append(files, filepath.Join(env.Cwd, ".claude", "settings.local.json"), filepath.Join(env.Cwd, ".claude", "settings.json"))
	}
	files = append(files, env.HooksFile)
	for _, f := range files {
		m, _, err := env.ReadJSON(f)
		if err != nil {
			continue
		}
		perms, _ := m["permissions"].(map[string]any)
		if s, _ := perms["defaultMode"].(string); s != "" {
			return s, "permissions.defaultMode in " + f
		}
	}
	return claudeBuiltinMode, "Claude Code's built-in default; no settings file sets permissions.defaultMode"
}

// claudeStatePath is Claude Code's own state file, which keeps the folders
// it trusts.
func claudeStatePath(env TrustEnv) string {
	if d := env.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, ".claude.json")
	}
	return filepath.Join(env.Home, ".claude.json")
}

// claudeTrusted reports whether Claude Code trusts env.Cwd: the folder or
// one above it has its trust dialog accepted. dir is the one that does.
func claudeTrusted(env TrustEnv) (dir string, ok bool) {
	m, _, err := env.ReadJSON(claudeStatePath(env))
	if err != nil {
		return "", false
	}
	projects, _ := m["projects"].(map[string]any)
	for d := filepath.Clean(env.Cwd); ; d = filepath.Dir(d) {
		if p, _ := projects[d].(map[string]any); p != nil && p["hasTrustDialogAccepted"] == true {
			return d, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}
