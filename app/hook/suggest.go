package hook

import (
	"bytes"
	"encoding/json"
	"strings"
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
		if r := []rune(label); len(r) > maxLabel {
			label = string(r[:maxLabel-1]) + "…"
		}
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

// suggestionLabel words a suggestion as Claude Code means it. Claude Code's
// own dialog words it differently: "Yes, and always allow access to DIR from
// this project" whatever the destination, session included (Claude Code
// 2.1.332).
func suggestionLabel(typ, behavior, mode, dest string, dirs, rules []string) string {
	switch typ {
	case "addRules", "replaceRules":
		verb := "Always allow "
		switch behavior {
		case "deny":
			verb = "Always deny "
		case "ask":
			verb = "Always ask for "
		}
		if dest == "session" {
			verb = strings.Replace(verb, "Always ", "", 1)
			verb = strings.ToUpper(verb[:1]) + verb[1:]
		}
		return verb + strings.Join(rules, ", ") + where(dest)
	case "setMode":
		return "Switch to " + ModeName(mode) + " mode" + where(dest)
	case "addDirectories":
		return "Allow access to " + strings.Join(dirs, ", ") + where(dest)
	}
	return "Claude Code rule " + typ + where(dest)
}

// where says where Claude Code keeps a suggestion: its destination
// (https://code.claude.com/docs/en/hooks#permission-update-entries).
func where(dest string) string {
	switch dest {
	case "session":
		return " for this session (Claude Code keeps it)"
	case "localSettings":
		return " in this project (Claude Code's local settings)"
	case "projectSettings":
		return " in this project, shared (Claude Code's project settings)"
	case "userSettings":
		return " in every project (Claude Code's user settings)"
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
