package hook

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/asktray/asktray/app/ellipsis"
)

// Suggestion is one of Claude Code's permission_suggestions: a standing
// permission its own dialog would offer ("Yes, and don't ask again for…").
// Returned as updatedPermissions with an allow, Claude Code keeps it itself
// (https://code.claude.com/docs/en/hooks#permissionrequest-decision-control).
type Suggestion struct {
	Label string          // for the person, unique among a request's suggestions
	Raw   json.RawMessage // the suggestion as Claude Code sent it
}

// maxSuggestions and maxLabel keep the labels within what an approval may
// offer.
const (
	maxSuggestions = 8
	maxLabel       = 100
)

// Suggestions reads permission_suggestions (a JSON array) and labels each
// for a person; entries it cannot read are left out.
func Suggestions(raw json.RawMessage) []Suggestion {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil
	}
	var out []Suggestion
	seen := map[string]bool{}
	for _, it := range items {
		var s struct {
			Type        string   `json:"type"`
			Behavior    string   `json:"behavior"`
			Destination string   `json:"destination"`
			Mode        string   `json:"mode"`
			Directories []string `json:"directories"`
			Rules       []struct {
				ToolName    string `json:"toolName"`
				RuleContent string `json:"ruleContent"`
			} `json:"rules"`
		}
		if json.Unmarshal(it, &s) != nil || s.Type == "" {
			continue
		}
		label := suggestionLabel(s.Type, s.Behavior, s.Mode, s.Destination, s.Directories, ruleNames(s.Rules))
		label = ellipsis.Cut(label, maxLabel)
		if seen[label] || len(out) == maxSuggestions {
			continue
		}
		seen[label] = true
		var b bytes.Buffer
		if json.Compact(&b, it) != nil {
			continue
		}
		out = append(out, Suggestion{Label: label, Raw: b.Bytes()})
	}
	return out
}

func ruleNames(rules []struct {
	ToolName    string `json:"toolName"`
	RuleContent string `json:"ruleContent"`
}) []string {
	var names []string
	for _, r := range rules {
		if r.RuleContent != "" {
			names = append(names, r.ToolName+"("+r.RuleContent+")")
		} else {
			names = append(names, r.ToolName)
		}
	}
	return names
}

// suggestionLabel words a suggestion as Claude Code means it: what it
// allows and where Claude Code keeps it. A session destination lasts for
// this session only; projectSettings and localSettings stand in this
// project ("always"); userSettings stands for the person in every project.
// Claude Code's own dialog words some differently (2.1.332): "Yes, and
// always allow access to DIR from this project" for an addDirectories whose
// destination is session, and "Yes, allow all edits during this session" for
// setMode acceptEdits, the mode its UI calls Accept edits.
func suggestionLabel(typ, behavior, mode, dest string, dirs, rules []string) string {
	always := dest != "session" && dest != "cliArg"
	switch typ {
	case "addRules", "replaceRules":
		verb := map[string]string{"deny": "deny ", "ask": "ask before "}[behavior]
		if verb == "" {
			verb = "allow "
		}
		return capital(alwaysIf(always)+verb) + strings.Join(rules, ", ") + where(dest)
	case "setMode":
		if !always {
			if mode == "acceptEdits" {
				return "Allow all edits (Accept edits mode)" + where(dest)
			}
			return "Switch to " + ModeName(mode) + " mode" + where(dest)
		}
		return "Always start in " + ModeName(mode) + " mode" + where(dest)
	case "addDirectories":
		return capital(alwaysIf(always)+"allow access to ") + strings.Join(dirs, ", ") + where(dest)
	}
	return "Claude Code rule " + typ + where(dest)
}

func alwaysIf(b bool) string {
	if b {
		return "always "
	}
	return ""
}

// capital is s with its first letter upper case (s is ASCII here).
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// where says where Claude Code keeps a suggestion: its destination
// (https://code.claude.com/docs/en/hooks#permission-update-entries).
func where(dest string) string {
	switch dest {
	case "session":
		return " for this session (Claude Code keeps it)"
	case "cliArg":
		return " for this run of Claude Code"
	case "localSettings":
		return " in this project (Claude Code's local settings)"
	case "projectSettings":
		return " in this project, for everyone (Claude Code's project settings)"
	case "userSettings":
		return " for you, in every project (Claude Code's user settings)"
	}
	return " (Claude Code keeps it)"
}

// modeNames are Claude Code's permission modes as its UI names them (the
// title of each mode in Claude Code 2.1.332; "default" shows as Manual).
var modeNames = map[string]string{
	"default": "Manual", "auto": "Auto", "acceptEdits": "Accept edits", "plan": "Plan",
	"dontAsk": "Don't Ask", "bypassPermissions": "Bypass Permissions",
}

// ModeName returns Claude Code's name for permission mode m as its UI shows
// it, or m itself for a mode it does not know.
func ModeName(m string) string {
	if n, ok := modeNames[m]; ok {
		return n
	}
	return m
}
