package doctor

// The agents' own trust state, where their files say it:
//
//   - Claude Code: "disableAllHooks": true in a settings file turns every
//     hook off; "allowManagedHooksOnly" in managed settings
//     (managed-settings.json in /etc/claude-code, /Library/Application
//     Support/ClaudeCode or C:\Program Files\ClaudeCode) leaves only managed
//     ones (https://code.claude.com/docs/en/settings; both keys are in Claude
//     Code 2.1.332's settings schema).
//   - Codex: [features] hooks = false (codex_hooks, its older name) turns
//     hooks off; each hook runs only once the person trusted it in /hooks,
//     which config.toml records as [hooks.state."FILE:EVENT:GROUP:HANDLER"]
//     trusted_hash = "sha256:…", a hash of the handler, and enabled = false
//     when turned off there (codex-rs/hooks/src/engine/discovery.rs,
//     command_hook_hash; codexHash matches what Codex 0.171.0 reports).
//   - Copilot CLI: "disableAllHooks" in settings.json; the folders it trusts
//     are "trustedFolders" in config.json (1.0.102; "trusted_folders" before,
//     https://docs.github.com/en/copilot/how-tos/copilot-cli/set-up-copilot-cli/configure-copilot-cli).
//   - Gemini CLI: with folder trust on (security.folderTrust.enabled, on by
//     default in 0.61), MCP servers stay off in a folder not trusted in
//     ~/.gemini/trustedFolders.json (TRUST_FOLDER, TRUST_PARENT,
//     DO_NOT_TRUST; the longest matching path decides). Its hook fingerprints
//     (trusted_hooks.json) concern project hooks, and Asktray installs none
//     for Gemini CLI.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/pelletier/go-toml/v2"

	"github.com/asktray/asktray/app/clientsetup"
)

// claudeTrust reads disableAllHooks (and managed allowManagedHooksOnly).
func claudeTrust(r *Report, env Env, h clientsetup.Hooks) {
	files := []string{h.Path, filepath.Join(claudeManagedDir(env.Sys.GOOS), "managed-settings.json")}
	if env.Cwd != "" {
		files = append(files, filepath.Join(env.Cwd, ".claude", "settings.json"), filepath.Join(env.Cwd, ".claude", "settings.local.json"))
	}
	off := false
	for i, file := range files {
		m, _, err := clientsetup.ReadJSON(file)
		if err != nil {
			r.add(Line{Status: Note, Client: "claude-code", What: "trust", File: file, Text: "cannot read it: " + err.Error()})
			continue
		}
		keys := []string{"disableAllHooks"}
		if i == 1 {
			keys = append(keys, "allowManagedHooksOnly")
		}
		for _, k := range keys {
			if m[k] == true {
				off = true
				r.add(Line{Status: Problem, Client: "claude-code", What: "trust", File: file, Key: k,
					Text: "is true, so Claude Code runs no asktray hook: take it out (or set it to false)"})
			}
		}
	}
	if !off {
		r.add(Line{Status: Fine, Client: "claude-code", What: "trust", File: h.Path, Text: "hooks are on (no disableAllHooks)"})
	}
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

// codexTrust reads Codex's hooks switch and its review of each asktray hook.
func codexTrust(r *Report, h clientsetup.Hooks, found []clientsetup.FoundHook) {
	cfg := filepath.Join(filepath.Dir(h.Path), "config.toml")
	add := func(s Status, key, text string) {
		r.add(Line{Status: s, Client: "codex", What: "trust", File: cfg, Key: key, Text: text})
	}
	var doc map[string]any
	if b, err := os.ReadFile(cfg); err == nil {
		if err := toml.Unmarshal(b, &doc); err != nil {
			add(Problem, "", fmt.Sprintf("is not TOML Codex can read (%v)", err))
			return
		}
	}
	features, _ := doc["features"].(map[string]any)
	for _, k := range []string{"hooks", "codex_hooks"} {
		if features[k] == false {
			add(Problem, "features."+k, "is false, so Codex runs no hook: take it out")
		}
	}
	hooks, _ := doc["hooks"].(map[string]any)
	states, _ := hooks["state"].(map[string]any)
	src, err := filepath.Abs(h.Path)
	if err != nil {
		src = h.Path
	}
	for _, f := range found {
		key := fmt.Sprintf("%s:%s:%d:%d", src, snake(f.Event), f.Group, f.Handler)
		st, _ := states[key].(map[string]any)
		at := fmt.Sprintf("hooks.state.%q", key)
		trusted, _ := st["trusted_hash"].(string)
		switch {
		case st["enabled"] == false:
			add(Problem, at+".enabled", "is false: Codex skips this asktray hook; turn it on in Codex's /hooks")
		case trusted == "":
			add(Problem, at+".trusted_hash", "is missing: Codex has not trusted this asktray hook yet and skips it; start Codex, type /hooks and trust it")
		case trusted != codexHash(f):
			add(Problem, at+".trusted_hash", "does not match the hook as it is now (it changed since you trusted it): review and trust it again in Codex's /hooks")
		default:
			add(Fine, at, "Codex trusts this asktray hook as it is")
		}
	}
}

// codexHash is Codex's trust hash of handler f: SHA-256 of the compact,
// key-sorted JSON of {"event_name", "matcher"?, "hooks": [the handler
// normalized: type, command, timeout (default 600, at least 1), async,
// statusMessage?]}.
func codexHash(f clientsetup.FoundHook) string {
	t := f.Timeout
	if t == 0 {
		t = 600
	}
	handler := map[string]any{"type": "command", "command": f.Command, "timeout": max(t, 1), "async": f.Raw["async"] == true}
	if s, ok := f.Raw["statusMessage"].(string); ok && s != "" {
		handler["statusMessage"] = s
	}
	id := map[string]any{"event_name": snake(f.Event), "hooks": []any{handler}}
	if f.HasMatcher {
		id["matcher"] = f.Matcher
	}
	b, _ := json.Marshal(id) // sorted keys, compact; its values always encode
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// snake is a Claude Code style event name as Codex labels it:
// PermissionRequest → permission_request.
func snake(s string) string {
	var b strings.Builder
	for i, c := range s {
		if unicode.IsUpper(c) {
			if i > 0 {
				b.WriteByte('_')
			}
			c = unicode.ToLower(c)
		}
		b.WriteRune(c)
	}
	return b.String()
}

// copilotTrust reads Copilot CLI's hook switch and folder trust.
func copilotTrust(r *Report, env Env, h clientsetup.Hooks) {
	home := filepath.Dir(filepath.Dir(h.Path))
	settings := filepath.Join(home, "settings.json")
	add := func(s Status, file, key, text string) {
		r.add(Line{Status: s, Client: "copilot-cli", What: "trust", File: file, Key: key, Text: text})
	}
	if m, _, err := clientsetup.ReadJSON(settings); err != nil {
		add(Note, settings, "", "cannot read it: "+err.Error())
	} else if m["disableAllHooks"] == true {
		add(Problem, settings, "disableAllHooks", "is true, so Copilot CLI runs no asktray hook: take it out (or set it to false)")
	} else {
		add(Fine, settings, "", "hooks are on (no disableAllHooks)")
	}
	if env.Cwd == "" {
		return
	}
	cfg := filepath.Join(home, "config.json")
	m, _, err := clientsetup.ReadJSON(cfg)
	if err != nil {
		add(Note, cfg, "", "cannot read it: "+err.Error())
		return
	}
	for _, k := range []string{"trustedFolders", "trusted_folders"} {
		for _, dir := range strings2(m[k]) {
			if within(env.Cwd, dir) {
				add(Fine, cfg, k, "Copilot CLI trusts "+env.Cwd)
				return
			}
		}
	}
	add(Note, cfg, "trustedFolders", env.Cwd+" is not among the folders Copilot CLI trusts: it asks you at its start there, and runs nothing before you trust it")
}

// geminiTrust reads whether Gemini CLI trusts the folder, without which it
// keeps MCP servers off there.
func geminiTrust(r *Report, env Env, f clientsetup.Found) {
	add := func(s Status, file, key, text string) {
		r.add(Line{Status: s, Client: "gemini-cli", What: "trust", File: file, Key: key, Text: text})
	}
	m, _, err := clientsetup.ReadJSON(f.Path)
	if err != nil || env.Cwd == "" {
		return
	}
	sec, _ := m["security"].(map[string]any)
	ft, _ := sec["folderTrust"].(map[string]any)
	switch {
	case ft["enabled"] == false:
		add(Fine, f.Path, "security.folderTrust.enabled", "is false: Gemini CLI trusts every folder")
		return
	case env.Sys.Getenv("GEMINI_CLI_TRUST_WORKSPACE") == "true":
		add(Fine, "", "", "GEMINI_CLI_TRUST_WORKSPACE=true: Gemini CLI trusts every folder")
		return
	}
	file := env.Sys.Getenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
	if file == "" {
		file = filepath.Join(filepath.Dir(f.Path), "trustedFolders.json")
	}
	rules, _, err := clientsetup.ReadJSON(file)
	if err != nil {
		add(Problem, file, "", "Gemini CLI refuses to start with this file broken: "+err.Error())
		return
	}
	best, level := "", ""
	for p, v := range rules {
		lv, _ := v.(string)
		eff := p
		if lv == "TRUST_PARENT" {
			eff = filepath.Dir(p)
		}
		if within(env.Cwd, eff) && len(p) > len(best) {
			best, level = p, lv
		}
	}
	switch level {
	case "DO_NOT_TRUST":
		add(Problem, file, best, "is DO_NOT_TRUST, so Gemini CLI keeps MCP servers (asktray too) off in "+env.Cwd+": trust the folder (/permissions in Gemini CLI)")
	case "TRUST_FOLDER", "TRUST_PARENT":
		add(Fine, file, best, "Gemini CLI trusts "+env.Cwd)
	default:
		add(Note, file, "", env.Cwd+" is not trusted yet: Gemini CLI asks at its start there, and keeps MCP servers off until you trust it")
	}
}

// within reports whether dir is root or below it.
func within(dir, root string) bool {
	if root == "" {
		return false
	}
	rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(dir))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
