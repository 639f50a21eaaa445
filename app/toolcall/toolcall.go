// Package toolcall turns an agent's request to run one of its own tools
// into the approval question the person is asked: the input rendered as
// app/toolinput shows it, graded by app/risk, bounded as app/question
// requires. A permission prompt that arrives over MCP (permission_prompt)
// and one that arrives through an agent's hook are built here, so that
// they are the same question by construction.
package toolcall

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/asktray/asktray/app/ellipsis"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/risk"
	"github.com/asktray/asktray/app/toolinput"
)

// Call is an agent's request to run one of its tools, as a permission
// prompt or a permission hook hands it over.
type Call struct {
	// Tool is the tool's name as the agent spells it ("Bash", an MCP tool's
	// full name); it is the approval's action.
	Tool string
	// RenderAs is the tool whose input Input is rendered and graded as
	// (Copilot CLI's bash is Claude Code's Bash); "" means Tool.
	RenderAs string
	// Input is the tool's input, as the agent would run it.
	Input json.RawMessage
	// Cwd is the agent's working directory; "" when it does not say.
	Cwd string
	// Preface is Markdown shown before the rendered input, such as a line
	// saying the agent's own prompt asks too; "" for none.
	Preface string
	// AgentRules are the labels of the rules the agent itself offers to
	// make with an allow (Claude Code's permission suggestions).
	AgentRules []string
}

// cutNote ends details cut to fit question.MaxDetails.
const cutNote = "\n\n… (cut: the request is too long to show in full)"

// Approval is c as the approval question the person is asked: the action
// is the tool's name; the details lead with the working directory and the
// preface, then show the whole input (every key, what changes what runs set
// apart), or the question is Cut when it does not fit (no front end allows
// that: present.Unseen); the risk is graded from what the input does. An input that is a
// JSON object within question.MaxInput goes with the question, so that
// rules match its content, and is graded in the working directory. Its
// origin is question.OriginPermission, whichever door it came by; the
// caller sets the question's client and tool. It does not block; any
// goroutine may call it.
func Approval(c Call) question.Question {
	as := c.RenderAs
	if as == "" {
		as = c.Tool
	}
	r := toolinput.RenderJSON(as, c.Input)
	details := r.Details
	if c.Cwd != "" {
		details = "**Working directory:** `" + strings.ReplaceAll(c.Cwd, "`", "'") + "`\n\n" + details
	}
	details = c.Preface + details
	cut := r.Cut
	if rs := []rune(details); len(rs) > question.MaxDetails {
		details, cut = string(rs[:question.MaxDetails-64])+cutNote, true
	}
	q := question.Question{
		Kind: question.KindApproval, Origin: question.OriginPermission, Action: clip(c.Tool, question.MaxAction),
		Message: clip(c.Tool, question.MaxMessage), Details: details, AgentReason: r.Reason, Cut: cut,
	}
	if len(c.Cwd) <= question.MaxCwd {
		q.Cwd = c.Cwd // a longer one is no path rules could name
	}
	// The grade reads the input once: an object within bounds in the
	// agent's working directory, where rules match its content too;
	// anything else without one. Only an object's grade gives its reason.
	object := json.Valid(c.Input) && bytes.HasPrefix(bytes.TrimSpace(c.Input), []byte("{"))
	cwd := ""
	if object && len(c.Input) <= question.MaxInput {
		q.Input, cwd = c.Input, q.Cwd
	}
	g := risk.Tool(as, c.Input, cwd)
	q.Risk = g.Risk
	if object {
		q.RiskWhy = clip(g.Why(), question.MaxRiskWhy)
	}
	for _, label := range c.AgentRules {
		q.AgentRules = append(q.AgentRules, question.Option{Label: label})
	}
	return q
}

// clip cuts s to at most n runes, the last one "…".
func clip(s string, n int) string { return ellipsis.Cut(s, n) }
