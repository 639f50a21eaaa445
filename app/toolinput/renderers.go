package toolinput

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/asktray/asktray/app/ellipsis"
)

// A renderer shows the input of one tool as Markdown blocks, each complete
// on its own (a fence is never split), and marks in shown each key it showed.
// It returns no blocks when the input lacks the keys it needs; the input is
// then shown as JSON.
type renderer func(in map[string]any, shown map[string]bool) (blocks []string, reason string)

// renderers show the inputs of Claude Code's built-in tools.
var renderers = map[string]renderer{
	"Bash":      renderBash,
	"Edit":      renderEdit,
	"MultiEdit": renderMultiEdit,
	"Write":     renderWrite,
	"WebFetch":  renderWebFetch,
}

// str returns in[k] when it is a string, and marks k shown.
func str(in map[string]any, k string, shown map[string]bool) (string, bool) {
	s, ok := in[k].(string)
	if ok {
		shown[k] = true
	}
	return s, ok
}

// flag returns in[k] when it is a boolean, and marks k shown: false is
// shown by the absence of what true would add.
func flag(in map[string]any, k string, shown map[string]bool) bool {
	b, ok := in[k].(bool)
	if ok {
		shown[k] = true
	}
	return b
}

// number returns in[k] as written when it is a number, and marks k shown.
func number(in map[string]any, k string, shown map[string]bool) (string, bool) {
	switch n := in[k].(type) {
	case json.Number:
		shown[k] = true
		return n.String(), true
	case float64:
		shown[k] = true
		return fmt.Sprint(n), true
	}
	return "", false
}

func renderBash(in map[string]any, shown map[string]bool) ([]string, string) {
	cmd, ok := str(in, "command", shown)
	if !ok {
		return nil, ""
	}
	blocks := []string{fence("sh", cmd, MaxShown)}
	if n := strings.Count(strings.TrimSuffix(cmd, "\n"), "\n") + 1; n > 1 {
		// A first line followed by many others must not pass for the
		// whole command.
		blocks = append(blocks, fmt.Sprintf("A command of %d lines.", n))
	}
	if words := Notable(cmd); len(words) > 0 {
		spans := make([]string, len(words))
		for i, w := range words {
			spans[i] = codeSpan(ellipsis.Cut(w, 80))
		}
		blocks = append(blocks, "**⚠ Changes what runs:** "+strings.Join(spans, ", "))
	}
	if t, ok := number(in, "timeout", shown); ok {
		blocks = append(blocks, "Timeout: "+Millis(t))
	}
	if flag(in, "run_in_background", shown) {
		blocks = append(blocks, "Runs in the background.")
	}
	reason, _ := str(in, "description", shown)
	return blocks, reason
}

func renderEdit(in map[string]any, shown map[string]bool) ([]string, string) {
	path, ok1 := str(in, "file_path", shown)
	old, ok2 := str(in, "old_string", shown)
	repl, ok3 := str(in, "new_string", shown)
	if !ok1 || !ok2 || !ok3 {
		return nil, ""
	}
	every := ""
	if flag(in, "replace_all", shown) {
		every = " (every occurrence)"
	}
	return []string{"**File:** " + codeSpan(path) + every, fence("diff", diffLines(old, repl), MaxShown)}, ""
}

func renderMultiEdit(in map[string]any, shown map[string]bool) ([]string, string) {
	path, ok := str(in, "file_path", shown)
	edits, ok2 := in["edits"].([]any)
	if !ok || !ok2 {
		return nil, ""
	}
	shown["edits"] = true
	// Every edit gets a share of the room, so that none is left out.
	lim := min(MaxShown, max(400, (MaxDetails/2)/max(1, len(edits))))
	blocks := []string{fmt.Sprintf("**File:** %s, %d edits", codeSpan(path), len(edits))}
	for i, e := range edits {
		m, ok := e.(map[string]any)
		if !ok {
			blocks = append(blocks, fmt.Sprintf("Edit %d is not an object:", i+1), fence("json", indentJSON(e), lim))
			continue
		}
		eshown := map[string]bool{}
		old, ok1 := str(m, "old_string", eshown)
		repl, ok2 := str(m, "new_string", eshown)
		head := fmt.Sprintf("Edit %d", i+1)
		if flag(m, "replace_all", eshown) {
			head += " (every occurrence)"
		}
		if ok1 && ok2 {
			blocks = append(blocks, head+":", fence("diff", diffLines(old, repl), lim))
		} else {
			blocks = append(blocks, head+":")
		}
		if rest := others(m, eshown); len(rest) > 0 {
			blocks = append(blocks, listOthers(fmt.Sprintf("**Also in edit %d:**", i+1), rest, lim))
		}
	}
	return blocks, ""
}

func renderWrite(in map[string]any, shown map[string]bool) ([]string, string) {
	path, ok1 := str(in, "file_path", shown)
	content, ok2 := str(in, "content", shown)
	if !ok1 || !ok2 {
		return nil, ""
	}
	lines := strings.Count(content, "\n")
	if content != "" && !strings.HasSuffix(content, "\n") {
		lines++
	}
	return []string{
		fmt.Sprintf("**File:** %s (%d lines, %d bytes, replaces the file if it exists)", codeSpan(path), lines, len(content)),
		fence("", strings.TrimSuffix(content, "\n"), MaxShown),
	}, ""
}

func renderWebFetch(in map[string]any, shown map[string]bool) ([]string, string) {
	url, ok := str(in, "url", shown)
	if !ok {
		return nil, ""
	}
	blocks := []string{"**URL:** " + codeSpan(url)}
	if prompt, ok := str(in, "prompt", shown); ok {
		blocks = append(blocks, fence("", prompt, MaxShown))
	}
	return blocks, ""
}

// diffLines shows old and repl as removed and added lines.
func diffLines(old, repl string) string {
	var b strings.Builder
	for l := range strings.SplitSeq(old, "\n") {
		b.WriteString("- " + l + "\n")
	}
	for l := range strings.SplitSeq(repl, "\n") {
		b.WriteString("+ " + l + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
