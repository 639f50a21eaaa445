package hook

import (
	"fmt"
	"path/filepath"
)

// Kilo is Kilo Code's CLI (https://kilo.ai/docs/automate/extending/plugins),
// the @kilocode/cli package, a fork of opencode.
const Kilo Agent = "kilo"

// Kilo's permission route is opencode's (opencode.go), observed with Kilo
// 7.7.9: the same permission.asked and permission.replied bus events, the
// same plugin client and reply route, the same prompt ("Permission
// required"). asktray's plugin is the same file, in Kilo's global plugin
// folder, ~/.config/kilo/plugins/asktray.js ($XDG_CONFIG_HOME replaces
// ~/.config); Kilo loads it at its next start. Its config is kilo.json (or
// kilo.jsonc; it reads opencode.json there too).
func init() {
	register(Spec{
		Name: Kilo, Title: "Kilo", Program: "kilo",
		Events: []Event{{Name: "permission.asked"}, {Name: "permission.replied"}},
		Spellings: map[string]string{
			"permission.asked":   PermissionRequest,
			"permission.replied": PostToolUse,
		},
		Answer: ReplyBody, AsksToo: true, ShellTools: []string{"bash"},
		Unwrap: unwrapPluginEvent, Trust: askRuleTrust("Kilo", "kilo.json", "kilo.jsonc", "opencode.json", "opencode.jsonc", "config.json"),
		Settings: Settings{
			File: func(home string, getenv func(string) string) string {
				return filepath.Join(xdgConfig(home, getenv), "kilo", "plugins", "asktray.js")
			},
			CommandKey: "command", TimeoutKey: "timeout", OwnFile: true,
			Plugin: &Plugin{Source: func(e Entry) []byte { return pluginSource("kilo", e) }, Read: readPluginEntry},
			Note: func(file string) string {
				return fmt.Sprintf("Kilo loads %s at its next start. It asks in its own prompt at the same time;\n"+
					"the first answer counts, and an answer there ends the tray question. Kilo asks only where\n"+
					"its permission rules say \"ask\": set \"permission\" in kilo.json.", file)
			},
		},
	})
}
