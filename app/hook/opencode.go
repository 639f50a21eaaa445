package hook

import (
	"fmt"
	"path/filepath"
)

// Opencode is opencode (https://opencode.ai/docs/plugins/), the
// opencode-ai package.
const Opencode Agent = "opencode"

// opencode's permission route (observed with opencode 1.18.33, docs/hooks.md):
//
//   - opencode runs no hook commands, and its typed permission.ask plugin
//     hook is never called (https://github.com/anomalyco/opencode/issues/7006).
//     A plugin's event handler gets permission.asked when a rule says ask,
//     while opencode's own prompt is up; the first answer counts. asktray's
//     plugin (pluginSource) runs 'asktray hook opencode' with the event and
//     posts what it prints to opencode's own route,
//     POST /permission/{requestID}/reply, {"reply": "once"|"reject",
//     "message": …}: a reject's message is what the model reads. When the
//     person answers in opencode first, permission.replied comes; the plugin
//     runs the hook with it (and the asked event it answers), which ends the
//     tray question as answered in the agent, and stops the waiting hook.
//   - The plugin file is asktray's own, in opencode's global plugin folder,
//     ~/.config/opencode/plugins/asktray.js ($XDG_CONFIG_HOME replaces
//     ~/.config); opencode loads it at its next start.
//   - Its shell tool is bash, whose permission.asked metadata holds the
//     command.
//   - Trust: opencode asks (and so the tray) only where a "permission" rule
//     in its config says "ask"; its defaults allow most tools
//     (https://opencode.ai/docs/permissions/).
func init() {
	register(Spec{
		Name: Opencode, Title: "opencode", Program: "opencode",
		Events: []Event{{Name: "permission.asked"}, {Name: "permission.replied"}},
		Spellings: map[string]string{
			"permission.asked":   PermissionRequest,
			"permission.replied": PostToolUse,
		},
		Answer: ReplyBody, AsksToo: true, ShellTools: []string{"bash"},
		Unwrap: unwrapPluginEvent, Trust: askRuleTrust("opencode", "opencode.json", "opencode.jsonc", "config.json"),
		Settings: Settings{
			File: func(home string, getenv func(string) string) string {
				return filepath.Join(xdgConfig(home, getenv), "opencode", "plugins", "asktray.js")
			},
			CommandKey: "command", TimeoutKey: "timeout", OwnFile: true,
			Plugin: &Plugin{Source: func(e Entry) []byte { return pluginSource("opencode", e) }, Read: readPluginEntry},
			Note: func(file string) string {
				return fmt.Sprintf("opencode loads %s at its next start. It asks in its own prompt at the same time;\n"+
					"the first answer counts, and an answer there ends the tray question. opencode asks only where\n"+
					"its permission rules say \"ask\" (its defaults allow most tools): set \"permission\" in opencode.json.", file)
			},
		},
	})
}

// xdgConfig is $XDG_CONFIG_HOME, or ~/.config.
func xdgConfig(home string, getenv func(string) string) string {
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		return d
	}
	return filepath.Join(home, ".config")
}

// askRuleTrust says whether a "permission" rule in the agent's global
// config (files, in the folder above its plugins folder) or the project's
// (env.Cwd, the first two files) says "ask": without one opencode and its
// fork Kilo ask nothing, so nothing reaches the tray. title is the agent
// as a person calls it.
func askRuleTrust(title string, files ...string) func(TrustEnv) []TrustLine {
	return func(env TrustEnv) []TrustLine {
		dir := filepath.Dir(filepath.Dir(env.HooksFile))
		var paths []string
		for _, f := range files {
			paths = append(paths, filepath.Join(dir, f))
		}
		if env.Cwd != "" {
			paths = append(paths, filepath.Join(env.Cwd, files[0]), filepath.Join(env.Cwd, files[1]))
		}
		var out []TrustLine
		for _, f := range paths {
			m, exists, err := env.ReadJSON(f)
			switch {
			case err != nil:
				out = append(out, TrustLine{Status: TrustNote, File: f, Text: "cannot read it: " + err.Error()})
			case exists && saysAsk(m["permission"]):
				return append(out, TrustLine{Status: TrustFine, File: f, Key: "permission", Text: "a rule says \"ask\": " + title + " asks there, and the tray with it"})
			}
		}
		return append(out, TrustLine{Status: TrustNote, File: paths[0], Key: "permission",
			Text: "no rule says \"ask\", and " + title + "'s defaults allow most tools without asking, so nothing reaches the tray: set, for instance, \"permission\": {\"bash\": \"ask\"}"})
	}
}

// saysAsk reports whether v, a "permission" value, is "ask" or holds one.
func saysAsk(v any) bool {
	switch v := v.(type) {
	case string:
		return v == "ask"
	case map[string]any:
		for _, x := range v {
			if saysAsk(x) {
				return true
			}
		}
	}
	return false
}
