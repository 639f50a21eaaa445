package present

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/asktray/asktray/app/ellipsis"
	"github.com/asktray/asktray/app/question"
)

// LineName names q on one line wherever a question is listed rather than
// shown (the tray menu, the queue line, History's rows, 'asktray pending'
// and 'asktray history', the export's summary): for an agent tool's
// approval, what it would do, "npm test in ~/src/shop" for a command (with
// its working directory, home as ~ when home is known), "Edit
// ~/src/shop/main.go" for a file; otherwise its header, an approval's
// action, or the start of its message. Markdown is taken out (PlainLine),
// invisible characters are markers, and the line is at most n characters.
func LineName(q *question.Question, home string, n int) string {
	if IsToolApproval(q) {
		if s := toolDoing(q, home, n); s != "" {
			return s
		}
	}
	s := q.Header
	if strings.TrimSpace(s) == "" && q.Kind == question.KindApproval {
		s = q.Action
	}
	if strings.TrimSpace(s) == "" {
		s = q.Message
	}
	return PlainLine(s, n)
}

// PlainLine is Markdown text as one line of plain text (Plain, its lines
// and spaces joined, **database migration** read as database migration),
// with invisible characters as markers, at most n characters: for the
// places that show one line of a question (see LineName).
func PlainLine(md string, n int) string {
	return ellipsis.Cut(strings.Join(strings.Fields(Plain(Visible(md))), " "), n)
}

// ToolCommand returns the command or path an agent tool's approval would
// run or touch, as the agent sent it, with which of the two it is; "" for
// none (not a tool approval, or an input with neither).
func ToolCommand(q *question.Question) (command, path string) {
	if !IsToolApproval(q) {
		return "", ""
	}
	var in struct {
		Command  *string `json:"command"`
		FilePath *string `json:"file_path"`
		Notebook *string `json:"notebook_path"`
		Path     *string `json:"path"`
	}
	if json.Unmarshal(q.Input, &in) != nil {
		return "", ""
	}
	if in.Command != nil && *in.Command != "" {
		return *in.Command, ""
	}
	for _, p := range []*string{in.FilePath, in.Notebook, in.Path} {
		if p != nil && *p != "" {
			return "", *p
		}
	}
	return "", ""
}

// toolDoing is what tool approval q would do, in at most n characters:
// the command, cut so that " in DIR" still shows, or the tool and its path.
func toolDoing(q *question.Question, home string, n int) string {
	oneLine := func(s string) string { return strings.Join(strings.Fields(Visible(s)), " ") }
	cmd, p := ToolCommand(q)
	switch {
	case cmd != "":
		if q.Cwd == "" {
			return ellipsis.Cut(oneLine(cmd), n)
		}
		in := " in " + oneLine(HomePath(q.Cwd, home))
		room := max(n-utf8.RuneCountInString(in), n/2)
		return ellipsis.Cut(ellipsis.Cut(oneLine(cmd), room)+in, n)
	case p != "":
		if strings.HasPrefix(p, "/") {
			p = HomePath(p, home)
		}
		return ellipsis.Cut(oneLine(q.Action)+" "+oneLine(p), n)
	}
	return ""
}
