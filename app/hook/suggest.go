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
		label := suggestionLabel(s.Type, s.Behavior, s.Mode, s.Directories, ruleNames(s.Rules)) + where(s.Destination)
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

func suggestionLabel(typ, behavior, mode string, dirs, rules []string) string {
	switch typ {
	case "addRules", "replaceRules":
		verb := "Always allow "
		switch behavior {
		case "deny":
			verb = "Always deny "
		case "ask":
			verb = "Always ask for "
		}
		return verb + strings.Join(rules, ", ")
	case "setMode":
		return "Switch to " + mode + " mode"
	case "addDirectories":
		return "Allow access to " + strings.Join(dirs, ", ")
	}
	return "Claude Code rule " + typ
}

func where(dest string) string {
	switch dest {
	case "session":
		return ", this session (Claude Code keeps it)"
	case "localSettings":
		return " in this project (Claude Code keeps it)"
	case "projectSettings":
		return " in this project, shared (Claude Code keeps it)"
	case "userSettings":
		return " everywhere (Claude Code keeps it)"
	}
	return " (Claude Code keeps it)"
}
