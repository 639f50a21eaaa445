// Package risk grades what an agent asks to run: a shell command, a file
// edit, or any other tool's input. One table (rows.go) says what is high
// risk and why, and which commands only read; a compound command takes the
// highest grade of its parts. The reasons are written for the person
// ("deletes files recursively, `rm -rf`").
//
// It imports the standard library, app/question (for the grades) and
// app/shellcmd. Everything here is pure and safe for concurrent use.
package risk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/shellcmd"
)

// Grade is a request's risk and why.
type Grade struct {
	Risk question.Risk
	// Reasons say what makes it high or low, most telling first, each
	// with its evidence in a code span. None for a plain medium.
	Reasons []string
}

// Text is g as one line for the person ("high: deletes files recursively,
// `rm -rf`"), or "" when there is nothing to say (medium, no reason).
func (g Grade) Text() string {
	if len(g.Reasons) == 0 {
		return ""
	}
	return string(g.Risk) + ": " + strings.Join(g.Reasons, "; ")
}

// Why is g's reasons as one phrase ("deletes files recursively, `rm -r`;
// runs as another user, `sudo`"), "" when there are none: what
// question.Question.RiskWhy holds.
func (g Grade) Why() string { return strings.Join(g.Reasons, "; ") }

func (g *Grade) high(reason string) {
	if g.Risk != question.RiskHigh {
		g.Risk, g.Reasons = question.RiskHigh, nil
	}
	if !slices.Contains(g.Reasons, reason) {
		g.Reasons = append(g.Reasons, reason)
	}
}

// Class is what sort of tool a tool is, for rules and grading.
type Class int

// The classes.
const (
	Other    Class = iota // any tool: its whole input counts
	Shell                 // runs a Bash command line: input "command"
	ShellRaw              // runs a command line of another shell (PowerShell)
	File                  // writes one file: input "file_path", "notebook_path" or "path"
	ReadOnly              // only reads
)

// tools names the agents' built-in tools by class: Claude Code's (Bash,
// Edit, …), Codex's (Bash), Copilot CLI's (bash, powershell, edit,
// create, view) and Gemini CLI's (run_shell_command, write_file, replace,
// read_file, …: Gemini CLI 0.61.0, each file tool's input naming
// file_path) and Factory Droid's Execute (0.225.2; its Read and LS are
// Claude Code's names).
var tools = map[string]Class{
	"run_shell_command": Shell, "write_file": File, "replace": File,
	"Execute":   Shell,
	"read_file": ReadOnly, "read_many_files": ReadOnly, "glob": ReadOnly, "grep_search": ReadOnly, "list_directory": ReadOnly,
	"google_web_search": ReadOnly, "write_todos": ReadOnly,
	"Bash": Shell, "bash": Shell, "powershell": ShellRaw,
	"Edit": File, "MultiEdit": File, "Write": File, "NotebookEdit": File, "edit": File, "create": File,
	"Read": ReadOnly, "Glob": ReadOnly, "Grep": ReadOnly, "LS": ReadOnly, "NotebookRead": ReadOnly,
	"WebSearch": ReadOnly, "TodoWrite": ReadOnly, "view": ReadOnly,
}

// ClassOf returns tool's class; unknown tools are Other.
func ClassOf(tool string) Class { return tools[tool] }

// Command returns the command line a shell tool's input runs, if it has one.
func Command(input json.RawMessage) (string, bool) {
	var in struct {
		Command *string `json:"command"`
	}
	if json.Unmarshal(input, &in) != nil || in.Command == nil {
		return "", false
	}
	return *in.Command, true
}

// Path returns the file a file or read-only tool's input names, if any.
func Path(input json.RawMessage) (string, bool) {
	var in map[string]json.RawMessage
	if json.Unmarshal(input, &in) != nil {
		return "", false
	}
	for _, k := range []string{"file_path", "notebook_path", "path"} {
		var s string
		if json.Unmarshal(in[k], &s) == nil && s != "" {
			return s, true
		}
	}
	return "", false
}

// Tool grades a request to run tool with input in the working directory
// cwd ("" when unknown).
func Tool(tool string, input json.RawMessage, cwd string) Grade {
	var g Grade
	switch ClassOf(tool) {
	case Shell:
		if cmd, ok := Command(input); ok {
			g = ShellCommand(cmd, cwd)
		}
	case File:
		g.Risk = question.RiskMedium
		if p, ok := Path(input); ok {
			gradePath(&g, p, cwd, true)
		}
	case ReadOnly:
		g = Grade{Risk: question.RiskLow, Reasons: []string{"only reads"}}
		if p, ok := Path(input); ok {
			gradePath(&g, p, cwd, false)
		}
	}
	if g.Risk == "" {
		g.Risk = question.RiskMedium
	}
	strs := stringsOf(input)
	if s := sqlDrop(strs); s != "" {
		g.high("drops or truncates a database, `" + s + "`")
	}
	hidden(&g, strs)
	var flags struct {
		NoSandbox bool `json:"dangerouslyDisableSandbox"`
	}
	if json.Unmarshal(input, &flags) == nil && flags.NoSandbox {
		g.high("runs outside the sandbox, `dangerouslyDisableSandbox: true`")
	}
	return g
}

// Text grades free text an agent wrote about what it will do (an approval's
// action and details): only what reads as dropping a database is high.
func Text(s string) Grade {
	var g Grade
	if d := sqlDrop([]string{s}); d != "" {
		g.high("drops or truncates a database, `" + d + "`")
	}
	hidden(&g, []string{s})
	return g
}

// hidden makes g high when any of ss holds a character that hides how it
// reads (a bidirectional override, a zero-width space, an escape, a byte
// that is not UTF-8: see question.Invisible): the person sees a marker
// where it is, but text made to look like something else is never routine.
func hidden(g *Grade, ss []string) {
	for _, s := range ss {
		r, i := question.FirstHidden(s)
		if i < 0 {
			continue
		}
		m := question.Marker(r)
		if r == utf8.RuneError {
			m = fmt.Sprintf("⟨0x%02X⟩", s[i])
		}
		g.high("holds a hidden character that can change how it reads, `" + m + "`")
		return
	}
}

// gradePath grades a file tool's (or a reading tool's) path.
func gradePath(g *Grade, p, cwd string, writes bool) {
	if c := credential(p); c != "" {
		verb := "reads"
		if writes {
			verb = "writes"
		}
		g.high(verb + " credentials, `" + c + "`")
		return
	}
	if writes && outside(p, cwd) {
		g.high("writes outside the working directory, `" + p + "`")
	}
	if writes {
		runsLater(g, "", p)
	}
}

// outside reports whether p is known to lie outside cwd: it climbs out with
// "..", starts at ~, or is absolute and not under cwd (when cwd is known).
func outside(p, cwd string) bool {
	switch {
	case p == "" || p == "/dev/null" || p == "/dev/stdout" || p == "/dev/stderr":
		return false
	case strings.HasPrefix(p, "~"):
		return true
	case strings.HasPrefix(p, "/"):
		return cwd != "" && !shellcmd.Inside(shellcmd.Word{Value: p, Literal: true}, cwd)
	}
	c := path.Clean(p)
	return c == ".." || strings.HasPrefix(c, "../")
}

// stringsOf returns every string value in a JSON input.
func stringsOf(input json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(input))
	var out []string
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		if s, ok := tok.(string); ok {
			out = append(out, s)
		}
	}
}
