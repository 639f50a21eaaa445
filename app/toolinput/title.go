package toolinput

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// titles says what an agent's built-in tool does, as a verb phrase for the
// person: Claude Code's and Codex's tools by their names, Copilot CLI's by
// theirs.
var titles = map[string]string{
	"Bash": "run a shell command", "bash": "run a shell command", "shell": "run a shell command",
	"powershell": "run a PowerShell command",
	"Edit":       "edit a file", "MultiEdit": "edit a file", "edit": "edit a file",
	"Write": "write a file", "create": "create a file", "NotebookEdit": "edit a notebook",
	"Read": "read a file", "view": "read a file", "NotebookRead": "read a notebook",
	"Glob": "list files", "LS": "list files", "Grep": "search files",
	"WebFetch": "fetch a web page", "WebSearch": "search the web", "Task": "start a subagent",
	"TodoWrite": "update its to-do list",
}

// Does says what tool does, as a verb phrase ("run a shell command",
// "edit a file"), or "" for a tool it does not know.
func Does(tool string) string { return titles[tool] }

// Title is Does as a title ("Run a shell command"), or "" for a tool it
// does not know.
func Title(tool string) string {
	d := Does(tool)
	if d == "" {
		return ""
	}
	return strings.ToUpper(d[:1]) + d[1:]
}

// Millis says a number of milliseconds in human units ("10 min", "90 s",
// "1 h 30 min", "250 ms"), or returns ms as it is, with " ms", when it is
// not a whole number.
func Millis(ms string) string {
	n, err := strconv.ParseInt(ms, 10, 64)
	switch {
	case err != nil || n < 0:
		return ms + " ms"
	case n < 1000 || n%1000 != 0 && n < 10000:
		return strconv.FormatInt(n, 10) + " ms"
	}
	s := n / 1000
	switch {
	case s < 120 && s%60 != 0:
		return fmt.Sprintf("%d s", s)
	case s < 3600:
		if s%60 == 0 {
			return fmt.Sprintf("%d min", s/60)
		}
		return fmt.Sprintf("%d min %d s", s/60, s%60)
	case s%3600 == 0:
		return fmt.Sprintf("%d h", s/3600)
	}
	return fmt.Sprintf("%d h %d min", s/3600, s%3600/60)
}

// forceWords are the command words that change what a command does to
// something it would otherwise refuse or keep: a force, a hard reset, a
// skipped check.
var forceWords = []string{
	"--force", "--force-with-lease", "-f", "--hard", "--no-verify", "--delete", "-D",
	"--prune", "--mirror", "--no-preserve-root", "--yes", "-y", "--purge", "--cascade",
}

// productionWords mark a target that is live: a word of the command, or a
// part of one between '-', '_', '.', '/', ':' or '=', that is one of them.
var productionWords = []string{"prod", "production", "live", "prd"}

// Notable lists the words of command that change what it does or where
// (forceWords, and names of production targets such as "prod-eu-west-1"),
// each once, in the order they appear, for a line that sets them apart
// from the command.
func Notable(command string) []string {
	var out []string
	for w := range strings.FieldsFuncSeq(command, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("\"'`;|&()<>", r)
	}) {
		flag, _, _ := strings.Cut(w, "=")
		hit := slices.Contains(forceWords, flag) || strings.HasPrefix(flag, "--force")
		if !hit && !strings.HasPrefix(w, "-") {
			for part := range strings.FieldsFuncSeq(strings.ToLower(w), func(r rune) bool { return strings.ContainsRune("-_./:=@", r) }) {
				if slices.Contains(productionWords, part) {
					hit = true
					break
				}
			}
		}
		if hit && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// riskyKeyWords make an input key one that changes what runs (Claude
// Code's dangerouslyDisableSandbox, a force or skip option): such a key is
// set apart in the list of the input's other keys.
var riskyKeyWords = []string{"danger", "unsafe", "sandbox", "force", "skip", "bypass", "insecure", "nocheck", "no_verify", "noverify"}

// riskyKey reports whether key names an option that changes what runs.
func riskyKey(key string) bool {
	k := strings.ToLower(key)
	return slices.ContainsFunc(riskyKeyWords, func(w string) bool { return strings.Contains(k, w) })
}
