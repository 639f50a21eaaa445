// Package hook speaks the hook protocols of coding agents (Claude Code, Codex,
// Copilot CLI): which events Asktray installs, how each agent's stdin payload
// reads, and how each wants its decision printed.
//
// The command `asktray hook AGENT` (app/cli) reads a payload with Parse, sends
// the resulting Request over the control socket (app/control), and prints
// Format's bytes for the Reply it gets. Everything here is pure: no I/O, safe
// for concurrent use from any goroutine. It imports only the standard
// library; app/boundary_test.go enforces that.
package hook

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Agent names a coding agent whose hooks Asktray answers. The name is also
// the client name questions carry, so rules name it the same way.
type Agent string

// The agents.
const (
	ClaudeCode Agent = "claude-code"
	Codex      Agent = "codex"
	CopilotCLI Agent = "copilot-cli"
)

// Agents lists every agent in a stable order.
func Agents() []Agent { return []Agent{ClaudeCode, Codex, CopilotCLI} }

// ParseAgent returns the agent named s, or an error listing the agents.
func ParseAgent(s string) (Agent, error) {
	if a := Agent(s); slices.Contains(Agents(), a) {
		return a, nil
	}
	return "", fmt.Errorf("agent: %q is not one of claude-code, codex, copilot-cli", s)
}

// Event names, normalized to Claude Code's spelling whatever the agent's own.
const (
	PermissionRequest  = "PermissionRequest"
	Notification       = "Notification"
	PreToolUse         = "PreToolUse"
	PostToolUse        = "PostToolUse"
	PostToolUseFailure = "PostToolUseFailure"
	UserPromptSubmit   = "UserPromptSubmit"
	Stop               = "Stop"
	SessionEnd         = "SessionEnd"
	// PermissionDenied is Claude Code's report that its auto mode's
	// classifier blocked a tool call (Claude Code 2.1.332): the call did
	// not run, and the person decided nothing.
	PermissionDenied = "PermissionDenied"
	// Doctor is the test request 'asktray doctor' sends through an
	// installed hook command; no agent sends it. The app shows it as a
	// notice, and the hook prints only an acknowledgement (DoctorAck), never
	// a decision.
	Doctor = "AsktrayDoctor"
)

// AskUserQuestion is the Claude Code tool whose multiple-choice questions the
// tray may answer (PreToolUse, setting hook_ask_user_question).
const AskUserQuestion = "AskUserQuestion"

// OwnToolPrefix starts the name Claude Code gives each of Asktray's own MCP
// tools ("mcp__asktray__ask_user"), the server's name being the one
// `asktray config claude-code` writes. Calling one asks the person in the
// tray, so the hooks never raise an approval for it: that would be a second
// tray question before the first.
const OwnToolPrefix = "mcp__asktray__"

// OwnTool reports whether tool is one of Asktray's own MCP tools as Claude
// Code names them.
func OwnTool(tool string) bool {
	return strings.HasPrefix(tool, OwnToolPrefix) && len(tool) > len(OwnToolPrefix)
}

// Tool is the tool name every hook approval carries, so rules match hook
// approvals as "permission_request:<agent's tool>" (e.g.
// "permission_request:Bash"), next to permission_prompt's and
// request_approval's.
const Tool = "permission_request"

// Events returns the events to install for agent a, spelled as a's config
// file spells them. The first is always the permission event.
//
//   - claude-code: PreToolUse, for every tool, which fires in every
//     permission mode (auto, Claude Code's default since 2.1.283, fires
//     PermissionRequest almost never): the person's rules decide there,
//     a high-risk call or one an ask rule matches is asked in the tray,
//     anything else is left at once to Claude Code's mode; it also answers
//     Claude's own multiple-choice questions (AskUserQuestion).
//     PermissionRequest asks what Manual mode would ask in the terminal;
//     Notification tells; PermissionDenied records what auto mode blocked;
//     the session events end a tray question the terminal answered first
//     (Claude Code shows its own dialog while a PermissionRequest hook
//     runs and does not stop the hook:
//     https://github.com/anthropics/claude-code/issues/15433).
//   - codex: PermissionRequest, which Codex runs before its own prompt
//     (https://github.com/openai/codex/pull/17563); and the turn events
//     that bound a tray question: Stop (the turn ended) and
//     UserPromptSubmit (a new turn began). Codex runs its hooks from its
//     app-server daemon, which outlives the terminal that asked, so the
//     hook's parent bounds nothing; these are what Codex itself reports
//     (codex-rs/hooks/src/events, Codex 0.171.0 sends both, turn_id
//     included).
//   - copilot-cli: permissionRequest, which also runs before the prompt;
//     notification; and the tool and session events that show the session
//     moved on, which withdraw its notices
//     (https://docs.github.com/en/copilot/reference/hooks-reference; Copilot
//     CLI 1.0.102 names these among its hooks).
func Events(a Agent) []string {
	switch a {
	case ClaudeCode:
		return []string{PermissionRequest, Notification, PostToolUse, PostToolUseFailure, UserPromptSubmit, Stop, SessionEnd, PreToolUse, PermissionDenied}
	case Codex:
		return []string{PermissionRequest, UserPromptSubmit, Stop}
	case CopilotCLI:
		return []string{"permissionRequest", "notification", "postToolUse", "postToolUseFailure", "userPromptSubmitted", "agentStop", "sessionEnd"}
	}
	return nil
}

// Entry is one hook setup writes into an agent's config.
type Entry struct {
	Event string // as the agent spells it
	// Matcher is "" for every tool, which every entry Asktray installs is
	// (Claude Code's PreToolUse used to match only AskUserQuestion; a rerun
	// moves its handler to a group for every tool).
	Matcher string
	Args    []string // the command: Args[0] is the asktray executable
	Timeout int      // seconds: Claude Code and Codex "timeout", Copilot CLI "timeoutSec"
}

// Command returns e's command line for a shell, each argument quoted when it
// needs to be.
func (e Entry) Command() string {
	q := make([]string, len(e.Args))
	for i, s := range e.Args {
		q[i] = shellQuote(s)
	}
	return strings.Join(q, " ")
}

// Margin is how long before the agent's hook timeout the hook gives up, so
// that it returns no decision (and the agent's own prompt appears) rather
// than being killed.
const Margin = 3 * time.Second

// MaxDeadline is the longest question deadline a person can set
// (question.MaxTimeout; app/hook imports nothing of the app, a test pins the
// two together).
const MaxDeadline = 24 * time.Hour

// InstalledTimeout is the hook timeout, in seconds, setup writes: the longest
// question deadline plus room to return. It does not depend on the person's
// settings, so that the entry setup writes is the same bytes on every run:
// Codex asks the person to review a hook again whenever its entry changes
// (it keeps a hash of each hook, keyed by the file, the event and the hook's
// place there). The hook reads the person's deadline at run time, from the
// app, and waits at most that long; notices and session events return at
// once.
func InstalledTimeout() int {
	return int((MaxDeadline + 2*Margin) / time.Second)
}

// Entries returns the hooks setup installs for agent a: exe is the asktray
// executable and dataDir the data dir to pass ("" for the default). The
// command line holds nothing but these (no deadline), so it stays the same
// when settings change. Claude Code and Codex name the event in every
// payload; Copilot CLI does not (its userPromptSubmitted, postToolUse and
// agentStop payloads carry no event name, 1.0.102), so each of its entries
// passes --event.
func Entries(a Agent, exe, dataDir string) []Entry {
	t := InstalledTimeout()
	var out []Entry
	for _, ev := range Events(a) {
		args := []string{exe, "hook", string(a)}
		if a == CopilotCLI {
			args = append(args, "--event", ev)
		}
		if dataDir != "" {
			args = append(args, "--data-dir", dataDir)
		}
		out = append(out, Entry{Event: ev, Args: args, Timeout: t})
	}
	return out
}

// shellQuote quotes s for a POSIX shell unless it is plainly safe.
func shellQuote(s string) string {
	safe := func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,", r)
	}
	if s != "" && strings.IndexFunc(s, func(r rune) bool { return !safe(r) }) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
