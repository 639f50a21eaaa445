package present

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/asktray/asktray/app/ellipsis"
	"github.com/asktray/asktray/app/question"
)

// Markdown that Plain takes away: emphasis markers around words, links and
// images written inline, heading, quote and list markers at a line's start,
// code fences, and backslash escapes.
var (
	strongRE   = regexp.MustCompile(`(\*\*|__)(\S(?:.*?\S)?)(\*\*|__)`)
	emRE       = regexp.MustCompile(`(^|[^\pL\pN*_\\])([*_])(\S(?:[^*_]*?\S)?)([*_])($|[^\pL\pN*_])`)
	strikeRE   = regexp.MustCompile(`~~(\S(?:.*?\S)?)~~`)
	linkRE     = regexp.MustCompile(`!?\[([^\]]*)\]\(([^)\s]*)[^)]*\)`)
	headingRE  = regexp.MustCompile(`^\s{0,3}#{1,6}\s+`)
	quoteRE    = regexp.MustCompile(`^\s{0,3}(>\s?)+`)
	bulletRE   = regexp.MustCompile(`^(\s*)[-*+]\s+`)
	fenceRE    = regexp.MustCompile("^\\s{0,3}(```|~~~)")
	escapedRE  = regexp.MustCompile("\\\\([\\\\`*_{}\\[\\]()#+\\-.!|>~])")
	ruleLineRE = regexp.MustCompile(`^\s{0,3}([-*_])(\s*[-*_]){2,}\s*$`)
)

// Plain returns Markdown as the plain text a notification shows: no
// emphasis markers (**3%** reads 3%), code spans as quotations (see
// Unspan), links as their text, no heading, quote or fence markers, list
// items as bullets; what is inside a code fence is kept as it is. Plain
// text comes back unchanged but for backslash escapes.
func Plain(md string) string {
	lines := strings.Split(md, "\n")
	out := lines[:0]
	inFence := false
	for _, l := range lines {
		if fenceRE.MatchString(l) {
			inFence = !inFence
			continue
		}
		if inFence {
			out = append(out, l)
			continue
		}
		if ruleLineRE.MatchString(l) {
			continue
		}
		l = headingRE.ReplaceAllString(l, "")
		l = quoteRE.ReplaceAllString(l, "")
		l = bulletRE.ReplaceAllString(l, "${1}• ")
		out = append(out, plainInline(l))
	}
	return strings.Join(out, "\n")
}

// plainInline takes the inline Markdown out of one line; code spans are
// quoted first so that nothing inside them is read as emphasis.
func plainInline(l string) string { return quoteSpans(l, plainMarks) }

func plainMarks(s string) string {
	s = linkRE.ReplaceAllString(s, "$1")
	s = strongRE.ReplaceAllString(s, "$2")
	s = strikeRE.ReplaceAllString(s, "$1")
	for range 2 { // adjacent spans share a boundary character
		s = emRE.ReplaceAllString(s, "$1$3$5")
	}
	return escapedRE.ReplaceAllString(s, "$1")
}

// NoteText is the summary and body of the desktop notification for q, in
// plain text (see Plain) with invisible characters as markers. The summary
// says who asks and, for an approval, what it wants to do ("claude-code
// wants to run: npm test", "cursor wants to edit: src/app.go",
// "claude-code asks to approve: Deploy to production"); the body is the
// start of what is asked, on one line, at most 139 characters. An agent's
// own notification (IsAgentNotice) has its header, which already says who
// asks where, as the summary and its message as the body.
func NoteText(q *question.Question) (title, body string) {
	who := Who(q)
	switch {
	case IsAgentNotice(q):
		return ellipsis.Cut(Visible(q.Header)+onHost(q), 140), ellipsis.Cut(strings.Join(strings.Fields(Plain(Visible(q.Message))), " "), 140)
	case q.Kind == question.KindNotice:
		title = who + " says"
	case q.Kind == question.KindApproval:
		what := CommandOrPath(q, 80)
		if what == "" {
			what = OneLineSummary(q, 80)
		}
		title = who + " " + approvalVerb(q) + ": " + what
	default:
		title = who + " asks"
	}
	body = Plain(Visible(q.Message))
	if q.Kind == question.KindApproval {
		body = approvalBody(q)
	}
	if h := Plain(Visible(q.Header)); h != "" && q.Kind != question.KindApproval {
		body = h + ": " + body
	}
	body = ellipsis.Cut(strings.Join(strings.Fields(body), " "), 140)
	return title, body
}

// approvalVerb says what an approval wants, from the keys of its input.
func approvalVerb(q *question.Question) string {
	var in struct {
		Command  *string `json:"command"`
		FilePath *string `json:"file_path"`
		Notebook *string `json:"notebook_path"`
		Path     *string `json:"path"`
		URL      *string `json:"url"`
	}
	if len(q.Input) > 0 && json.Unmarshal(q.Input, &in) == nil {
		switch {
		case in.Command != nil && *in.Command != "":
			return "wants to run"
		case in.FilePath != nil && *in.FilePath != "", in.Notebook != nil && *in.Notebook != "":
			return "wants to edit"
		case in.Path != nil && *in.Path != "":
			return "wants to use " + Visible(q.Action) + " on"
		}
	}
	return "asks to approve"
}

// approvalBody is what a notification says under an approval's summary:
// the agent's reason, else the risk, else the tool and the details.
func approvalBody(q *question.Question) string {
	if r := Plain(Visible(q.AgentReason)); strings.TrimSpace(r) != "" {
		return r
	}
	parts := []string{}
	if line, _ := RiskLine(q); line != "" {
		parts = append(parts, Plain(line))
	}
	if q.Action != "" && approvalVerb(q) != "asks to approve" {
		parts = append(parts, "Tool: "+Visible(q.Action))
	}
	if len(parts) == 0 && q.Details != "" {
		parts = append(parts, Plain(Visible(q.Details)))
	}
	if len(parts) == 0 {
		parts = append(parts, Plain(Visible(q.Message)))
	}
	return strings.Join(parts, " · ")
}
