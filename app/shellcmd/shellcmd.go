// Package shellcmd reads a shell command line the way the shell will run it:
// the simple commands it is made of, wherever they are (joined by &&, ||, ;,
// | or newlines, inside $(…), backticks, <(…), subshells, blocks, loops,
// function bodies, and inside the string of bash -c / sh -c), the words of
// each after quote removal, and the redirections and their targets.
//
// Rules use it to decide whether a command is covered by a word-boundary
// prefix (Claude Code's Bash(npm test:*)): a line is covered only when every
// one of its simple commands is, and a prefix never covers a redirection
// that writes outside the working directory. The risk grader uses it to
// read what each simple command does.
//
// Parsing is mvdan.cc/sh/v3/syntax (Bash dialect); this package imports that
// and the standard library only. Everything here is pure and safe for
// concurrent use from any goroutine.
package shellcmd

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Limits on what Split reads.
const (
	// MaxLine is the longest command line Split parses, in bytes.
	MaxLine = 256 << 10
	// MaxDepth bounds how deep bash -c strings nest before Split gives up
	// unpacking them (the innermost is then one opaque command).
	MaxDepth = 4
)

// Word is one word of a simple command after quote removal.
type Word struct {
	// Value is the word as the command receives it when Literal; else its
	// source text.
	Value string
	// Literal is false when the shell decides the word's value at run time:
	// an expansion ($x, $(…), `…`, $((…)), <(…)), an unquoted glob or brace
	// pattern, a leading ~, or ANSI-C quoting ($'…').
	Literal bool
}

// Redirect is one redirection of a command.
type Redirect struct {
	Op     string // as written: ">", ">>", "&>", "<", "<<<", …
	Target Word   // the file (or fd, for >&2); heredoc bodies are not targets
	// Writes is true when the redirection opens Target for writing.
	Writes bool
}

// Command is one simple command.
type Command struct {
	// Text is the command's source text (its redirections excluded).
	Text string
	// Assigns are the variable assignments before the command name
	// (FOO=1 in "FOO=1 make"), as written.
	Assigns []string
	// Words are the command name and its arguments. For declare, export,
	// local, readonly, typeset and let the first word is that keyword.
	Words []Word
	// Redirects are the redirections of the statement the command is.
	Redirects []Redirect
	// Unpacked is set on the shell of a bash -c / sh -c whose string was
	// split into its own commands, which follow it in Line.Commands.
	Unpacked bool
}

// Line is a parsed command line.
type Line struct {
	Source string
	// Commands are every simple command of the line, in source order,
	// those nested in substitutions and bash -c strings included.
	Commands []Command
	// Evaluates is the source text of the first construct through which
	// Bash can run code that is none of Commands, or change what they run
	// ($((x)), $[x], ${x:o:l}, ${!x}, ${x@P}, ${x:=v}, ${a[i]}, a[i]=v,
	// [[ x -eq y ]], for PATH in …, eval, trap, source, printf -v 'a[…]',
	// …: arithmetic evaluates the array subscripts a value holds, and so
	// its command substitutions), or "". No prefix rule covers such a line.
	Evaluates string
}

// ErrTooLong is returned for a line longer than MaxLine.
var ErrTooLong = fmt.Errorf("command: longer than %d bytes", MaxLine)

// ErrControl is returned for a line holding a control character other
// than tab and newline (a carriage return, NUL, ESC, DEL, …). The parser
// reads "\\\r\n" as a line continuation, "\r" as a space and drops NUL,
// where Bash keeps them as characters and ends the command at the newline:
// such a line could be split differently from how it runs, and none of them
// belongs in a command a person reads and approves.
var ErrControl = errors.New("command: holds a control character (carriage return, NUL, escape, …), which the shell and the parser may read differently")

// hasControl reports whether s holds a C0 control other than tab and
// newline, or DEL.
func hasControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return (r < 0x20 && r != '\t' && r != '\n') || r == 0x7f }) >= 0
}

// Split parses src as Bash and returns its simple commands. A line that does
// not parse is an error: rules then treat it as one opaque command.
func Split(src string) (Line, error) {
	if len(src) > MaxLine {
		return Line{}, ErrTooLong
	}
	l := Line{Source: src}
	if hasControl(src) {
		return Line{}, ErrControl
	}
	if err := l.parse(src, 0); err != nil {
		return Line{}, err
	}
	return l, nil
}

func (l *Line) parse(src string, depth int) error {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return fmt.Errorf("command: %w", err)
	}
	var werr error
	syntax.Walk(f, func(n syntax.Node) bool {
		if l.Evaluates == "" && n != nil {
			l.Evaluates = evaluates(src, n)
		}
		st, ok := n.(*syntax.Stmt)
		if !ok || werr != nil {
			return werr == nil
		}
		if c, ok := simple(src, st); ok {
			werr = l.add(c, depth)
		}
		return werr == nil
	})
	return werr
}

// add appends c, and the commands of its string when c is bash -c '…'.
func (l *Line) add(c Command, depth int) error {
	inner, ok := shellString(c.Words)
	if !ok || depth >= MaxDepth {
		l.Commands = append(l.Commands, c)
		return nil
	}
	sub := Line{Source: inner}
	if hasControl(inner) || sub.parse(inner, depth+1) != nil {
		l.Commands = append(l.Commands, c) // left opaque: only a rule for the shell itself covers it
		return nil
	}
	c.Unpacked = true
	l.Commands = append(l.Commands, c)
	l.Commands = append(l.Commands, sub.Commands...)
	if l.Evaluates == "" {
		l.Evaluates = sub.Evaluates
	}
	return nil
}

// simple returns st as a Command when st is a simple command (or a
// declaration, which runs like one); compound statements have none of their
// own, their parts are visited on their own.
func simple(src string, st *syntax.Stmt) (Command, bool) {
	var c Command
	switch x := st.Cmd.(type) {
	case *syntax.CallExpr:
		for _, a := range x.Assigns {
			c.Assigns = append(c.Assigns, text(src, a))
		}
		for _, w := range x.Args {
			c.Words = append(c.Words, word(src, w))
		}
		c.Text = text(src, x)
	case *syntax.DeclClause:
		c.Words = append(c.Words, Word{Value: x.Variant.Value, Literal: true})
		for _, a := range x.Args {
			c.Words = append(c.Words, Word{Value: text(src, a)})
		}
		c.Text = text(src, x)
	case *syntax.LetClause:
		c.Words = []Word{{Value: "let", Literal: true}, {Value: strings.TrimSpace(strings.TrimPrefix(text(src, x), "let"))}}
		c.Text = text(src, x)
	case nil:
		if len(st.Redirs) == 0 {
			return c, false
		}
		c.Text = "" // a bare redirection, "> file", truncates the file
	default:
		c.Redirects = redirects(src, st)
		if len(c.Redirects) == 0 {
			return c, false
		}
		// A compound statement's own redirections ("{ …; } > f") stand as
		// a command of their own, so that the target is checked.
		return c, true
	}
	c.Redirects = redirects(src, st)
	return c, true
}

func redirects(src string, st *syntax.Stmt) []Redirect {
	var out []Redirect
	for _, r := range st.Redirs {
		rd := Redirect{Op: r.Op.String()}
		if r.Word != nil {
			rd.Target = word(src, r.Word)
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrInOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll,
			syntax.RdrAllClob, syntax.AppAllClob:
			rd.Writes = true
		case syntax.DplOut:
			// >&2 duplicates a descriptor; >&file (or >&$x) writes a file.
			rd.Writes = !rd.Target.Literal || !isFD(rd.Target.Value)
		}
		out = append(out, rd)
	}
	return out
}

func isFD(s string) bool {
	s = strings.TrimSuffix(s, "-")
	if s == "" {
		return true // >&- closes
	}
	return strings.Trim(s, "0123456789") == ""
}

func text(src string, n syntax.Node) string {
	a, b := n.Pos().Offset(), n.End().Offset()
	if a > b || b > uint(len(src)) {
		return ""
	}
	return src[a:b]
}

// shellString returns the command string of bash -c STRING (also sh, dash,
// zsh, ksh, with -c in any cluster of short options, before or after other
// options) when it is literal.
func shellString(ws []Word) (string, bool) {
	if len(ws) < 2 || !ws[0].Literal {
		return "", false
	}
	switch path.Base(ws[0].Value) {
	case "bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "busybox":
	default:
		return "", false
	}
	start := 1
	if path.Base(ws[0].Value) == "busybox" {
		if !ws[1].Literal || (ws[1].Value != "sh" && ws[1].Value != "ash") {
			return "", false
		}
		start = 2
	}
	hasC := false
	for i := start; i < len(ws); i++ {
		w := ws[i]
		if !w.Literal {
			return "", false
		}
		switch v := w.Value; {
		case v == "--" || v == "-":
			continue
		case strings.HasPrefix(v, "--"):
			continue // --norc, --login, …
		case strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+"):
			if strings.ContainsRune(v[1:], 'c') {
				hasC = true
			}
			if strings.ContainsAny(v[1:], "oO") && i+1 < len(ws) {
				i++ // -o option / -O shopt take an argument
			}
		default:
			return v, hasC
		}
	}
	return "", false
}

// ErrNotLiteral is returned by Prefix for a prefix whose words the shell
// would expand.
var ErrNotLiteral = errors.New("has a word the shell would expand ($, `, *, ?, [, {, ~); quote it")

// Prefix reads a rule's command prefix ("npm test", "git log --oneline")
// into its words. It must be one simple command of literal words, with no
// redirection.
func Prefix(s string) ([]string, error) {
	l, err := Split(s)
	if err != nil {
		return nil, err
	}
	if len(l.Commands) != 1 || len(l.Commands[0].Words) == 0 {
		return nil, errors.New("must be one simple command, without &&, ||, ;, |, $(…) or bash -c")
	}
	c := l.Commands[0]
	if len(c.Redirects) > 0 || len(c.Assigns) > 0 {
		return nil, errors.New("must not redirect or assign")
	}
	out := make([]string, len(c.Words))
	for i, w := range c.Words {
		if !w.Literal {
			return nil, ErrNotLiteral
		}
		out[i] = w.Value
	}
	return out, nil
}

// HasPrefix reports whether c starts with the words of prefix, on word
// boundaries: each of those words literal and equal, and no assignment
// before the command name (PATH=… changes what runs). The words after the
// prefix may be anything.
func (c Command) HasPrefix(prefix []string) bool {
	if len(prefix) == 0 || len(c.Assigns) > 0 || len(c.Words) < len(prefix) || c.Unpacked {
		return false
	}
	for i, p := range prefix {
		if !c.Words[i].Literal || c.Words[i].Value != p {
			return false
		}
	}
	return true
}

// WritesOutside returns the first redirection of the line that writes
// somewhere other than inside cwd (see Inside), or false. When the line
// changes directory (cd, pushd, popd) no relative target counts as inside.
func (l Line) WritesOutside(cwd string) (Redirect, bool) {
	moves := l.ChangesDir()
	for _, c := range l.Commands {
		for _, r := range c.Redirects {
			if r.Writes && (!Inside(r.Target, cwd) || moves && r.Target.Value != "/dev/null" && !strings.HasPrefix(r.Target.Value, "/")) {
				return r, true
			}
		}
	}
	return Redirect{}, false
}

// ChangesDir reports whether a command of the line changes the working
// directory (cd, pushd, popd), so that relative paths after it are not
// relative to where the line started.
func (l Line) ChangesDir() bool {
	for _, c := range l.Commands {
		if len(c.Words) > 0 {
			switch path.Base(c.Words[0].Value) {
			case "cd", "pushd", "popd":
				return true
			}
		}
	}
	return false
}

// Inside reports whether the path target names stays inside the working
// directory cwd (an absolute, cleaned path; "" when unknown): a literal
// relative path that does not climb out with "..", an absolute path under
// cwd, or /dev/null. Anything the shell expands is outside.
func Inside(target Word, cwd string) bool {
	p := target.Value
	switch {
	case !target.Literal || p == "":
		return false
	case strings.Contains(p, `\`) || (len(p) >= 2 && p[1] == ':'):
		return false // a Windows path (C:\…) is never taken for a relative one
	case p == "/dev/null":
		return true
	case strings.HasPrefix(p, "/"):
		if cwd == "" || !strings.HasPrefix(cwd, "/") {
			return false
		}
		c := path.Clean(p)
		root := path.Clean(cwd)
		return c == root || strings.HasPrefix(c, strings.TrimSuffix(root, "/")+"/")
	}
	c := path.Clean(p)
	return c != ".." && !strings.HasPrefix(c, "../")
}
