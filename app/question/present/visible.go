package present

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/asktray/asktray/app/ellipsis"
	"github.com/asktray/asktray/app/question"
)

// What the person sees is what runs: a character that is invisible, or that
// changes how the text around it reads (a bidirectional override can make
// "ls \u202e; rm -rf ~ #\u202c" look like a harmless ls), is shown as a
// marker naming it, ⟨U+202E⟩, and so never takes effect. Every front end
// (the dialog, the page, notifications, the CLI, the history) shows text
// through Visible; what the agent gets back is its own text, unchanged.

// Invisible reports whether r is shown as a marker (see
// question.Invisible).
func Invisible(r rune) bool { return question.Invisible(r) }

// Marker is how Visible shows r: ⟨U+202E⟩.
func Marker(r rune) string { return question.Marker(r) }

// Visible returns s with every hidden character (see question.Hidden:
// invisible ones, letters of another script made to look Latin) and every
// byte that is not UTF-8 (⟨0xFF⟩) replaced by a marker; a run of three or
// more of the same invisible character (a line of braille blanks) becomes
// one marker with the count, ⟨U+2800 ×40⟩. Text without any is returned as
// it is.
func Visible(s string) string {
	if !HasInvisible(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	last := 0 // s[:last] is written
	question.Hidden(s, func(i int, r rune) bool {
		if i < last {
			return true // counted in a run already
		}
		b.WriteString(s[last:i])
		switch w := utf8.RuneLen(r); {
		case r == utf8.RuneError:
			fmt.Fprintf(&b, "⟨0x%02X⟩", s[i])
			last = i + 1
		case Invisible(r):
			n := 1
			for strings.HasPrefix(s[i+n*w:], string(r)) {
				n++
			}
			if n < 3 {
				n = 1
				b.WriteString(Marker(r))
			} else {
				fmt.Fprintf(&b, "⟨U+%04X ×%d⟩", r, n)
			}
			last = i + n*w
		default: // a look-alike letter
			b.WriteString(Marker(r))
			last = i + w
		}
		return true
	})
	b.WriteString(s[last:])
	return b.String()
}

// HasInvisible reports whether Visible would change s.
func HasInvisible(s string) bool {
	_, i := question.FirstHidden(s)
	return i >= 0
}

// Limits of Compact.
const (
	// BlankRun is the number of empty lines in a row Compact starts
	// collapsing at.
	BlankRun = 3
	// SpaceRun is the number of spaces (or tabs) in a row, inside a line,
	// Compact starts collapsing at.
	SpaceRun = 24
)

// Compact collapses what could push the rest of a text out of sight: a run
// of BlankRun or more empty (or blank) lines becomes one line
// "⟨N empty lines⟩", and a run of SpaceRun or more spaces after the start
// of a line becomes "⟨N spaces⟩", a space being a tab or any Unicode space
// (a no-break space U+00A0, an ideographic space U+3000, …).
func Compact(s string) string {
	if strings.Count(s, "\n") < BlankRun && strings.IndexFunc(s, blank) < 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		switch n := j - i; {
		case n >= BlankRun:
			out = append(out, fmt.Sprintf("⟨%d empty lines⟩", n))
		case n > 0:
			out = append(out, lines[i:j]...)
		default:
			out = append(out, compactSpaces(lines[i]))
			j++
		}
		i = j
	}
	return strings.Join(out, "\n")
}

// blank reports whether r is a space for Compact: a tab or a Unicode space
// separator (category Zs).
func blank(r rune) bool { return r == '\t' || unicode.Is(unicode.Zs, r) }

// compactSpaces collapses long runs of spaces inside line (its indentation
// is kept).
func compactSpaces(line string) string {
	body := strings.TrimLeftFunc(line, blank)
	indent := line[:len(line)-len(body)]
	var b strings.Builder
	b.WriteString(indent)
	for body != "" {
		i := strings.IndexFunc(body, blank)
		if i < 0 {
			b.WriteString(body)
			break
		}
		b.WriteString(body[:i])
		rest := strings.TrimLeftFunc(body[i:], blank)
		run := body[i : len(body)-len(rest)]
		if n := utf8.RuneCountInString(run); n >= SpaceRun {
			fmt.Fprintf(&b, " ⟨%d spaces⟩ ", n)
		} else {
			b.WriteString(run)
		}
		body = rest
	}
	return b.String()
}

// VisibleCopy returns a copy of q with every text the person reads made visible
// (Visible) and its details compacted (Compact): the header, message, action,
// details, reasons, labels, options, agent rules, placeholder and the client's
// name and title. Front ends render VisibleCopy(q) and answer with the original
// q's values (option labels are matched by position).
func VisibleCopy(q question.Question) question.Question {
	v := Visible
	q.Header, q.Message, q.Action, q.AgentReason, q.RiskWhy = v(q.Header), v(q.Message), v(q.Action), v(q.AgentReason), v(q.RiskWhy)
	q.Details = Compact(v(q.Details))
	q.Placeholder, q.YesLabel, q.NoLabel = v(q.Placeholder), v(q.YesLabel), v(q.NoLabel)
	q.Client.Name, q.Client.Title, q.Client.Version = v(q.Client.Name), v(q.Client.Title), v(q.Client.Version)
	q.Options = visibleOptions(q.Options)
	q.AgentRules = visibleOptions(q.AgentRules)
	return q
}

func visibleOptions(opts []question.Option) []question.Option {
	if opts == nil {
		return nil
	}
	out := make([]question.Option, len(opts))
	for i, o := range opts {
		out[i] = question.Option{Label: Visible(o.Label), Description: Visible(o.Description)}
	}
	return out
}

// LineCount says how many lines a command has, for a multi-line command
// ("3 lines"), or "" for one line. A trailing newline adds none.
func LineCount(cmd string) string {
	n := strings.Count(strings.TrimSuffix(cmd, "\n"), "\n") + 1
	if n < 2 {
		return ""
	}
	return CountNoun(n, "line")
}

// RiskLine is what an approval says about its risk, and whether it is a
// warning: a high-risk (or destructive) request warns, with why when
// Asktray graded it ("High risk: deletes files recursively, `rm -r`. Allow
// only if you expected this request."); a low or graded one says so; a
// plain medium nobody explained says nothing ("").
func RiskLine(q *question.Question) (line string, warn bool) {
	why := Visible(Unspan(q.RiskWhy))
	switch {
	case q.Risk == question.RiskHigh || q.Destructive:
		if why != "" {
			return "High risk: " + why + ". Allow only if you expected this request.", true
		}
		return "High risk: allow only if you expected this request.", true
	case why != "":
		return UpperFirst(string(q.Risk)) + " risk: " + why + ".", false
	case q.Risk == question.RiskLow:
		return "Risk: low, as the agent grades it.", false
	}
	return "", false
}

// CommandOrPath returns what an approval would run, for a line naming it: a shell
// tool's command, a file tool's path, or else its action; shown visible, on one
// line, at most n characters.
func CommandOrPath(q *question.Question, n int) string {
	var in struct {
		Command  *string `json:"command"`
		FilePath *string `json:"file_path"`
		Notebook *string `json:"notebook_path"`
		Path     *string `json:"path"`
	}
	s := q.Action
	if len(q.Input) > 0 && json.Unmarshal(q.Input, &in) == nil {
		for _, p := range []*string{in.Command, in.FilePath, in.Notebook, in.Path} {
			if p != nil && *p != "" {
				s = *p
				break
			}
		}
	}
	s = strings.Join(strings.Fields(Visible(s)), " ")
	return ellipsis.Cut(s, n)
}

// RuleDecided words a notification for an approval a rule decided, so that
// no rule acts unseen: the title says which way ("Allowed by your rule"),
// the body what ran and which rule (ruleText, the rule's own description,
// e.g. "commands starting `npm test` in /home/u/app").
func RuleDecided(q *question.Question, allowed bool, ruleID, ruleText string) (title, body string) {
	title = "Denied by your rule"
	if allowed {
		title = "Allowed by your rule"
	}
	body = fmt.Sprintf("%s: %s\nRule %s: %s", Visible(q.Client.DisplayName()), CommandOrPath(q, 120), ruleID, Visible(Unspan(ruleText)))
	return title, body
}

// Unspan returns s with each Markdown code span (`rm -rf`) shown as a
// quotation (“rm -rf”), for the front ends that show plain text: a risk
// reason carries its evidence in code spans. An unpaired backtick is kept.
func Unspan(s string) string { return quoteSpans(s, func(t string) string { return t }) }

// quoteSpans returns s with each code span shown as a quotation and the
// text between spans passed through outside.
func quoteSpans(s string, outside func(string) string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+1:], '`')
		if j < 0 {
			break
		}
		b.WriteString(outside(s[:i]))
		b.WriteString("“" + s[i+1:i+1+j] + "”")
		s = s[i+1+j+1:]
	}
	b.WriteString(outside(s))
	return b.String()
}
