package policy

import (
	"fmt"
	"path"
	"strings"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/risk"
	"github.com/asktray/asktray/app/shellcmd"
	"github.com/asktray/asktray/app/toolinput"
)

// MatchKind says what of a request a rule looks at besides its client and
// action: nothing (the whole tool), or its content.
type MatchKind string

// The match kinds.
const (
	// MatchTool is a rule for every request its action pattern matches,
	// whatever it runs: what rules were before they matched content.
	MatchTool MatchKind = ""
	// MatchCommand matches a shell tool's command exactly (surrounding
	// space aside).
	MatchCommand MatchKind = "command"
	// MatchPrefix matches a Bash command whose simple commands all start
	// with the pattern's words (Claude Code's Bash(npm test:*)), none of
	// them writing outside the working directory.
	MatchPrefix MatchKind = "prefix"
	// MatchPath matches a file tool's path: exactly, or a glob inside a
	// directory ("/home/u/app/src/*").
	MatchPath MatchKind = "path"
	// MatchInput matches another tool's whole input (its canonical JSON),
	// or a request_approval's details, exactly.
	MatchInput MatchKind = "input"
)

// MaxContent is the longest content pattern, in bytes.
const MaxContent = question.MaxDetails

// The tools as rules' action patterns name them ("permission_prompt:Bash",
// "request_approval:Deploy"): what a rule says it covers is read from
// them. A question's own sort is its Origin.
const (
	toolPermissionPrompt = "permission_prompt"
	toolPermissionHook   = "permission_request"
	toolRequestApproval  = "request_approval"
)

// Subject is what of a question content rules look at. Build it with
// SubjectOf.
type Subject struct {
	Tool    string     // the agent tool ("Bash", "Edit"); "" for request_approval
	Class   risk.Class // the agent tool's class
	Command string     // a shell tool's command
	HasCmd  bool
	Line    *shellcmd.Line // the command split, nil when it does not parse (or is not Bash)
	Path    string         // a file tool's path, absolute and cleaned when it can be
	Input   string         // an other tool's canonical input, or request_approval's details
	HasIn   bool
	Cwd     string
}

// SubjectOf reads q's content by its origin: the agent tool's input of a
// permission (permission_prompt or a hook), the details of a
// request_approval; nothing of the rest.
func SubjectOf(q question.Question) Subject {
	s := Subject{Cwd: cleanDir(q.Cwd)}
	switch q.Origin {
	case question.OriginApproval:
		s.Input, s.HasIn = q.Details, true
		return s
	case question.OriginPermission:
	default:
		return s
	}
	s.Tool, s.Class = q.Action, risk.ClassOf(q.Action)
	if len(q.Input) == 0 {
		return s
	}
	switch s.Class {
	case risk.Shell, risk.ShellRaw:
		s.Command, s.HasCmd = risk.Command(q.Input)
		if s.HasCmd && s.Class == risk.Shell {
			if l, err := shellcmd.Split(s.Command); err == nil {
				s.Line = &l
			}
		}
	case risk.File, risk.ReadOnly:
		if p, ok := risk.Path(q.Input); ok {
			s.Path = absPath(p, s.Cwd)
		}
	}
	s.Input, s.HasIn = string(toolinput.Canonical(q.Input)), true
	return s
}

func cleanDir(d string) string {
	if d == "" || !strings.HasPrefix(d, "/") {
		return d
	}
	return path.Clean(d)
}

// absPath is p made absolute against cwd and cleaned, when it can be.
func absPath(p, cwd string) string {
	switch {
	case strings.HasPrefix(p, "/"):
		return path.Clean(p)
	case cwd != "" && strings.HasPrefix(cwd, "/") && !strings.HasPrefix(p, "~"):
		return path.Join(cwd, p)
	}
	return p
}

// matchesWhole reports whether r's content pattern covers the whole of s
// (a prefix rule covers only parts: see coverParts).
func (r *Rule) matchesWhole(s Subject) bool {
	switch r.Match {
	case MatchTool:
		return true
	case MatchCommand:
		return s.HasCmd && strings.TrimSpace(s.Command) == strings.TrimSpace(r.Pattern)
	case MatchPath:
		if s.Path == "" || (s.Class != risk.File && s.Class != risk.ReadOnly) {
			return false
		}
		return strings.HasPrefix(s.Path, "/") && Glob(r.Pattern, s.Path)
	case MatchInput:
		return s.HasIn && s.Class != risk.Shell && s.Class != risk.File && s.Input == r.Pattern
	}
	return false
}

// exact reports whether r names one request's content exactly, as the
// high-risk guard wants.
func (r *Rule) exact() bool {
	switch r.Match {
	case MatchCommand, MatchInput:
		return true
	case MatchPath:
		return IsLiteral(r.Pattern)
	}
	return false
}

// contentRank ranks how narrowly r matches content, for precedence: a
// whole-tool rule, a pattern (prefix, path glob), an exact one.
func (r *Rule) contentRank() int {
	switch {
	case r.Match == MatchTool:
		return 0
	case r.exact():
		return 2
	}
	return 1
}

// withinCwd reports whether a request in dir is inside r's working
// directory scope.
func (r *Rule) withinCwd(dir string) bool {
	if r.Cwd == "" {
		return true
	}
	if dir == "" {
		return false
	}
	root := strings.TrimRight(r.Cwd, `/\`)
	return dir == r.Cwd || strings.HasPrefix(dir, root+"/") || strings.HasPrefix(dir, root+`\`)
}

// validateContent checks r's match kind, pattern and cwd.
func (r *Rule) validateContent() []error {
	var errs []error
	if len(r.Cwd) > question.MaxCwd || cleanDir(r.Cwd) != r.Cwd {
		errs = append(errs, fieldErr("cwd", "must be a clean directory path of at most %d bytes, got %q", question.MaxCwd, r.Cwd))
	}
	if n := len(r.Pattern); n > MaxContent {
		return append(errs, fieldErr("pattern", "at most %d bytes, got %d", MaxContent, n))
	}
	switch r.Match {
	case MatchTool:
		if r.Pattern != "" {
			errs = append(errs, fieldErr("pattern", "a rule without match kind has no pattern"))
		}
	case MatchCommand:
		if strings.TrimSpace(r.Pattern) == "" {
			errs = append(errs, fieldErr("pattern", "the command must not be empty"))
		}
	case MatchPrefix:
		if _, err := shellcmd.Prefix(r.Pattern); err != nil {
			errs = append(errs, fieldErr("pattern", "a command prefix %v", err))
		}
	case MatchPath:
		errs = append(errs, validatePath(r.Pattern)...)
	case MatchInput:
	default:
		errs = append(errs, fieldErr("match", "%q is not one of command, prefix, path, input (or none)", r.Match))
	}
	if r.HighRisk && r.Match != MatchTool && !r.exact() {
		errs = append(errs, fieldErr("match", "a high-risk rule matches one exact %s, not a pattern", r.Match))
	}
	return errs
}

// validatePath checks a path pattern: an absolute clean path, or a glob
// whose wildcards all come after a directory ("/home/u/app/src/*").
func validatePath(p string) []error {
	if _, err := parseGlob(p); err != nil {
		return []error{fieldErr("pattern", "%v", err)}
	}
	lit := p
	if i := strings.IndexAny(p, "*?"); i >= 0 {
		lit = p[:i]
		if j := strings.LastIndex(lit, "/"); j > 0 {
			lit = lit[:j]
		} else {
			return []error{fieldErr("pattern", "a path glob must start with a directory, like /home/u/app/src/*; got %q", p)}
		}
	}
	if !strings.HasPrefix(lit, "/") || path.Clean(lit) != lit || strings.Contains(p, "/../") {
		return []error{fieldErr("pattern", "a path must be absolute and clean (no .., no //), got %q", p)}
	}
	return nil
}

// DescribeSubject is a short account of what s is, for messages.
func DescribeSubject(s Subject) string {
	switch {
	case s.HasCmd:
		return s.Command
	case s.Path != "":
		return s.Path
	}
	return fmt.Sprint(s.Tool)
}

// coverParts returns the candidates prefix rules make for s's command line:
// each deny rule whose prefix starts any of its commands, and, when every
// command that runs something starts with an allow rule's prefix, no
// redirection writes outside the working directory and nothing in the line
// can run code of its own (shellcmd.Line.Evaluates), one allow candidate
// standing for them all. That candidate is as specific, in each part of a
// rule, as the least specific of the rules it stands for, so that it beats
// another rule only when every one of them would; real maps its id to the
// rule to report (the first command's).
func coverParts(prefixes []*Rule, s Subject) (cands []*Rule, real map[string]Rule) {
	if len(prefixes) == 0 || s.Line == nil || s.Class != risk.Shell {
		return nil, nil
	}
	words := make(map[*Rule][]string, len(prefixes))
	for _, r := range prefixes {
		if w, err := shellcmd.Prefix(r.Pattern); err == nil {
			words[r] = w
		}
	}
	var covering []*Rule
	_, outside := s.Line.WritesOutside(s.Cwd)
	// A line through which Bash can run code none of its commands shows
	// ($((x)) evaluating a subscript, ${x@P}, eval, …) is never covered.
	allCovered := !outside && s.Line.Evaluates == ""
	for _, c := range s.Line.Commands {
		if c.Unpacked || (len(c.Words) == 0 && len(c.Assigns) == 0) {
			continue // runs nothing itself: its parts, or its redirections, are checked
		}
		by, denies := coverCommand(c, prefixes, words)
		for _, d := range denies {
			if !containsRule(cands, d) {
				cands = append(cands, d)
			}
		}
		if by == nil {
			allCovered = false
		} else {
			covering = append(covering, by)
		}
	}
	if !allCovered || len(covering) == 0 {
		return cands, nil
	}
	stand := *covering[0]
	for _, r := range covering[1:] {
		if cmpSpecificity(specificityOf(r.Client), specificityOf(stand.Client)) < 0 {
			stand.Client = r.Client
		}
		if cmpSpecificity(specificityOf(r.Action), specificityOf(stand.Action)) < 0 {
			stand.Action = r.Action
		}
	}
	return append(cands, &stand), map[string]Rule{stand.ID: *covering[0]}
}

// coverCommand returns the most specific allow rule whose prefix starts c,
// and every deny or ask rule whose prefix does (each stands on its own).
func coverCommand(c shellcmd.Command, prefixes []*Rule, words map[*Rule][]string) (by *Rule, denies []*Rule) {
	for _, r := range prefixes {
		if w, ok := words[r]; !ok || !c.HasPrefix(w) {
			continue
		}
		if r.Decision != Allow {
			denies = append(denies, r)
		} else if by == nil || r.beats(by) {
			by = r
		}
	}
	return by, denies
}

func containsRule(rs []*Rule, r *Rule) bool {
	for _, o := range rs {
		if o.ID == r.ID {
			return true
		}
	}
	return false
}

// Wide returns, for a rule without a content pattern that covers a tool
// able to write or run things, what it covers in words ("matches every
// Bash command"), else "". The Rules tab and `asktray rules` flag such
// rules so that the person can narrow or remove them.
func (r Rule) Wide() string {
	if r.Match != MatchTool {
		return ""
	}
	tool, rest, found := strings.Cut(r.Action, ":")
	switch {
	case !IsLiteral(tool):
		return "matches every request of every tool"
	case !found:
		return ""
	case tool == toolRequestApproval:
		if !IsLiteral(rest) {
			return "matches every approval request titled " + rest + ", whatever its details"
		}
		return "matches every “" + unquoteGlob(rest) + "” request, whatever its details"
	case tool != toolPermissionPrompt && tool != toolPermissionHook:
		return ""
	case !IsLiteral(rest):
		return "matches every request of every tool named " + rest + ", whatever it runs"
	}
	name := unquoteGlob(rest)
	switch risk.ClassOf(name) {
	case risk.Shell, risk.ShellRaw:
		return "matches every " + name + " command"
	case risk.File:
		return "matches every " + name + " of any file"
	case risk.ReadOnly:
		return ""
	}
	return "matches every " + name + " request, whatever its input"
}

// unquoteGlob is the name a literal pattern matches.
func unquoteGlob(p string) string {
	toks, err := parseGlob(p)
	if err != nil {
		return p
	}
	var b strings.Builder
	for _, t := range toks {
		b.WriteRune(t.r)
	}
	return b.String()
}

// MatchText says in words which requests of its action r matches, for the
// rules lists: "command `npm test`", "commands starting `npm test`", "path
// /home/u/app/src/*", "this exact input", a whole-tool rule's Wide warning
// (or "every request"), followed by " in DIR" for a rule scoped to a
// working directory and " on HOST" for one scoped to a host.
func (r Rule) MatchText() string {
	var s string
	switch r.Match {
	case MatchCommand:
		s = "command `" + r.Pattern + "`"
	case MatchPrefix:
		s = "commands starting `" + r.Pattern + "`"
	case MatchPath:
		s = "path " + r.Pattern
	case MatchInput:
		if strings.HasPrefix(r.Action, toolRequestApproval+":") {
			s = "these details exactly"
		} else {
			s = "this exact input"
		}
	default:
		s = "every request"
		if w := r.Wide(); w != "" {
			s = "⚠ " + strings.TrimPrefix(w, "matches ") // read after "Matches" and under MATCHES
		}
	}
	if r.Cwd != "" {
		s += " in " + r.Cwd
	}
	if r.Host != "" {
		s += " on " + r.Host
	}
	return s
}

// Counterexample says in words one request r does not match, for the Always
// panel ("not `npm test && rm -rf ~`"), or "" for a whole-tool rule.
func (r Rule) Counterexample() string {
	switch r.Match {
	case MatchCommand:
		return "Not `" + r.Pattern + " --other-flag`, nor `" + r.Pattern + " && rm -rf ~`."
	case MatchPrefix:
		return "Not `" + r.Pattern + "x`, nor `" + r.Pattern + " && rm -rf ~`, nor `" + r.Pattern + " > ~/.bashrc`."
	case MatchPath:
		return "Not any other file."
	case MatchInput:
		if strings.HasPrefix(r.Action, toolRequestApproval+":") {
			return "Not the same request with other details."
		}
		return "Not the same tool with any other input."
	}
	return ""
}

// MatchLabels names the match kinds as the rule editors list them, in that
// order: the Always panel and the Rules tab share these words.
var MatchLabels = []string{"every request", "exact command", "command prefix", "path", "exact input"}

var matchByLabel = map[string]MatchKind{
	"every request": MatchTool, "exact command": MatchCommand, "command prefix": MatchPrefix,
	"path": MatchPath, "exact input": MatchInput,
}

// MatchByLabel is the match kind a rule editor's label names; an unknown
// label is MatchTool, as an empty selection is.
func MatchByLabel(label string) MatchKind { return matchByLabel[label] }

// Label is m as the rule editors name it (see MatchLabels).
func (m MatchKind) Label() string {
	for name, k := range matchByLabel {
		if k == m {
			return name
		}
	}
	return MatchLabels[0]
}
