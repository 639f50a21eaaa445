package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
)

// Codex is OpenAI's Codex CLI (https://developers.openai.com/codex/hooks).
const Codex Agent = "codex"

// Codex's hooks:
//
//   - PermissionRequest, which Codex runs before its own prompt
//     (https://github.com/openai/codex/pull/17563); and the turn events that
//     bound a tray question: Stop (the turn ended) and UserPromptSubmit (a
//     new turn began). Codex runs its hooks from its app-server daemon,
//     which outlives the terminal that asked, so the hook's parent bounds
//     nothing; these are what Codex itself reports (codex-rs/hooks/src/events,
//     Codex 0.171.0 sends both, turn_id included), and Bind watches the
//     terminal UI that asks (codexwatch.go).
//   - They go in ~/.codex/hooks.json ($CODEX_HOME replaces ~/.codex), in
//     Claude Code's shape. Codex runs a new or changed hook only after the
//     person trusts it in /hooks (https://developers.openai.com/codex/hooks,
//     "Review and trust hooks").
//   - Its answer is Claude Code's decision, never with updatedInput,
//     updatedPermissions or interrupt, which make Codex discard the whole
//     decision (codex-rs/hooks/schema/generated/permission-request.command.output.schema.json:
//     "PermissionRequest hooks currently fail closed if this field is
//     present").
//   - Trust: [features] hooks = false (codex_hooks, its older name) turns
//     hooks off; each hook runs only once the person trusted it in /hooks,
//     which config.toml records as [hooks.state."FILE:EVENT:GROUP:HANDLER"]
//     trusted_hash = "sha256:…", a hash of the handler, and enabled = false
//     when turned off there (codex-rs/hooks/src/engine/discovery.rs,
//     command_hook_hash; codexHash matches what Codex 0.171.0 reports).
func init() {
	register(Spec{
		Name: Codex, Title: "Codex", Program: "codex",
		Events: []Event{{Name: PermissionRequest}, {Name: UserPromptSubmit}, {Name: Stop}},
		Answer: HookSpecific,
		Settings: Settings{
			File: func(home string, getenv func(string) string) string {
				if d := getenv("CODEX_HOME"); d != "" {
					return filepath.Join(d, "hooks.json")
				}
				return filepath.Join(home, ".codex", "hooks.json")
			},
			CommandKey: "command", TimeoutKey: "timeout",
			Note: func(string) string {
				return "Codex asks you once to review the asktray hooks: at its next start it says hooks need review;\n" +
					"type /hooks and trust them. Running this again writes the same entries, so Codex does not ask\n" +
					"again. Codex shows its own prompt only after the hook returns. The Stop and UserPromptSubmit\n" +
					"hooks return at once: they end a tray question whose turn is over. Hooks are on by default in\n" +
					"Codex; [features] hooks = false in config.toml turns them off."
			},
			Removed: "Codex notices at its next start; /hooks shows what is left.",
		},
		Trust: codexTrust,
		Bind:  codexBind,
	})
}

// codexTrust reads Codex's hooks switch and its review of each asktray hook.
func codexTrust(env TrustEnv) []TrustLine {
	cfg := filepath.Join(filepath.Dir(env.HooksFile), "config.toml")
	var out []TrustLine
	add := func(s TrustStatus, key, text string) {
		out = append(out, TrustLine{Status: s, File: cfg, Key: key, Text: text})
	}
	doc, _, err := env.ReadTOML(cfg)
	if err != nil {
		add(TrustProblem, "", fmt.Sprintf("is not TOML Codex can read (%v)", err))
		return out
	}
	features, _ := doc["features"].(map[string]any)
	for _, k := range []string{"hooks", "codex_hooks"} {
		if features[k] == false {
			add(TrustProblem, "features."+k, "is false, so Codex runs no hook: take it out")
		}
	}
	hooks, _ := doc["hooks"].(map[string]any)
	states, _ := hooks["state"].(map[string]any)
	src, err := filepath.Abs(env.HooksFile)
	if err != nil {
		src = env.HooksFile
	}
	for _, f := range env.Found {
		key := fmt.Sprintf("%s:%s:%d:%d", src, CodexEventName(f.Event), f.Group, f.Handler)
		st, _ := states[key].(map[string]any)
		at := fmt.Sprintf("hooks.state.%q", key)
		trusted, _ := st["trusted_hash"].(string)
		switch {
		case st["enabled"] == false:
			add(TrustProblem, at+".enabled", "is false: Codex skips this asktray hook; turn it on in Codex's /hooks")
		case trusted == "":
			add(TrustProblem, at+".trusted_hash", "is missing: Codex has not trusted this asktray hook yet and skips it; start Codex, type /hooks and trust it")
		case trusted != CodexHash(f):
			add(TrustProblem, at+".trusted_hash", "does not match the hook as it is now (it changed since you trusted it): review and trust it again in Codex's /hooks")
		default:
			add(TrustFine, at, "Codex trusts this asktray hook as it is")
		}
	}
	return out
}

// CodexHash is Codex's trust hash of handler f: SHA-256 of the compact,
// key-sorted JSON of {"event_name", "matcher"?, "hooks": [the handler
// normalized: type, command, timeout (default 600, at least 1), async,
// statusMessage?]}. It does not block.
func CodexHash(f Installed) string {
	t := f.Timeout
	if t == 0 {
		t = 600
	}
	handler := map[string]any{"type": "command", "command": f.Command, "timeout": max(t, 1), "async": f.Raw["async"] == true}
	if s, ok := f.Raw["statusMessage"].(string); ok && s != "" {
		handler["statusMessage"] = s
	}
	id := map[string]any{"event_name": CodexEventName(f.Event), "hooks": []any{handler}}
	if f.HasMatcher {
		id["matcher"] = f.Matcher
	}
	b, _ := json.Marshal(id) // sorted keys, compact; its values always encode
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// CodexEventName is a Claude Code style event name as Codex labels it in
// its review keys and hashes (it does not block):
// PermissionRequest → permission_request.
func CodexEventName(s string) string {
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
