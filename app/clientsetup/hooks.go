package clientsetup

// 'asktray config AGENT --hooks' installs the hooks that run 'asktray hook
// AGENT' (package app/hook says which events, with which matcher and
// timeout). Where each agent keeps them, and in which shape:
//
//   - claude-code: "hooks" in ~/.claude/settings.json ($CLAUDE_CONFIG_DIR
//     replaces ~/.claude): {"hooks": {EVENT: [{"matcher": M, "hooks":
//     [{"type": "command", "command": C, "timeout": SECONDS}]}]}}
//     (https://code.claude.com/docs/en/hooks#configuration).
//   - codex: the same shape in ~/.codex/hooks.json ($CODEX_HOME replaces
//     ~/.codex). Codex runs a new or changed hook only after the person
//     trusts it in /hooks (https://developers.openai.com/codex/hooks, "Review
//     and trust hooks").
//   - copilot-cli: any *.json in ~/.copilot/hooks/ ($COPILOT_HOME/hooks/),
//     {"version": 1, "hooks": {event: [{"type": "command", "bash": C,
//     "powershell": C, "timeoutSec": SECONDS}]}}
//     (https://docs.github.com/en/copilot/reference/hooks-reference); asktray
//     keeps its own file there, asktray.json.
//
// asktray's handlers are those whose command runs 'hook AGENT' of a program
// named asktray; everything else in the file is left as it is.

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/asktray/asktray/app/hook"
)

// HookAgents lists the agents whose hooks 'asktray config AGENT --hooks'
// installs.
func HookAgents() []string {
	var out []string
	for _, a := range hook.Agents() {
		out = append(out, string(a))
	}
	return out
}

// Hooks is one agent's hooks setup.
type Hooks struct {
	Agent    hook.Agent
	Title    string
	Path     string        // the file the hooks go in
	Deadline time.Duration // the person's question deadline the timeouts fit
	entries  []hook.Entry
}

// BuildHooks makes agent's hooks setup: the hooks run exe with data dir
// dataDir, and their timeout fits deadline. It does not block.
func BuildHooks(agent string, sys Sys, dataDir string, deadline time.Duration) (Hooks, error) {
	a, err := hook.ParseAgent(agent)
	if err != nil {
		return Hooks{}, err
	}
	h := Hooks{Agent: a, Deadline: deadline, entries: hook.Entries(a, sys.Exe, dataDir, deadline)}
	switch a {
	case hook.ClaudeCode:
		dir := filepath.Join(sys.Home, ".claude")
		if d := sys.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
			dir = d
		}
		h.Title, h.Path = "Claude Code", filepath.Join(dir, "settings.json")
	case hook.Codex:
		h.Title, h.Path = "Codex", filepath.Join(filepath.Dir(codexPath(sys)), "hooks.json")
	case hook.CopilotCLI:
		h.Title, h.Path = "Copilot CLI", filepath.Join(copilotHome(sys), "hooks", "asktray.json")
	}
	return h, nil
}

// group is the value asktray adds for entry e: a matcher group for Claude
// Code and Codex, a handler for Copilot CLI.
func (h Hooks) group(e hook.Entry) any {
	if h.Agent == hook.CopilotCLI {
		return struct {
			Type       string `json:"type"`
			Bash       string `json:"bash"`
			PowerShell string `json:"powershell"`
			TimeoutSec int    `json:"timeoutSec"`
		}{"command", e.Command(), powerShellCommand(e.Args), e.Timeout}
	}
	type handler struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
	}
	return struct {
		Matcher string    `json:"matcher,omitempty"`
		Hooks   []handler `json:"hooks"`
	}{e.Matcher, []handler{{"command", e.Command(), e.Timeout}}}
}

// powerShellCommand is args as a PowerShell command line (the call operator
// and single-quoted arguments).
func powerShellCommand(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = "'" + strings.ReplaceAll(a, "'", "''") + "'"
	}
	return "& " + strings.Join(q, " ")
}

// Snippet returns the hooks as the JSON that goes in the file.
func (h Hooks) Snippet() ([]byte, error) {
	events := map[string][]any{}
	for _, e := range h.entries {
		events[e.Event] = append(events[e.Event], h.group(e))
	}
	doc := map[string]any{"hooks": events}
	if h.Agent == hook.CopilotCLI {
		doc["version"] = 1
	}
	return encodeJSON(doc)
}

// isOurs reports whether the hook command cmd runs 'asktray … hook AGENT'.
func isOurs(cmd string, a hook.Agent) bool {
	f := strings.Fields(strings.NewReplacer("'", " ", `"`, " ").Replace(cmd))
	for i := 1; i+1 < len(f); i++ {
		if f[i] == "hook" && f[i+1] == string(a) {
			prog := strings.ToLower(strings.Join(f[:i], " "))
			return strings.Contains(prog, "asktray")
		}
	}
	return false
}

// handlerOurs reports whether the decoded handler v is one of asktray's.
func (h Hooks) handlerOurs(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	// This very executable counts too, whatever its name.
	var own []string
	if len(h.entries) > 0 && len(h.entries[0].Args) >= 3 {
		args := h.entries[0].Args[:3]
		own = []string{hook.Entry{Args: args}.Command() + " ", powerShellCommand(args) + " "}
	}
	for _, k := range []string{"command", "bash", "powershell"} {
		s, ok := m[k].(string)
		if ok && (isOurs(s, h.Agent) || slices.ContainsFunc(own, func(p string) bool { return strings.HasPrefix(s+" ", p) })) {
			return true
		}
	}
	return false
}

// strip removes asktray's handlers from d, and the groups, event lists and
// hooks object they leave empty. It reports whether it removed any.
func (h Hooks) strip(d *jsonDoc) (bool, error) {
	var events map[string]any
	if ok, err := d.decode(&events, "hooks"); !ok || err != nil {
		return false, err
	}
	removed := false
	for _, ev := range slices.Sorted(maps.Keys(events)) {
		list, ok := events[ev].([]any)
		if !ok {
			continue
		}
		n := len(list)
		for i, g := range slices.Backward(list) {
			r, left, err := h.stripGroup(d, ev, i, g)
			if err != nil {
				return removed, err
			}
			removed = removed || r
			if r && left == 0 {
				n--
			}
		}
		if n == 0 && len(list) > 0 {
			if err := d.remove("hooks", ev); err != nil {
				return removed, err
			}
			delete(events, ev)
		}
	}
	if removed && len(events) == 0 {
		return removed, d.remove("hooks")
	}
	return removed, nil
}

// stripGroup removes asktray's handlers from the group (or, for Copilot CLI,
// the handler) at hooks[ev][i]. It returns whether it removed any and how
// many handlers are left there.
func (h Hooks) stripGroup(d *jsonDoc, ev string, i int, v any) (bool, int, error) {
	idx := strconv.Itoa(i)
	if h.Agent == hook.CopilotCLI {
		if h.handlerOurs(v) {
			return true, 0, d.remove("hooks", ev, idx)
		}
		return false, 1, nil
	}
	g, ok := v.(map[string]any)
	if !ok {
		return false, 1, nil
	}
	handlers, _ := g["hooks"].([]any)
	left := len(handlers)
	for j, hd := range slices.Backward(handlers) {
		if h.handlerOurs(hd) {
			if err := d.remove("hooks", ev, idx, "hooks", strconv.Itoa(j)); err != nil {
				return true, left, err
			}
			left--
		}
	}
	if left == len(handlers) {
		return false, left, nil
	}
	if left == 0 {
		return true, 0, d.remove("hooks", ev, idx)
	}
	return true, left, nil
}

// install adds asktray's hooks to d, after strip.
func (h Hooks) install(d *jsonDoc) error {
	if h.Agent == hook.CopilotCLI && d.find("version") == nil {
		if err := d.set([]string{"version"}, 1); err != nil {
			return err
		}
	}
	if _, err := d.object([]string{"hooks"}); err != nil {
		return err
	}
	for _, e := range h.entries {
		switch v := d.find("hooks", e.Event); {
		case v == nil:
			if err := d.add([]string{"hooks", e.Event}, []any{h.group(e)}); err != nil {
				return err
			}
		case v.Value.Kind() != '[':
			return fmt.Errorf("hooks.%s is not a list", e.Event)
		default:
			if err := d.add([]string{"hooks", e.Event, "-"}, h.group(e)); err != nil {
				return err
			}
		}
	}
	return nil
}
